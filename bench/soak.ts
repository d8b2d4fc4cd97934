// Soak: the production build (dist/server/main.js, as `npm start` runs it) under a mixed
// workload at a fixed rate for 30 minutes, with notification streams held open throughout. First a short
// calibration at full speed (16 concurrent, the same mix) measures what the server can do; the soak then
// runs at half of it. Every 10 s the server's resident memory (/proc/<pid>/status VmRSS), heap, open file
// descriptors (/proc/<pid>/fd), active handles and event-loop delay (its Prometheus metrics) are sampled.
//
//   npm run bench:soak                                   # PostgreSQL, 100,000 tickets, throw-away database
//   BENCH_REUSE_URL=postgres://postgres@127.0.0.1:5432/bench_1m npm run bench:soak
//   npm run bench:soak -- --pglite                       # embedded PGlite, 20,000 tickets
//   --minutes M (30), --rate R (requests/s in all; default half the calibration's), --streams N (200),
//   --calibrate S (20), --concurrency N (16, the calibration's), --tickets N, --reuse (bench/server-bench.ts)
//
// The mix (weights in bench/soak-workload.ts) is 85 % reads and 15 % writes, by seeded people of every role;
// it creates tickets, so a reused database grows. Criteria, checked at the end (exit 1 if one fails):
//   - no error: every answer 2xx, no socket error or timeout, no request left unsent because too many were
//     waiting, no stream ended by the server;
//   - RSS growth ≤ 5 %: median of the last sixth of the run (minutes 25–30) against the median of its second
//     sixth (minutes 5–10, after the warm-up);
//   - open file descriptors and active handles, net of the sockets the bench holds open (its connections and
//     streams) and of the database pool's connections: the same medians differ by at most 10.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import {
  benchArgs,
  buildServer,
  machine,
  metrics,
  openSeededDatabase,
  openStream,
  peopleFor,
  type Role,
  type SseStream,
  seedEmailOf,
  signInAs,
  startServer,
  waitForReady,
  writeResults,
} from "./server-bench.ts";
import { createWorkload, type Person, percentile } from "./soak-workload.ts";

const args = benchArgs({
  minutes: { type: "string" },
  rate: { type: "string" },
  streams: { type: "string" },
  calibrate: { type: "string" },
  concurrency: { type: "string" },
});
const minutes = Number(args.values.minutes ?? 30);
const streamCount = Number(args.values.streams ?? 200);
const calibrationSeconds = Number(args.values.calibrate ?? 20);
const concurrency = Number(args.values.concurrency ?? 16);
const sampleEveryMs = 10_000;
/** Requests waiting for an answer beyond this are not sent, and count as errors: the server fell behind. */
const maxInFlight = 512;
const rssGrowthLimit = 0.05;
const netSlack = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const mb = (bytes: number | undefined) => Math.round(((bytes ?? 0) / 2 ** 20) * 10) / 10;

const database = await openSeededDatabase(args);
buildServer();
// On PostgreSQL, DATA_DIR holds only the e-mail outbox (.eml files without SMTP_URL) and secrets: a
// temporary folder rather than the worktree's ./data. On PGlite it is the database's folder.
const dataDir = database.kind === "postgres" ? mkdtempSync(path.join(os.tmpdir(), "helpdesk-soak-")) : null;
const server = await startServer(database, dataDir ? { DATA_DIR: dataDir } : {}, { built: true });
const pid = server.process.pid!;
// The server's own warnings and errors (its JSON log lines at level warn and above, and anything on
// stderr), to explain any failure.
const serverLog = { errors: 0, warnings: 0, firstErrors: [] as string[], firstWarnings: [] as string[] };
const readLog = (
  stream: NodeJS.ReadableStream | null,
  isProblem: (line: string) => "error" | "warning" | null,
) => {
  let tail = "";
  stream?.on("data", (chunk: Buffer) => {
    const lines = (tail + chunk.toString()).split("\n");
    tail = lines.pop() ?? "";
    for (const line of lines) {
      const problem = isProblem(line);
      if (!problem) continue;
      const [count, first] =
        problem === "error"
          ? (["errors", serverLog.firstErrors] as const)
          : (["warnings", serverLog.firstWarnings] as const);
      serverLog[count]++;
      if (first.length < 5) first.push(line.slice(0, 1500));
    }
  });
};
readLog(server.process.stdout, (line) => {
  const level = Number(/"level":(\d+)/.exec(line)?.[1]);
  return level >= 50 ? "error" : level >= 40 ? "warning" : null;
});
readLog(server.process.stderr, (line) => (line.trim() ? "error" : null));
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const streamAgent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
const socketsOf = (a: http.Agent) =>
  [...Object.values(a.sockets), ...Object.values(a.freeSockets)].reduce(
    (n, list) => n + (list?.length ?? 0),
    0,
  );

try {
  await waitForReady(server.url);
  const people = peopleFor(database.tickets);
  // Every 50th seeded user is Inactive (sign-in refuses them).
  const activeUsers = Array.from({ length: people.users }, (_, i) => i + 1).filter((n) => n % 50 !== 49);
  const technicians = Array.from({ length: people.technicians }, (_, i) => i + 1);
  // Stream holders (up to 50 people of each role, several tabs each) and the workload's people.
  const streamHolders: Record<Role, number[]> = {
    technician: technicians.slice(0, 50),
    user: activeUsers.slice(0, 50),
    admin: [],
  };
  const workers: Record<Role, number[]> = {
    user: activeUsers.slice(0, 10),
    technician: technicians.slice(0, 10),
    admin: [1, 2, 3],
  };
  const roles = ["user", "technician", "admin"] as const;
  const emails = [
    ...new Set(
      roles.flatMap((role) => [...streamHolders[role], ...workers[role]].map((n) => seedEmailOf(role, n))),
    ),
  ];
  console.log(`Signing in ${emails.length} seeded people…`);
  const cookies = new Map<string, string>();
  for (let i = 0; i < emails.length; i += 4)
    await Promise.all(
      emails.slice(i, i + 4).map(async (email) => cookies.set(email, await signInAs(server.url, email))),
    );
  const personOf = (role: Role, n: number): Person => ({ role, cookie: cookies.get(seedEmailOf(role, n))! });
  const workload = createWorkload({
    baseUrl: server.url,
    agent,
    workers: {
      user: workers.user.map((n) => personOf("user", n)),
      technician: workers.technician.map((n) => personOf("technician", n)),
      admin: workers.admin.map((n) => personOf("admin", n)),
    },
  });

  // Streams: half technicians', half users', spread over the holders as tabs; reopened (Last-Event-ID)
  // if the server ends one, as a browser would, and counted.
  let pushEvents = 0;
  let streamDisconnects = 0;
  let soaking = true;
  const streams = new Set<SseStream>();
  const holders = Array.from({ length: streamCount }, (_, i) => {
    const role = i % 2 === 0 ? "technician" : "user";
    const list = streamHolders[role];
    return personOf(role, list[Math.floor(i / 2) % list.length]!).cookie;
  });
  const hold = async (cookie: string, lastEventId?: string): Promise<void> => {
    let last = lastEventId;
    let stream: SseStream | undefined;
    stream = await openStream(server.url, cookie, {
      agent: streamAgent,
      lastEventId,
      onEvent: (event, _data, _at, id) => {
        if (id) last = id;
        if (event === "notification" || event === "ticket") pushEvents++;
      },
      onClose: () => {
        if (stream) streams.delete(stream);
        if (!soaking) return;
        streamDisconnects++;
        workload.recordError("stream", "a notification stream was ended by the server");
        void sleep(2_000)
          .then(() => (soaking ? hold(cookie, last) : undefined))
          .catch((error) => workload.recordError("stream", `reopening a stream: ${String(error)}`));
      },
    });
    streams.add(stream);
  };
  for (let i = 0; i < holders.length; i += 20)
    await Promise.all(holders.slice(i, i + 20).map((c) => hold(c)));
  console.log(`${streams.size} notification streams open`);

  // Calibration: the same mix, closed loop at `concurrency`, after a 3 s warm-up.
  const closedLoop = async (seconds: number) => {
    const until = performance.now() + seconds * 1000;
    const before = workload.totals();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) await workload.runOne();
      }),
    );
    const after = workload.totals();
    return { requests: after.requests - before.requests, errors: after.errors - before.errors };
  };
  let rate = Number(args.values.rate ?? 0);
  let calibration: { seconds: number; concurrency: number; perSecond: number; errors: number } | null = null;
  if (!rate) {
    await closedLoop(3);
    const measured = await closedLoop(calibrationSeconds);
    const perSecond = Math.round(measured.requests / calibrationSeconds);
    calibration = { seconds: calibrationSeconds, concurrency, perSecond, errors: measured.errors };
    rate = Math.max(1, Math.round(perSecond / 2));
    console.log(
      `Calibration: ${perSecond} requests/s at ${concurrency} concurrent (${measured.errors} errors) over ${calibrationSeconds} s → soak at ${rate}/s`,
    );
    // At full speed some requests may pass the statement limit (503): shown, not counted against the soak.
    for (const error of workload.firstErrors().slice(0, 5)) console.log(`  calibration error: ${error}`);
    for (const line of [...serverLog.firstErrors, ...serverLog.firstWarnings])
      console.log(`  calibration server log: ${line}`);
  }
  workload.reset();
  streamDisconnects = 0;
  Object.assign(serverLog, { errors: 0, warnings: 0, firstErrors: [], firstWarnings: [] });

  // The soak: an open loop (requests start on schedule whatever the answers do), sampled every 10 s.
  interface Sample {
    t: number;
    rssMB: number;
    heapUsedMB: number;
    heapTotalMB: number;
    externalMB: number;
    fds: number;
    fdsNet: number;
    handles: number;
    handlesNet: number;
    eventLoopP99Ms: number;
    eventLoopMaxMs: number;
    requests: number;
    perSecond: number;
    p50Ms: number;
    p99Ms: number;
    errors: number;
    inFlight: number;
    clientSockets: number;
    streamsOpen: number;
    streamsOnServer: number;
    streamDisconnects: number;
    pushEvents: number;
    poolConnections: number;
    poolWaiting: number;
    mailQueue: number;
  }
  const samples: Sample[] = [];
  const seconds = minutes * 60;
  const start = performance.now();
  let inFlight = 0;
  const sample = async () => {
    const t = Math.round((performance.now() - start) / 1000);
    const series = await metrics(server);
    const value = (name: string) => series.get(name) ?? 0;
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    const fds = readdirSync(`/proc/${pid}/fd`).length;
    // Active handles, summed over their types (decision 055: no gauge named like a counter).
    const handles = [...series]
      .filter(([name]) => name.startsWith("nodejs_active_handles{"))
      .reduce((sum, [, count]) => sum + count, 0);
    const pool = value('helpdesk_db_pool_connections{state="total"}');
    // The sockets the bench holds (connections, streams, the scrape's) and the pool's are not leaks.
    const held = socketsOf(agent) + socketsOf(streamAgent) + 1 + pool;
    const window = workload.takeWindow();
    const s: Sample = {
      t,
      rssMB: Math.round(rssKb / 102.4) / 10,
      heapUsedMB: mb(value("nodejs_heap_size_used_bytes")),
      heapTotalMB: mb(value("nodejs_heap_size_total_bytes")),
      externalMB: mb(value("nodejs_external_memory_bytes")),
      fds,
      fdsNet: fds - held,
      handles,
      handlesNet: handles - held,
      eventLoopP99Ms: Math.round(value("nodejs_eventloop_lag_p99_seconds") * 10_000) / 10,
      eventLoopMaxMs: Math.round(value("nodejs_eventloop_lag_max_seconds") * 10_000) / 10,
      requests: window.latencies.length,
      perSecond: Math.round(window.latencies.length / (sampleEveryMs / 1000)),
      p50Ms: percentile(window.latencies, 0.5),
      p99Ms: percentile(window.latencies, 0.99),
      errors: window.errors,
      inFlight,
      clientSockets: socketsOf(agent),
      streamsOpen: streams.size,
      streamsOnServer: value("helpdesk_push_streams_open"),
      streamDisconnects,
      pushEvents,
      poolConnections: pool,
      poolWaiting: value('helpdesk_db_pool_connections{state="waiting"}'),
      mailQueue: value('helpdesk_queue_depth{queue="mail_outbox"}'),
    };
    samples.push(s);
    console.log(
      `${String(Math.floor(t / 60)).padStart(2)}:${String(t % 60).padStart(2, "0")}  rss ${s.rssMB} MB  heap ${s.heapUsedMB}/${s.heapTotalMB} MB  fds ${fds} (net ${s.fdsNet})  handles ${handles} (net ${s.handlesNet})  loop p99 ${s.eventLoopP99Ms} ms  ${s.perSecond} req/s p50 ${s.p50Ms} p99 ${s.p99Ms} ms  errors ${s.errors}  streams ${s.streamsOnServer}  mail queue ${s.mailQueue}`,
    );
  };
  console.log(
    `\nSoak: ${minutes} min at ${rate} requests/s, ${streams.size} streams; ${database.description}\n`,
  );
  const sampler = (async () => {
    await metrics(server); // resets the event-loop delay histogram: the first sample covers 10 s
    for (let next = sampleEveryMs; next <= seconds * 1000; next += sampleEveryMs) {
      await sleep(start + next - performance.now());
      await sample();
    }
  })();
  for (let started = 0; ; ) {
    const elapsed = performance.now() - start;
    if (elapsed >= seconds * 1000) break;
    for (const due = Math.floor((elapsed / 1000) * rate); started < due; started++) {
      if (inFlight >= maxInFlight) {
        workload.recordError("behind", `not sent: ${maxInFlight} requests were waiting for an answer`);
        continue;
      }
      inFlight++;
      void workload.runOne().finally(() => inFlight--);
    }
    await sleep(5);
  }
  await sampler;
  soaking = false;
  for (let waited = 0; inFlight > 0 && waited < 35_000; waited += 100) await sleep(100);

  // Verdict.
  const windowOf = (from: number, to: number) => samples.filter((s) => s.t >= from && s.t <= to);
  const baseline = windowOf(seconds / 6, seconds / 3);
  const final = windowOf(seconds - seconds / 6, seconds);
  const tenth = (x: number) => Math.round(x * 10) / 10;
  const compare = (key: "rssMB" | "fdsNet" | "handlesNet" | "heapUsedMB") => ({
    baseline: tenth(median(baseline.map((s) => s[key]))),
    final: tenth(median(final.map((s) => s[key]))),
  });
  const rss = compare("rssMB");
  const fdsNet = compare("fdsNet");
  const handlesNet = compare("handlesNet");
  const heap = compare("heapUsedMB");
  // The lowest heap reading of each window is the nearest to what survives a collection: a leak raises it.
  const heapFloor = {
    baseline: Math.min(...baseline.map((s) => s.heapUsedMB)),
    final: Math.min(...final.map((s) => s.heapUsedMB)),
  };
  const totals = workload.totals();
  const rssGrowth = rss.final / rss.baseline - 1;
  const from = (x: number) => `${Math.floor(x / 60)}:${String(Math.round(x % 60)).padStart(2, "0")}`;
  const checks = [
    {
      criterion: "errors = 0 (non-2xx answers, socket errors, timeouts, requests not sent, streams ended)",
      value: totals.errors,
      pass: totals.errors === 0,
    },
    {
      criterion: `RSS growth ≤ 5 %: median of the last sixth (${from(seconds - seconds / 6)}–${from(seconds)}) vs median of the second sixth (${from(seconds / 6)}–${from(seconds / 3)}, after warm-up)`,
      value: `${rss.baseline} → ${rss.final} MB (${(rssGrowth * 100).toFixed(1)} %)`,
      pass: rssGrowth <= rssGrowthLimit,
    },
    {
      criterion: `open fds not growing: same medians, net of the bench's sockets and the pool, within +${netSlack}`,
      value: `${fdsNet.baseline} → ${fdsNet.final}`,
      pass: fdsNet.final - fdsNet.baseline <= netSlack,
    },
    {
      criterion: `active handles not growing: same medians and netting, within +${netSlack}`,
      value: `${handlesNet.baseline} → ${handlesNet.final}`,
      pass: handlesNet.final - handlesNet.baseline <= netSlack,
    },
  ];
  console.log(`\n${database.description}; ${minutes} min at ${rate} requests/s, ${streamCount} streams`);
  console.table(workload.byOperation());
  // Without SMTP_URL every e-mail is a file in DATA_DIR/outbox (each new ticket mails every technician).
  const outbox = path.join(dataDir ?? database.env.DATA_DIR ?? "", "outbox");
  const mailFiles = existsSync(outbox) ? readdirSync(outbox).length : 0;
  console.log(
    `${totals.requests} requests, ${totals.errors} errors; heap used (median) ${heap.baseline} → ${heap.final} MB, its lowest reading ${heapFloor.baseline} → ${heapFloor.final} MB; ${pushEvents} push events received; ${streamDisconnects} stream disconnects; ${mailFiles} e-mails in the outbox folder`,
  );
  for (const error of workload.firstErrors()) console.log(`  error: ${error}`);
  console.log(`Server log: ${serverLog.errors} errors, ${serverLog.warnings} warnings`);
  for (const line of [...serverLog.firstErrors, ...serverLog.firstWarnings]) console.log(`  ${line}`);
  console.log();
  for (const check of checks)
    console.log(`${check.pass ? "PASS" : "FAIL"}  ${check.criterion}: ${check.value}`);
  writeResults(`soak-${database.kind}`, {
    bench: "soak",
    database: database.description,
    tickets: database.tickets,
    minutes,
    rate,
    calibration,
    streams: streamCount,
    mix: workload.mix(),
    machine: machine(),
    checks,
    totals: { ...totals, pushEvents, streamDisconnects, mailFiles },
    heapUsedMB: { median: heap, lowest: heapFloor },
    operations: workload.byOperation(),
    firstErrors: workload.firstErrors(),
    serverLog,
    samples,
  });
  if (checks.some((check) => !check.pass)) process.exitCode = 1;
} finally {
  agent.destroy();
  streamAgent.destroy();
  await server.stop();
  await database.cleanup();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
