// Custom field filters at scale (decision 022): seeds tickets with a single choice, a
// multiple choice and a checkbox value each, then times list pages filtered on them through the real
// service and prints the plans. Printed figures only; no test asserts a duration.
//
//   BENCH_TICKETS=1000000 BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:custom-fields
//   npm run bench:custom-fields                    # embedded PGlite, 100,000 tickets
import { sql } from "drizzle-orm";
import { customFieldFiltersWhere } from "#server/features/custom-fields/custom-field-values.service.ts";
import { ticketFiltersWhere, visibilityBranches } from "#server/features/ticket-records/ticket-visibility.ts";
import { ticketPageIdsQuery } from "#server/features/tickets/list/ticket-pages.queries.ts";
import { listTicketsFor } from "#server/features/tickets/ticket.service.ts";
import type { Actor } from "#shared/permissions.ts";
import { openBenchDatabase } from "./bench-database.ts";

const ticketCount = Number(process.env.BENCH_TICKETS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 15);

const { database, cleanup } = await openBenchDatabase("cf");
const { db } = database;
console.log(
  `Database: ${database.kind}; seeding ${ticketCount.toLocaleString("en")} tickets with custom field values…`,
);
await database.migrate();

const seedStart = performance.now();
await db.execute(sql`
  insert into users (id, name, email, role)
  select 'u' || g, 'User ' || g, 'u' || g || '@bench.test', 'user' from generate_series(1, 2000) g
  union all select 't' || g, 'Tech ' || g, 't' || g || '@bench.test', 'technician' from generate_series(1, 25) g
  union all select 'a1', 'Admin', 'a1@bench.test', 'admin'`);
await db.execute(sql`
  insert into custom_fields (id, label, type, options, category, required, position) values
  ('cf_benchdevice0', 'Device', 'single_choice',
   '[{"value":"laptop","label":"Laptop"},{"value":"desktop","label":"Desktop"},{"value":"printer","label":"Printer"},{"value":"phone","label":"Phone"},{"value":"plotter","label":"Plotter"}]',
   null, false, 0),
  ('cf_benchaccess0', 'Accessories', 'multiple_choice',
   '[{"value":"mouse","label":"Mouse"},{"value":"dock","label":"Dock"},{"value":"headset","label":"Headset"}]',
   null, false, 1),
  ('cf_benchvip0000', 'VIP', 'checkbox', '[]', null, false, 2)`);
// Each statement stays under the app's statement timeout: 50,000 tickets at a time.
const batch = 50_000;
for (let from = 1; from <= ticketCount; from += batch) {
  const to = Math.min(ticketCount, from + batch - 1);
  await db.execute(sql`
    insert into tickets (id, title, description, category, priority, status, created_by, assigned_to,
                         department, floor, office_number, created_at, updated_at)
    select 'TKT' || upper(to_hex(g)) || 'BENCH', 'Ticket ' || g, 'Issue ' || g, 'Hardware', 'Low',
           case when g % 10 = 0 then 'Open' else 'In Progress' end::ticket_status,
           'u' || (1 + g % 2000), case when g % 10 = 0 then null else 't' || (1 + g % 25) end,
           'General', '1', '101', now() - (g || ' minutes')::interval, now()
    from generate_series(${from}::int, ${to}::int) g`);
  // Device: laptop 50%, desktop 30%, printer 15%, phone 5%, plotter 1 in 10,000 (the rare value).
  await db.execute(sql`
    insert into ticket_field_values (ticket_id, field_id, text_value)
    select 'TKT' || upper(to_hex(g)) || 'BENCH', 'cf_benchdevice0',
           case when g % 10000 = 7 then 'plotter' when g % 20 < 10 then 'laptop' when g % 20 < 16 then 'desktop'
                when g % 20 < 19 then 'printer' else 'phone' end
    from generate_series(${from}::int, ${to}::int) g`);
  await db.execute(sql`
    insert into ticket_field_values (ticket_id, field_id, text_value)
    select 'TKT' || upper(to_hex(g)) || 'BENCH', 'cf_benchaccess0', c
    from generate_series(${from}::int, ${to}::int) g, unnest(array['mouse', 'dock', 'headset']) c
    where (c = 'mouse' and g % 2 = 0) or (c = 'dock' and g % 5 = 0) or (c = 'headset' and g % 50 = 0)`);
  await db.execute(sql`
    insert into ticket_field_values (ticket_id, field_id, bool_value)
    select 'TKT' || upper(to_hex(g)) || 'BENCH', 'cf_benchvip0000', g % 100 = 0
    from generate_series(${from}::int, ${to}::int) g`);
}
await db.execute(sql`analyze`);
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

const list = (actor: Actor, cf: string[]) =>
  listTicketsFor({ db, actor }, { scope: "visible", limit: 25, cf });
const cases: Array<[string, Actor, string[]]> = [
  ["admin: Device = Laptop (50%)", actors.admin!, ["cf_benchdevice0:laptop"]],
  ["admin: Device = Plotter (0.01%)", actors.admin!, ["cf_benchdevice0:plotter"]],
  ["admin: Accessories has Headset (2%)", actors.admin!, ["cf_benchaccess0:headset"]],
  [
    "admin: VIP = Yes (1%) and Device = Phone",
    actors.admin!,
    ["cf_benchvip0000:true", "cf_benchdevice0:phone"],
  ],
  ["technician: Device = Plotter", actors.technician!, ["cf_benchdevice0:plotter"]],
  ["user: Device = Laptop", actors.user!, ["cf_benchdevice0:laptop"]],
];
console.log(`median of ${runs} runs`.padStart(60));
for (const [name, actor, cf] of cases) {
  const found = (await list(actor, cf)).items.length;
  console.log(
    `${name.padEnd(48)} ${(await median(() => list(actor, cf))).toFixed(2).padStart(8)} ms  (${found} on page 1)`,
  );
}

async function plan(title: string, actor: Actor, cf: string[]) {
  const filters = sql.join(
    [ticketFiltersWhere(actor, { scope: "visible" }) ?? sql`true`, (await customFieldFiltersWhere(db, cf))!],
    sql` and `,
  );
  const page = ticketPageIdsQuery({ branches: visibilityBranches(actor), filters, limit: 26 });
  const result = await db.execute(sql`explain (analyze, costs off, timing off, summary off) ${page}`);
  const rows = (result as unknown as { rows: Array<Record<string, string>> }).rows;
  console.log(`\n${title}\n${rows.map((r) => `  ${Object.values(r)[0]}`).join("\n")}`);
}
await plan("Plan: admin, Device = Plotter (rare)", actors.admin!, ["cf_benchdevice0:plotter"]);
await plan("Plan: admin, Device = Laptop (common)", actors.admin!, ["cf_benchdevice0:laptop"]);

await cleanup();
