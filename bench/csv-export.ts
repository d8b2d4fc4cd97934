// CSV export at scale (decision 026): seeds tickets, then streams the export through the
// real service (the same chunks the route sends) and prints rows per second and the peak memory above
// the start. Printed figures only (and bench/results/csv-export-<database>.json); no test asserts them.
//
//   npm run bench:csv                          # PostgreSQL on 127.0.0.1:5432 (BENCH_DATABASE_URL), 1,000,000 tickets
//   npm run bench:csv -- --pglite              # embedded PGlite, 100,000 tickets
//   BENCH_TICKETS=400000 npm run bench:csv     # another size
//   node --expose-gc --import tsx bench/csv-export.ts   # memory measured from a collected heap
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { exportTicketsFor } from "#server/features/exports/ticket-export.service.ts";
import type { Actor } from "#shared/permissions.ts";
import { exportTicketsQuerySchema } from "#shared/tickets/ticket.schemas.ts";
import { openBenchDatabase } from "./bench-database.ts";

const usePglite = process.argv.includes("--pglite");
if (usePglite) delete process.env.BENCH_DATABASE_URL;
else process.env.BENCH_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
const ticketCount = Number(process.env.BENCH_TICKETS ?? (usePglite ? 100_000 : 1_000_000));
const { database, cleanup } = await openBenchDatabase("csv");
const { db } = database;
console.log(`Database: ${database.kind}; seeding ${ticketCount.toLocaleString("en")} tickets…`);
await database.migrate();

const seedStart = performance.now();
await db.execute(sql`
  insert into users (id, name, email, role)
  select 'u' || g, 'User ' || g, 'u' || g || '@bench.test', 'user' from generate_series(1, 2000) g
  union all select 't' || g, 'Tech ' || g, 't' || g || '@bench.test', 'technician' from generate_series(1, 25) g
  union all select 'a1', 'Admin', 'a1@bench.test', 'admin'`);
const batch = 50_000;
for (let from = 1; from <= ticketCount; from += batch) {
  const to = Math.min(ticketCount, from + batch - 1);
  await db.execute(sql`
    insert into tickets (id, title, description, category, priority, status, created_by, assigned_to,
                         department, floor, office_number, created_at, updated_at, sla_due_at)
    select 'TKT' || upper(to_hex(g)) || 'BENCH', 'Printer on floor ' || (g % 9) || ' jams, "again", =SUM(A1)',
           'Issue ' || g, 'Hardware', 'Low',
           case when g % 10 = 0 then 'Open' else 'In Progress' end::ticket_status,
           'u' || (1 + g % 2000), case when g % 10 = 0 then null else 't' || (1 + g % 25) end,
           'General', '1', '101', now() - (g || ' minutes')::interval, now(),
           case when g % 3 = 0 then now() + (g || ' seconds')::interval end
    from generate_series(${from}::int, ${to}::int) g`);
}
await db.execute(sql`analyze`);
console.log(`Seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`);

const actors: Record<string, Actor> = {
  admin: { id: "a1", role: "admin" },
  technician: { id: "t7", role: "technician" },
  user: { id: "u42", role: "user" },
};

interface Figure {
  export: string;
  rows: number;
  megabytes: number;
  seconds: number;
  rowsPerSecond: number;
  peakRssAboveStartMb: number;
  /** The JavaScript heap in use at its highest: what the export holds, as RSS also counts freed memory V8 keeps. */
  peakHeapUsedMb: number;
}
const figures: Figure[] = [];

async function measure(name: string, actor: Actor, query: Record<string, unknown>) {
  globalThis.gc?.();
  const startRss = process.memoryUsage().rss;
  let peakRss = startRss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sample = () => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  };
  const sampler = setInterval(sample, 20);
  const started = performance.now();
  const { chunks } = await exportTicketsFor({ db, actor }, exportTicketsQuerySchema.parse(query));
  let bytes = 0;
  let lines = 0;
  for await (const chunk of chunks) {
    bytes += Buffer.byteLength(chunk);
    for (let i = chunk.indexOf("\r\n"); i !== -1; i = chunk.indexOf("\r\n", i + 2)) lines++;
    sample();
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const rows = lines - 1; // the header row
  const figure = {
    export: name,
    rows,
    megabytes: Number((bytes / 1e6).toFixed(1)),
    seconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Math.round(rows / seconds),
    peakRssAboveStartMb: Number(((peakRss - startRss) / 1e6).toFixed(1)),
    peakHeapUsedMb: Number((peakHeap / 1e6).toFixed(1)),
  };
  figures.push(figure);
  console.log(
    `${name.padEnd(44)} ${String(rows).padStart(9)} rows  ${String(figure.megabytes).padStart(7)} MB  ` +
      `${String(figure.seconds).padStart(7)} s  ${String(figure.rowsPerSecond).padStart(7)} rows/s  ` +
      `peak RSS +${figure.peakRssAboveStartMb} MB  peak heap ${figure.peakHeapUsedMb} MB`,
  );
}

await measure("admin, every ticket, newest first", actors.admin!, {});
await measure("admin, status Open", actors.admin!, { status: "Open" });
await measure("technician, sorted by due time", actors.technician!, { sort: "due" });
await measure("user, their own tickets", actors.user!, {});

const resultsDir = fileURLToPath(new URL("results", import.meta.url));
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  `${resultsDir}/csv-export-${database.kind}.json`,
  `${JSON.stringify({ tickets: ticketCount, database: database.kind, figures }, null, 2)}\n`,
);
await cleanup();
