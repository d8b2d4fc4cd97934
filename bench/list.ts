// Ticket list pages under load (decision 040): the real server (npm start's entry point) on a seeded
// database, autocannon at 16 and 64 connections for each list request (first page, a deep page by cursor,
// search, filters) with the session of each role, and /healthz (no database) in the same run, so that each
// figure is also a ratio to the trivial route's, which survives a noisy machine.
//
//   npm run bench:list                                  # PostgreSQL, 100,000 tickets, throw-away database
//   npm run bench:list -- --pglite                      # embedded PGlite, 20,000 tickets
//   BENCH_REUSE_URL=postgres://postgres@127.0.0.1:5432/bench_1m npm run bench:list   # a seeded million
//   --tickets N, --duration S (10), --reuse, --connections 16,64  (bench/server-bench.ts)
//   --only "admin: All,page 41"                         # only the cases whose names contain one of these
//   --profile                                           # the server under V8's CPU profiler (bench:profile reads it)
//
// Each case also gives the CPU one request costs in the server, in its PostgreSQL backends and in autocannon
// (from /proc), which bounds the rate two cores can reach whatever else runs on the machine.
//
// autocannon runs in this process, on the same machine as the server: both share its cores.
import {
  benchArgs,
  connectionCountsOf,
  cpuMeter,
  type LoadCase,
  loadCases,
  machine,
  openSeededDatabase,
  type Role,
  signInEveryRole,
  startServer,
  waitForReady,
  writeResults,
} from "./server-bench.ts";

const args = benchArgs({ connections: { type: "string" }, only: { type: "string" } });
// --only admin,page 41: the cases whose names contain one of these (and /healthz, the yardstick, always).
const only =
  typeof args.values.only === "string" ? args.values.only.split(",").map((part) => part.trim()) : null;
const connectionCounts = connectionCountsOf(args, "16,64");
const database = await openSeededDatabase(args);
const server = await startServer(database, {}, { profile: Boolean(args.values.profile) });
try {
  await waitForReady(server.url);
  const cookies = await signInEveryRole(server.url);

  const get = async (role: Role, query: string) => {
    const response = await fetch(`${server.url}/api/tickets${query}`, { headers: { cookie: cookies[role] } });
    if (!response.ok) throw new Error(`${query}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { items: unknown[]; nextCursor: string | null };
  };
  // A deep page: follow the cursor 40 pages (1,000 rows) into the list.
  const deepCursor = async (role: Role, query: string) => {
    let cursor: string | null = null;
    for (let i = 0; i < 40; i++) {
      const page = await get(
        role,
        `${query}${cursor ? `${query ? "&" : "?"}cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    return cursor ? `${query}${query ? "&" : "?"}cursor=${encodeURIComponent(cursor)}` : query;
  };

  const cases: LoadCase[] = [
    { name: "/healthz (trivial, no database)", role: null, path: "/healthz" },
    { name: "user: My Support Tickets, page 1", role: "user", path: "/api/tickets" },
    { name: "technician: All Tickets, page 1", role: "technician", path: "/api/tickets" },
    { name: "technician: My Tickets, page 1", role: "technician", path: "/api/tickets?scope=mine" },
    { name: "technician: Unassigned, page 1", role: "technician", path: "/api/tickets?scope=unassigned" },
    { name: "admin: All Tickets, page 1", role: "admin", path: "/api/tickets" },
    { name: "admin: page 41 (cursor)", role: "admin", path: `/api/tickets${await deepCursor("admin", "")}` },
    {
      name: "technician: page 41 (cursor)",
      role: "technician",
      path: `/api/tickets${await deepCursor("technician", "")}`,
    },
    { name: "admin: search 'printer'", role: "admin", path: "/api/tickets?q=printer" },
    // A number of the seed's titles: one ticket matches '987654', 11,111 match '12' (12, 120–129, …).
    { name: "admin: search a rare word '987654'", role: "admin", path: "/api/tickets?q=987654" },
    { name: "admin: search '12' (1 in 90)", role: "admin", path: "/api/tickets?q=12" },
    { name: "technician: search 'printer'", role: "technician", path: "/api/tickets?q=printer" },
    {
      name: "admin: filter Resolved + High",
      role: "admin",
      path: "/api/tickets?status=Resolved&priority=High",
    },
    { name: "admin: by priority desc", role: "admin", path: "/api/tickets?sort=priority&dir=desc" },
  ];
  console.log(`\n${database.description}; ${args.duration} s per run\n`);
  const chosen = only
    ? cases.filter((c) => c.role === null || only.some((part) => c.name.includes(part)))
    : cases;
  const results = await loadCases({
    server,
    cookies,
    cases: chosen,
    connectionCounts,
    duration: args.duration,
    cpu: cpuMeter(server, database),
  });
  writeResults(`list-${database.kind}`, {
    bench: "list",
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
