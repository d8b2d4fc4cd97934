// Fault: kill -9 during write load (docs/faults.md). Writers create tickets through the real server (the
// production build, dist/server/main.js) without pause; mid-load the server is killed (SIGKILL: no shutdown) and started again at once on the same port
// and database, as a supervisor (systemd, Docker, Kubernetes) would. Measured: the time from the kill until
// /readyz answers 200 again, and whether every write the server acknowledged (201 with a ticket id) is
// there afterwards. Writes that failed or got no answer are not counted as acknowledged. Also reported: where
// the restarted server's start went (its own "startupMs" log line: Node and loading the code, opening the
// database, migrations, buildApp, listen), when it listened, and when it acknowledged its first write.
//
//   npm run bench:kill                  # PostgreSQL, throw-away database, 2,000 tickets
//   npm run bench:kill -- --pglite      # embedded PGlite (crash recovery of DATA_DIR)
//   --runs N (3), --concurrency N (8), --before S (3: load before the kill), --after S (3), --tickets N
//   --busy N (0): N processes that spin on the CPU for the whole run, at the server's priority, so that the
//   restart is measured on a busy machine (6 on two cores give a load average around 8 with the writers)
import { type ChildProcess, spawn } from "node:child_process";
import { loadavg } from "node:os";
import { kill } from "node:process";
import {
  benchArgs,
  buildServer,
  machine,
  openSeededDatabase,
  origin,
  type RunningServer,
  seedEmailOf,
  signInAs,
  startServer,
  waitForReady,
  writeResults,
} from "./server-bench.ts";

const args = benchArgs({
  runs: { type: "string" },
  concurrency: { type: "string" },
  before: { type: "string" },
  after: { type: "string" },
  port: { type: "string" },
  busy: { type: "string" },
});
if (!args.values.tickets && !process.env.BENCH_TICKETS) args.tickets = 2_000;
const runs = Number(args.values.runs ?? 3);
const concurrency = Number(args.values.concurrency ?? 8);
const beforeMs = Number(args.values.before ?? 3) * 1000;
const afterMs = Number(args.values.after ?? 3) * 1000;
const port = String(args.values.port ?? 4392);
const busy = Number(args.values.busy ?? 0);
const database = await openSeededDatabase(args);
buildServer();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Run {
  acknowledged: number;
  acknowledgedBeforeKill: number;
  failedOrUnanswered: number;
  readyAfterKillMs: number;
  /** From the kill until the new process listened (its start) and until it acknowledged a write. */
  listeningAfterKillMs: number;
  firstWriteAfterKillMs: number | null;
  /** What /readyz answered before its first 200, and how long each answer took. */
  notReady: string[];
  /** The restarted server's own account of its start (ms per phase from its process's start). */
  startup: Record<string, number> | null;
  loadAverage: number[];
  missing: number;
}

async function oneRun(run: number): Promise<Run> {
  let server: RunningServer = await startServer(database, { PORT: port }, { built: true });
  const url = server.url;
  let restarted = false;
  await waitForReady(url);
  const cookie = await signInAs(url, seedEmailOf("user", 1));
  const acknowledged: string[] = [];
  let failed = 0;
  let writing = true;
  let killedAt: number | null = null;
  let firstWriteAfterKillMs: number | null = null;
  const writer = async (w: number) => {
    for (let i = 0; writing; i++) {
      try {
        const response = await fetch(`${url}/api/tickets`, {
          method: "POST",
          headers: { "content-type": "application/json", origin, cookie },
          body: JSON.stringify({
            title: `Kill run ${run} writer ${w} write ${i}`,
            description: "Created by bench:kill",
            category: "Hardware",
            priority: "Medium",
            department: "IT",
            floor: "2",
            officeNumber: "201",
          }),
        });
        const body = (await response.json().catch(() => ({}))) as { ticketId?: string };
        if (response.status === 201 && body.ticketId) {
          acknowledged.push(body.ticketId);
          // Sent to the new process: the old one was dead by the time the restart began.
          if (killedAt !== null && restarted && firstWriteAfterKillMs === null)
            firstWriteAfterKillMs = Math.round(performance.now() - killedAt);
        } else failed++;
      } catch {
        // Refused or cut off while the server is down: not acknowledged. Retry soon, as a client would.
        failed++;
        await sleep(20);
      }
    }
  };
  const writers = Array.from({ length: concurrency }, (_, w) => writer(w));
  await sleep(beforeMs);

  const acknowledgedBeforeKill = acknowledged.length;
  const loadAverage = loadavg().map((n) => Math.round(n * 100) / 100);
  killedAt = performance.now();
  kill(server.process.pid!, "SIGKILL");
  await new Promise((resolve) =>
    server.process.exitCode !== null || server.process.signalCode !== null
      ? resolve(null)
      : server.process.once("exit", resolve),
  );
  restarted = true;
  server = await startServer(database, { PORT: port }, { built: true });
  const listeningAfterKillMs = Math.round(performance.now() - killedAt);
  // As waitForReady, keeping what /readyz answered before its 200 (a 503 is a ping over its 1 s limit).
  const notReady: string[] = [];
  for (;;) {
    const sent = performance.now();
    const response = await fetch(`${url}/readyz`).catch(() => null);
    await response?.arrayBuffer();
    if (response?.ok) break;
    notReady.push(`${response?.status ?? "no answer"} after ${Math.round(performance.now() - sent)} ms`);
    await sleep(20);
  }
  const readyAfterKillMs = Math.round(performance.now() - killedAt);
  const startup = await Promise.race([server.startup, sleep(5_000).then(() => null)]);
  await sleep(afterMs);
  writing = false;
  await Promise.all(writers);

  // Every acknowledged write, read back through the restarted server.
  let missing = 0;
  for (const id of acknowledged) {
    const response = await fetch(`${url}/api/tickets/${id}`, { headers: { cookie } });
    await response.arrayBuffer();
    if (response.status !== 200) missing++;
  }
  await server.stop();
  const result = {
    acknowledged: acknowledged.length,
    acknowledgedBeforeKill,
    failedOrUnanswered: failed,
    readyAfterKillMs,
    listeningAfterKillMs,
    firstWriteAfterKillMs,
    notReady,
    startup,
    loadAverage,
    missing,
  };
  const phases = startup
    ? `node and code ${startup.process}, database ${startup.database}, migrations ${startup.migrations}, ` +
      `app ${startup.app}, listen ${startup.listen} ms`
    : "phases not logged";
  console.log(
    `run ${run} (load ${loadAverage.join(", ")}): /readyz 200 ${readyAfterKillMs} ms after the kill; listening ` +
      `after ${listeningAfterKillMs} ms (${phases}); first write acknowledged after ${firstWriteAfterKillMs ?? "–"} ms; ` +
      (notReady.length > 0 ? `/readyz before its 200: ${notReady.join(", ")}; ` : "") +
      `${result.acknowledged} writes acknowledged (${acknowledgedBeforeKill} before the kill), ${failed} failed or ` +
      `unanswered, ${missing} acknowledged writes missing`,
  );
  return result;
}

const burners: ChildProcess[] = Array.from({ length: busy }, () =>
  spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
);
if (busy > 0) {
  // A minute of it first, so that the load average (a one-minute mean) says how busy the machine is.
  console.log(`${busy} processes spinning on the CPU; waiting 60 s for the load average to show it`);
  await sleep(60_000);
}
try {
  const results: Run[] = [];
  for (let run = 1; run <= runs; run++) results.push(await oneRun(run));
  console.log(`\n${database.description}, ${concurrency} writers, ${busy} processes spinning beside`);
  console.table(
    results.map((r, i) => ({
      run: i + 1,
      "/readyz after kill ms": r.readyAfterKillMs,
      "listening ms": r.listeningAfterKillMs,
      "first write ms": r.firstWriteAfterKillMs,
      "node+code": r.startup?.process,
      database: r.startup?.database,
      migrations: r.startup?.migrations,
      app: r.startup?.app,
      acknowledged: r.acknowledged,
      "failed/unanswered": r.failedOrUnanswered,
      missing: r.missing,
    })),
  );
  writeResults(`kill-during-writes-${database.kind}`, {
    bench: "kill-during-writes",
    database: database.description,
    tickets: database.tickets,
    concurrency,
    busy,
    machine: machine(),
    runs: results,
  });
  if (results.some((r) => r.missing > 0)) process.exitCode = 1;
} finally {
  for (const burner of burners) burner.kill();
  await database.cleanup();
}
