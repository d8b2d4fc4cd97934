// Dashboard counts and reports under load (decision 040): every dashboard's counts
// (/api/tickets/summary) with the session of each role, and each of the /reports page's five requests over
// the last 30 and 365 days, at 1 connection (latency of one request at a time) and 16, with /healthz in
// the same run as the trivial yardstick.
//
//   npm run bench:counts                                 # PostgreSQL, 100,000 tickets, throw-away database
//   npm run bench:counts -- --pglite                     # embedded PGlite, 20,000 tickets
//   BENCH_REUSE_URL=postgres://postgres@127.0.0.1:5432/bench_1m npm run bench:counts
//   --tickets N, --duration S (10), --reuse, --connections 1,16  (bench/server-bench.ts)
import {
  benchArgs,
  connectionCountsOf,
  type LoadCase,
  loadCases,
  machine,
  openSeededDatabase,
  signInEveryRole,
  startServer,
  waitForReady,
  writeResults,
} from "./server-bench.ts";

const args = benchArgs({ connections: { type: "string" } });
const connectionCounts = connectionCountsOf(args, "1,16");
const database = await openSeededDatabase(args);
const server = await startServer(database, {}, { profile: Boolean(args.values.profile) });
try {
  await waitForReady(server.url);
  const cookies = await signInEveryRole(server.url);

  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const range = (days: number) => `from=${day(days - 1)}&to=${day(0)}`;
  const cases: LoadCase[] = [
    { name: "/healthz (trivial, no database)", role: null, path: "/healthz" },
    { name: "user home counts (created)", role: "user", path: "/api/tickets/summary?scope=created" },
    { name: "user counts (visible)", role: "user", path: "/api/tickets/summary" },
    { name: "technician home counts", role: "technician", path: "/api/tickets/summary" },
    { name: "admin home counts", role: "admin", path: "/api/tickets/summary" },
  ];
  for (const days of [30, 365]) {
    for (const report of [
      "ticket-volume",
      "ticket-breakdown",
      "response-times",
      "satisfaction",
      "workload",
    ]) {
      cases.push({
        name: `admin report ${report}, ${days} days`,
        role: "admin",
        path: `/api/reports/${report}?${range(days)}`,
      });
    }
  }
  cases.push({
    name: "technician report satisfaction, 365 days",
    role: "technician",
    path: `/api/reports/satisfaction?${range(365)}`,
  });
  console.log(`\n${database.description}; ${args.duration} s per run\n`);
  const results = await loadCases({ server, cookies, cases, connectionCounts, duration: args.duration });
  writeResults(`counts-${database.kind}`, {
    bench: "counts",
    database: database.description,
    tickets: database.tickets,
    durationSeconds: args.duration,
    machine: machine(),
    results,
  });
} finally {
  await server.stop();
  await database.cleanup();
  if (server.profileDir)
    console.log(`CPU profile in ${server.profileDir}: npm run bench:profile -- ${server.profileDir}`);
}
