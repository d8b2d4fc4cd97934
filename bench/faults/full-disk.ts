// Fault: the embedded database's disk fills up (docs/faults.md). The real server (the production build, as
// `npm start` runs it) keeps PGlite in DATA_DIR on a small filesystem of its own: a tmpfs this script mounts
// (root only) or a folder you give with --dir on a small filesystem you made. A filler file leaves little
// room; writers then upload attachments (they live in the database) and create tickets with them until
// changes are refused. Checked: every refusal answers at once with a clear message (no hang, no generic
// 500); reading and /readyz go on; once the filler is removed, changes are taken again without a restart;
// after a restart every acknowledged ticket and attachment is there, byte for byte.
//
//   sudo npm run fault:full-disk                 # mounts a 192 MB tmpfs in a temporary folder
//   npm run fault:full-disk -- --dir /mnt/small  # a small filesystem of your own (its free space is used)
//   --size MB (192: the tmpfs), --headroom MB (96: free space the filler leaves), --file-kb KB (1024)
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmdirSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  type BenchDatabase,
  machine,
  origin,
  type RunningServer,
  root,
  seed,
  seedEmailOf,
  signInAs,
  startServer,
  waitForReady,
  writeResults,
} from "../server-bench.ts";

const { values } = parseArgs({
  options: {
    dir: { type: "string" },
    size: { type: "string", default: "192" },
    headroom: { type: "string", default: "96" },
    "file-kb": { type: "string", default: "1024" },
    "no-results": { type: "boolean", default: false },
  },
});
const mb = 1024 * 1024;
const headroom = Number(values.headroom) * mb;
const fileBytes = Number(values["file-kb"]) * 1024;
/** A request that takes longer than this counts as hanging. */
const answerWithinMs = 15_000;
const freeOf = (dir: string) => {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
};

let mounted: string | null = null;
let dataDir: string;
if (values.dir) {
  dataDir = path.resolve(values.dir, `helpdesk-full-disk-${Date.now().toString(36)}`);
} else {
  const mountPoint = mkdtempSync(path.join(os.tmpdir(), "helpdesk-full-disk-"));
  const mount = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${values.size}m`, "tmpfs", mountPoint], {
    encoding: "utf8",
  });
  if (mount.status !== 0) {
    rmdirSync(mountPoint);
    console.error(
      `Could not mount a tmpfs (${(mount.stderr || mount.error?.message || "").trim()}): run as root, or give ` +
        "--dir on a small filesystem of your own (a loop device, a USB stick).",
    );
    process.exit(2);
  }
  mounted = mountPoint;
  dataDir = path.join(mountPoint, "data");
}
const database: BenchDatabase = {
  kind: "pglite",
  env: { DATA_DIR: dataDir },
  tickets: 10,
  description: `PGlite in ${dataDir}${mounted ? ` (tmpfs of ${values.size} MB)` : ""}`,
  cleanup: async () => {},
};
const filler = path.join(path.dirname(dataDir), `filler-${Date.now().toString(36)}`);
let server: RunningServer | null = null;

interface Answer {
  status: number | "no answer" | "error";
  ms: number;
  body: string;
}

async function call(url: string, init: RequestInit): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(answerWithinMs) });
    const body = await response.text();
    return { status: response.status, ms: Math.round(performance.now() - started), body };
  } catch (error) {
    const timedOut = (error as Error).name === "TimeoutError";
    return {
      status: timedOut ? "no answer" : "error",
      ms: Math.round(performance.now() - started),
      // fetch's own message says only "fetch failed"; its cause says what the socket did.
      body: `${String(error)}${(error as Error).cause ? ` (${String((error as Error).cause)})` : ""}`,
    };
  }
}

try {
  seed(database.env, database.tickets);
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build-server.mjs")], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("building the server failed");
  server = await startServer(database, {}, { built: true });
  await waitForReady(server.url);
  const cookie = await signInAs(server.url, seedEmailOf("user", 1));
  const freeAtStart = freeOf(dataDir);
  writeFileSync(filler, Buffer.alloc(Math.max(0, freeAtStart - headroom)));
  console.log(
    `${database.description}: ${(freeAtStart / mb).toFixed(0)} MB free at start, ` +
      `${(freeOf(dataDir) / mb).toFixed(0)} MB after the filler`,
  );

  // Writers: an attachment of incompressible bytes, then a ticket with it, until changes are refused.
  const acknowledged: Array<{ ticketId: string; attachmentId: string; sha256: string }> = [];
  const refusals: Answer[] = [];
  let minFree = Number.POSITIVE_INFINITY;
  const createTicketWithFile = async (label: string) => {
    const bytes = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(fileBytes)]);
    const upload = await call(`${server!.url}/api/attachments?fileName=${label}.pdf`, {
      method: "POST",
      headers: { origin, cookie, "content-type": "application/pdf" },
      body: bytes,
    });
    if (upload.status !== 201) return upload;
    const { id: attachmentId } = JSON.parse(upload.body) as { id: string };
    const created = await call(`${server!.url}/api/tickets`, {
      method: "POST",
      headers: { origin, cookie, "content-type": "application/json" },
      body: JSON.stringify({
        title: `Full disk ${label}`,
        description: "Created by fault:full-disk",
        category: "Hardware",
        priority: "Low",
        department: "IT",
        floor: "1",
        officeNumber: "101",
        attachmentIds: [attachmentId],
      }),
    });
    if (created.status !== 201) return created;
    const { ticketId } = JSON.parse(created.body) as { ticketId: string };
    acknowledged.push({ ticketId, attachmentId, sha256: createHash("sha256").update(bytes).digest("hex") });
    return created;
  };
  const writer = async (w: number) => {
    for (let i = 0, refusedInARow = 0; refusedInARow < 5 && i < 10_000; i++) {
      const answer = await createTicketWithFile(`w${w}-${i}`);
      minFree = Math.min(minFree, freeOf(dataDir));
      if (answer.status === 201) refusedInARow = 0;
      else {
        refusedInARow++;
        refusals.push(answer);
      }
    }
  };
  const fillStarted = performance.now();
  await Promise.all([writer(1), writer(2)]);
  const fillSeconds = (performance.now() - fillStarted) / 1000;

  const readyWhileFull = await call(`${server.url}/readyz`, {});
  const readWhileFull = await call(`${server.url}/api/tickets`, { headers: { cookie } });
  const refusedKinds = new Map<string, { count: number; maxMs: number }>();
  for (const r of refusals) {
    const key = `${r.status} ${r.body.slice(0, 200)}`;
    const kind = refusedKinds.get(key) ?? { count: 0, maxMs: 0 };
    refusedKinds.set(key, { count: kind.count + 1, maxMs: Math.max(kind.maxMs, r.ms) });
  }
  console.log(
    `${acknowledged.length} tickets with a ${values["file-kb"]} KB attachment acknowledged in ${fillSeconds.toFixed(1)} s; ` +
      `least free seen ${(minFree / mb).toFixed(1)} MB; then refused:`,
  );
  for (const [answer, { count, maxMs }] of refusedKinds)
    console.log(`  ${count} × ${answer} (slowest ${maxMs} ms)`);
  console.log(
    `While full: /readyz ${readyWhileFull.status} in ${readyWhileFull.ms} ms; ` +
      `GET /api/tickets ${readWhileFull.status} in ${readWhileFull.ms} ms`,
  );

  // Space freed: the same server takes changes again.
  rmSync(filler);
  const afterFreeing = await createTicketWithFile("after-freeing");
  console.log(
    `Filler removed (${(freeOf(dataDir) / mb).toFixed(0)} MB free): a new ticket with a file → ` +
      `${afterFreeing.status} in ${afterFreeing.ms} ms, without a restart`,
  );

  // A restart, then everything acknowledged must be there, byte for byte.
  await server.stop();
  const restartedAt = performance.now();
  server = await startServer(database, {}, { built: true });
  await waitForReady(server.url);
  const restartMs = Math.round(performance.now() - restartedAt);
  let missingTickets = 0;
  let damagedFiles = 0;
  for (const { ticketId, attachmentId, sha256 } of acknowledged) {
    const ticket = await fetch(`${server.url}/api/tickets/${ticketId}`, { headers: { cookie } });
    await ticket.arrayBuffer();
    if (ticket.status !== 200) missingTickets++;
    const file = await fetch(`${server.url}/api/attachments/${attachmentId}`, { headers: { cookie } });
    const bytes = Buffer.from(await file.arrayBuffer());
    if (file.status !== 200 || createHash("sha256").update(bytes).digest("hex") !== sha256) damagedFiles++;
  }
  console.log(
    `Restarted (/readyz 200 after ${restartMs} ms): ${acknowledged.length - missingTickets} of ` +
      `${acknowledged.length} acknowledged tickets there, ${damagedFiles} attachments missing or damaged`,
  );

  const hung = refusals.filter((r) => r.status === "no answer" || r.ms >= answerWithinMs).length;
  const unclear = refusals.filter((r) => r.status !== 507).length;
  if (!values["no-results"])
    writeResults("full-disk-pglite", {
      fault: "full-disk",
      database: database.description,
      headroomMB: headroom / mb,
      fileKB: fileBytes / 1024,
      machine: machine(),
      acknowledged: acknowledged.length,
      leastFreeMB: Number((minFree / mb).toFixed(1)),
      refusals: [...refusedKinds].map(([answer, kind]) => ({ answer, ...kind })),
      whileFull: { readyz: readyWhileFull.status, listTickets: readWhileFull.status },
      afterFreeing: afterFreeing.status,
      restartMs,
      missingTickets,
      damagedFiles,
    });
  if (hung > 0) console.log(`FAILED: ${hung} requests got no answer within ${answerWithinMs / 1000} s`);
  if (unclear > 0) console.log(`FAILED: ${unclear} refusals were not 507 with the disk-full message`);
  if (acknowledged.length === 0 || refusals.length === 0) console.log("FAILED: the disk never filled");
  if (
    hung > 0 ||
    unclear > 0 ||
    acknowledged.length === 0 ||
    refusals.length === 0 ||
    afterFreeing.status !== 201 ||
    missingTickets > 0 ||
    damagedFiles > 0
  )
    process.exitCode = 1;
} finally {
  if (server) {
    // A server stuck on a full disk does not stop by itself.
    const stopping = server.stop();
    const stopped = await Promise.race([stopping.then(() => true), sleep(15_000).then(() => false)]);
    if (!stopped) server.process.kill("SIGKILL");
  }
  rmSync(filler, { force: true });
  if (mounted) {
    spawnSync("umount", [mounted]);
    rmdirSync(mounted);
  } else rmSync(dataDir, { recursive: true, force: true });
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
