import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";

// What the triggers on `tickets` and `ticket_feedback` would have kept for a seeded batch, added once for the
// whole batch (seed-database.ts turns them off for its inserts).

/** The condition that picks the batch's rows by the given id column. */
type InBatch = (column: string) => ReturnType<typeof sql>;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The batch's share of each rollup, as report_rollup_rebuild counts it (no zone: no rollups to keep). */
export async function addBatchToRollups(tx: Db, inBatch: InBatch) {
  const zone = rowsOf<{ time_zone: string }>(
    await tx.execute(sql`select time_zone from report_rollup_state`),
  )[0]?.time_zone;
  if (!zone) return;
  await tx.execute(sql`
    insert into report_opened_days as r (day, category, priority, department, count)
    select (created_at at time zone ${zone})::date, category, priority, department, count(*)
    from tickets where ${inBatch("id")} group by 1, 2, 3, 4
    on conflict (day, category, priority, department) do update set count = r.count + excluded.count`);
  await tx.execute(sql`
    insert into report_done_days as r (day, count)
    select (done_at at time zone ${zone})::date, count(*) from tickets
    where ${inBatch("id")} and done_at is not null group by 1
    on conflict (day) do update set count = r.count + excluded.count`);
  await tx.execute(sql`
    insert into report_duration_days as r (measure, day, bucket, count)
    select 'first_response', (created_at at time zone ${zone})::date, first_response_bucket, count(*)
    from tickets where ${inBatch("id")} and first_response_bucket is not null group by 2, 3
    union all
    select 'resolution', (done_at at time zone ${zone})::date, resolution_bucket, count(*)
    from tickets where ${inBatch("id")} and resolution_bucket is not null group by 2, 3
    on conflict (measure, day, bucket) do update set count = r.count + excluded.count`);
  await tx.execute(sql`
    insert into report_feedback_days as r (day, technician_id, rating, count)
    select (f.submitted_at at time zone ${zone})::date, coalesce(t.resolved_by, t.assigned_to, ''), f.rating, count(*)
    from ticket_feedback f join tickets t on t.id = f.ticket_id
    where ${inBatch("f.ticket_id")} group by 1, 2, 3
    on conflict (day, technician_id, rating) do update set count = r.count + excluded.count`);
}

/**
 * The batch's tickets in the dashboard's counters (migration 0029), as they stand at the batch's end, as the
 * migration first counted them: for a batch that skipped every trigger, theirs too.
 */
export async function addBatchToCounters(tx: Db, inBatch: InBatch) {
  await tx.execute(sql`
    insert into ticket_counts as c (scope, status, slot, n)
    select k.scope, k.status, 0, sum(k.n)
    from tickets t cross join lateral ticket_count_keys(t, 1) k
    where ${inBatch("t.id")}
    group by k.scope, k.status
    on conflict (scope, status, slot) do update set n = c.n + excluded.n`);
}
