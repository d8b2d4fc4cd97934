// Reports at scale (decision 027): seeds tickets spread over two years with realistic
// statuses, times and ratings, then times each report of the /reports page through the real services
// (median of several runs) and the whole page (its five requests at once, as the browser sends them).
// Printed figures only (and bench/results/reports-<database>.json); no test asserts them.
//
//   npm run bench:reports                        # PostgreSQL on 127.0.0.1:5432 (BENCH_DATABASE_URL), 1,000,000 tickets
//   npm run bench:reports -- --pglite            # embedded PGlite, 100,000 tickets
//   BENCH_TICKETS=200000 npm run bench:reports   # another size
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { ServiceContext } from "#server/context.ts";
import { createDatabase } from "#server/db/client.ts";
import {
  reportResponseTimes,
  reportSatisfaction,
  reportTicketBreakdown,
  reportTicketVolume,
  reportWorkload,
} from "#server/features/reports/report.service.ts";
import type { Actor } from "#shared/permissions.ts";
import { type ReportQueryInput, reportQuerySchema } from "#shared/reports/report.schemas.ts";
import { openBenchDatabase } from "./bench-database.ts";

const usePglite = process.argv.includes("--pglite");
if (usePglite) delete process.env.BENCH_DATABASE_URL;
else process.env.BENCH_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
const ticketCount = Number(process.env.BENCH_TICKETS ?? (usePglite ? 100_000 : 1_000_000));
const runs = Number(process.env.BENCH_RUNS ?? 5);

// BENCH_REUSE_URL: a database kept between runs (created beforehand; seeded on the first run, only timed
// afterwards), e.g. to time it again after adding an index. `--seed-only` stops after seeding.
const reuseUrl = process.env.BENCH_REUSE_URL;
const { database, cleanup } = reuseUrl
  ? (() => {
      const kept = createDatabase({ databaseUrl: reuseUrl, pool: { statementTimeoutMs: 600_000 } });
      return { database: kept, cleanup: () => kept.close() };
    })()
  : await openBenchDatabase("reports");
const { db } = database;
// A reused database is migrated (a new migration's backfill runs here) and seeded only while it is empty.
await database.migrate();
const seeded = reuseUrl
  ? Number(
      (
        (await db.execute(sql`select count(*)::int as n from tickets`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]?.n,
    ) > 0
  : false;
if (!seeded) await seed();
if (process.argv.includes("--seed-only")) {
  await cleanup();
  process.exit(0);
}

async function seed() {
  console.log(
    `Database: ${database.kind}; seeding ${ticketCount.toLocaleString("en")} tickets over two years…`,
  );
  const seedStart = performance.now();
  await db.execute(sql`
  insert into users (id, name, email, role)
  select 'u' || g, 'User ' || g, 'u' || g || '@bench.test', 'user' from generate_series(1, 2000) g
  union all select 't' || g, 'Tech ' || g, 't' || g || '@bench.test', 'technician' from generate_series(1, 25) g
  union all select 'a1', 'Admin', 'a1@bench.test', 'admin'`);
  await db.execute(sql`select setseed(0.27)`);
  const batch = 50_000;
  for (let from = 1; from <= ticketCount; from += batch) {
    const to = Math.min(ticketCount, from + batch - 1);
    // Recent tickets are still open; older ones mostly Closed. First responses within hours, resolutions
    // within days (skewed: most quick, a long tail).
    await db.execute(sql`
    with r as (
      select g, now() - random() * interval '730 days' as created, random() as s, random() as a,
             random() as b, random() as c, 1 + (g % 25) as tech
      from generate_series(${from}::int, ${to}::int) g
    ), t as (
      select *, case
                  when created > now() - interval '3 days' then
                    case when s < 0.45 then 'Open' when s < 0.8 then 'In Progress' else 'Resolved' end
                  when created > now() - interval '14 days' then
                    case when s < 0.05 then 'Open' when s < 0.15 then 'In Progress'
                         when s < 0.5 then 'Resolved' else 'Closed' end
                  else case when s < 0.005 then 'In Progress' when s < 0.03 then 'Resolved' else 'Closed' end
                end::ticket_status as st
      from r
    ), f as (
      select *, case when st <> 'Open' or a < 0.3 then created + a * a * interval '8 hours' end as responded,
             case when st = 'Resolved' or (st = 'Closed' and b > 0.08)
                  then least(now(), created + interval '10 minutes' + b * b * interval '10 days') end as resolved
      from t
    )
    insert into tickets (id, title, description, category, priority, status, created_by, assigned_to,
                         resolved_by, department, floor, office_number, created_at, updated_at,
                         first_responded_at, resolved_at)
    select 'TKT' || upper(to_hex(g)) || 'BENCH', 'Ticket ' || g, 'Issue ' || g,
           (array['Hardware', 'Software', 'Network', 'Other'])[1 + (g % 4)]::ticket_category,
           (array['Low', 'Low', 'Medium', 'High'])[1 + ((g / 4) % 4)]::ticket_priority, st,
           'u' || (1 + g % 2000), case when st = 'Open' and a < 0.7 then null else 't' || tech end,
           case when resolved is not null then 't' || tech end,
           (array['General', 'IT', 'HR', 'Finance', 'Sales', 'Operations'])[1 + (g % 6)], '1', '101',
           created, coalesce(resolved, responded, created) + c * interval '2 days', responded, resolved
    from f`);
  }
  // Feedback on a third of the resolved tickets, mostly good, a fifth with words.
  await db.execute(sql`
  insert into ticket_feedback (ticket_id, rating, comment, submitted_by, submitted_at)
  select id, case when random() < 0.55 then 5 when random() < 0.6 then 4 when random() < 0.6 then 3
                  when random() < 0.5 then 2 else 1 end,
         case when random() < 0.2 then 'Thanks, quick and friendly' else '' end, created_by,
         resolved_at + interval '1 hour'
  from tickets where resolved_at is not null and random() < 0.33`);
  // As autovacuum leaves a table in use: visibility map set (index-only scans), statistics fresh.
  await db.execute(sql`vacuum analyze`);
  console.log(`Seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`);
}
const count = async (table: string) =>
  Number(
    (
      (await db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
        rows: { n: number }[];
      }
    ).rows[0]?.n,
  );
const tickets = await count("tickets");
const feedbackCount = await count("ticket_feedback");
console.log(`${tickets.toLocaleString("en")} tickets, ${feedbackCount.toLocaleString("en")} ratings\n`);
const admin: Actor = { id: "a1", role: "admin" };
const ctx: ServiceContext = { db, actor: admin };
const dateOf = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const rangeOf = (days: number, group: "day" | "week"): ReportQueryInput => ({
  from: dateOf(days - 1),
  to: dateOf(0),
  group,
});

const reports = {
  "ticket-volume": (q: ReportQueryInput) => reportTicketVolume(ctx, reportQuerySchema.parse(q)),
  "ticket-breakdown": (q: ReportQueryInput) => reportTicketBreakdown(ctx, reportQuerySchema.parse(q)),
  "response-times": (q: ReportQueryInput) => reportResponseTimes(ctx, reportQuerySchema.parse(q)),
  satisfaction: (q: ReportQueryInput) => reportSatisfaction(ctx, reportQuerySchema.parse(q)),
  workload: (_q: ReportQueryInput) => reportWorkload(ctx),
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
async function timed(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm-up: plans and cache, as a page opened a second time
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return Number(median(times).toFixed(1));
}

interface Figure {
  range: string;
  queriesMs: Record<string, number>;
  sumMs: number;
  pageMs: number;
}
const figures: Figure[] = [];
for (const [label, query] of [
  ["last 7 days by day", rangeOf(7, "day")],
  ["last 30 days by day", rangeOf(30, "day")],
  ["last 90 days by day", rangeOf(90, "day")],
  ["last 90 days by week", rangeOf(90, "week")],
  ["last 366 days by week", rangeOf(366, "week")],
  ["last 366 days by day", rangeOf(366, "day")],
] as const) {
  const queriesMs: Record<string, number> = {};
  for (const [name, run] of Object.entries(reports)) queriesMs[name] = await timed(() => run(query));
  const sumMs = Number(
    Object.values(queriesMs)
      .reduce((a, b) => a + b, 0)
      .toFixed(1),
  );
  const pageMs = await timed(() => Promise.all(Object.values(reports).map((run) => run(query))));
  figures.push({ range: label, queriesMs, sumMs, pageMs });
  console.log(
    `${label.padEnd(24)} ${Object.entries(queriesMs)
      .map(([name, ms]) => `${name} ${ms} ms`)
      .join(", ")}; one after another ${sumMs} ms; page (all at once) ${pageMs} ms`,
  );
}

const resultsDir = fileURLToPath(new URL("results", import.meta.url));
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  `${resultsDir}/reports-${database.kind}.json`,
  `${JSON.stringify({ tickets, ratings: feedbackCount, database: database.kind, runs, figures }, null, 2)}\n`,
);
await cleanup();
