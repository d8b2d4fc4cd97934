// Ticket lists and dashboards at 100,000 tickets: seeds a fresh database, then times every list page and
// dashboard count through the real services, and prints the plans of the heaviest queries.
//
//   npm run bench:tickets                          # embedded PGlite (in a temporary folder)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:tickets
//
// With BENCH_DATABASE_URL it creates a database of its own there and drops it afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { createDatabase, type Database } from "#server/db/client.ts";
import { ticketFiltersWhere, visibilityBranches } from "#server/features/ticket-records/ticket-visibility.ts";
import { countTicketsUpTo } from "#server/features/tickets/list/ticket-counts.queries.ts";
import {
  ticketPageIdsQuery,
  ticketSortedPageIdsQuery,
} from "#server/features/tickets/list/ticket-pages.queries.ts";
import { listTicketsFor, summarizeTicketsFor } from "#server/features/tickets/ticket.service.ts";
import type { Actor } from "#shared/permissions.ts";
import type { ListTicketsQuery } from "#shared/tickets/ticket.schemas.ts";

const ticketCount = Number(process.env.BENCH_TICKETS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 15);

async function openDatabase(): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (serverUrl) {
    const name = `helpdesk_bench_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    // Seeding 100,000 tickets in one statement outlasts the app's 5 s statement timeout.
    const database = createDatabase({ databaseUrl: url.toString(), pool: { statementTimeoutMs: 600_000 } });
    return {
      database,
      cleanup: async () => {
        await database.close();
        await admin.query(`drop database "${name}" with (force)`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "helpdesk-bench-"));
  const database = createDatabase({ dataDir: dir });
  return {
    database,
    cleanup: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const { database, cleanup } = await openDatabase();
const { db } = database;
console.log(`Database: ${database.kind}; seeding ${ticketCount.toLocaleString("en")} tickets…`);
await database.migrate();

// 2,000 users, 25 technicians, 2 admins. 10% of tickets unassigned and Open; the rest assigned to a
// technician, spread over In Progress, Resolved and Closed; creation times over the last year.
const seedStart = performance.now();
await db.execute(sql`
  insert into users (id, name, email, role)
  select 'u' || g, 'User ' || g, 'u' || g || '@bench.test', 'user' from generate_series(1, 2000) g
  union all select 't' || g, 'Tech ' || g, 't' || g || '@bench.test', 'technician' from generate_series(1, 25) g
  union all select 'a' || g, 'Admin ' || g, 'a' || g || '@bench.test', 'admin' from generate_series(1, 2) g`);
await db.execute(sql`
  insert into tickets (id, title, description, category, priority, status, created_by, assigned_to,
                       department, floor, office_number, created_at, updated_at)
  select 'TKT' || lpad(upper(to_hex(g)), 6, '0') || 'BENCH000',
         (array['Printer jams', 'VPN drops', 'Laptop will not boot', 'Outlook crashes', 'Wi-Fi slow'])[1 + g % 5] || ' #' || g,
         'Reported issue number ' || g || ' on floor ' || (g % 7),
         (array['Hardware', 'Software', 'Network', 'Other'])[1 + g % 4]::ticket_category,
         (array['Low', 'Medium', 'High'])[1 + g % 3]::ticket_priority,
         case when g % 10 = 0 then 'Open' else (array['In Progress', 'Resolved', 'Closed'])[1 + g % 3] end::ticket_status,
         'u' || (1 + g % 2000),
         case when g % 10 = 0 then null else 't' || (1 + g % 25) end,
         'General', (g % 7)::text, (100 + g % 50)::text,
         now() - (g || ' minutes')::interval * 5,
         -- Last activity some time after creation, so that the order by updated is not all ties.
         now() - (g || ' minutes')::interval * 5 + ((g * 7919) % 20000 || ' minutes')::interval
  from generate_series(1, ${ticketCount}) g`);
// Vacuum too, as autovacuum would after so many inserts: index-only scans then skip the heap.
await db.execute(sql`vacuum analyze`);
console.log(`Seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`);

const actors: Record<string, Actor> = {
  user: { id: "u42", role: "user" },
  technician: { id: "t7", role: "technician" },
  admin: { id: "a1", role: "admin" },
};

async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const list = (actor: Actor, query: Partial<ListTicketsQuery> = {}) =>
  listTicketsFor({ db, actor }, { scope: "visible", sort: "newest", limit: 25, ...query });

const cases: Array<[string, () => Promise<unknown>]> = [
  ["user: My Support Tickets, page 1", () => list(actors.user!)],
  ["technician: All Tickets, page 1", () => list(actors.technician!)],
  ["technician: My Tickets, page 1", () => list(actors.technician!, { scope: "mine" })],
  ["technician: Unassigned, page 1", () => list(actors.technician!, { scope: "unassigned" })],
  ["admin: All Tickets, page 1", () => list(actors.admin!)],
  ["admin: All Tickets, Resolved filter", () => list(actors.admin!, { status: "Resolved" })],
  ["admin: search 'printer'", () => list(actors.admin!, { q: "printer" })],
  ["admin: search by TKT id prefix", () => list(actors.admin!, { q: "TKT01F4" })],
  ["user: dashboard counts", () => summarizeTicketsFor({ db, actor: actors.user! }, { scope: "visible" })],
  [
    "technician: dashboard counts",
    () => summarizeTicketsFor({ db, actor: actors.technician! }, { scope: "visible" }),
  ],
  ["admin: dashboard counts", () => summarizeTicketsFor({ db, actor: actors.admin! }, { scope: "visible" })],
];

// A deep page: follow the cursor 40 pages into the admin list (1,000 rows in).
let deepCursor: string | null = null;
for (let i = 0; i < 40; i++) {
  deepCursor = (await list(actors.admin!, deepCursor ? { cursor: deepCursor } : {})).nextCursor;
}
cases.push(["admin: All Tickets, page 41 (cursor)", () => list(actors.admin!, { cursor: deepCursor! })]);

// The other orders (decision 034), each page 1 with its count, and a deep page by priority.
for (const [role, actor] of [
  ["user", actors.user!],
  ["technician", actors.technician!],
  ["admin", actors.admin!],
] as const) {
  for (const [sort, dir] of [
    ["updated", "desc"],
    ["updated", "asc"],
    ["priority", "desc"],
    ["priority", "asc"],
    ["status", "asc"],
    ["status", "desc"],
  ] as const) {
    cases.push([`${role}: by ${sort} ${dir}, page 1`, () => list(actor, { sort, dir })]);
  }
}
let priorityCursor: string | null = null;
for (let i = 0; i < 40; i++) {
  priorityCursor = (
    await list(actors.admin!, {
      sort: "priority",
      dir: "desc",
      ...(priorityCursor ? { cursor: priorityCursor } : {}),
    })
  ).nextCursor;
}
cases.push([
  "admin: by priority desc, page 41 (cursor)",
  () => list(actors.admin!, { sort: "priority", dir: "desc", cursor: priorityCursor! }),
]);
cases.push([
  "admin: count alone (capped at 10,000)",
  () => countTicketsUpTo(db, { branches: visibilityBranches(actors.admin!), cap: 10_000 }),
]);
cases.push([
  "technician: count alone (capped at 10,000)",
  () => countTicketsUpTo(db, { branches: visibilityBranches(actors.technician!), cap: 10_000 }),
]);

console.log(`median of ${runs} runs`.padStart(52));
for (const [name, fn] of cases) {
  console.log(`${name.padEnd(44)} ${(await median(fn)).toFixed(2).padStart(8)} ms`);
}

async function plan(title: string, actor: Actor, query: Partial<ListTicketsQuery>) {
  const page = ticketPageIdsQuery({
    branches: visibilityBranches(actor),
    filters: ticketFiltersWhere(actor, { scope: "visible", ...query }),
    limit: 26,
  });
  const result = await db.execute(sql`explain (analyze, costs off, timing off, summary off) ${page}`);
  const rows = (result as unknown as { rows: Array<Record<string, string>> }).rows;
  console.log(`\n${title}\n${rows.map((r) => `  ${Object.values(r)[0]}`).join("\n")}`);
}
await plan("Plan: technician All Tickets", actors.technician!, {});
async function sortedPlan(
  title: string,
  actor: Actor,
  sort: "updated" | "priority" | "status",
  dir: "asc" | "desc",
) {
  const page = ticketSortedPageIdsQuery({ branches: visibilityBranches(actor), sort, dir, limit: 26 });
  const result = await db.execute(sql`explain (analyze, costs off, timing off, summary off) ${page}`);
  const rows = (result as unknown as { rows: Array<Record<string, string>> }).rows;
  console.log(`\n${title}\n${rows.map((r) => `  ${Object.values(r)[0]}`).join("\n")}`);
}
await sortedPlan("Plan: technician by priority desc", actors.technician!, "priority", "desc");
await sortedPlan("Plan: admin by updated asc", actors.admin!, "updated", "asc");
await sortedPlan("Plan: user by status asc", actors.user!, "status", "asc");
await plan("Plan: user My Support Tickets", actors.user!, {});
await plan("Plan: admin search 'printer'", actors.admin!, { q: "printer" });

if (process.env.BENCH_KEEP) console.log("\nKept the database (BENCH_KEEP).");
else await cleanup();
