import { type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import type { ReportGrouping } from "#shared/reports/report.schemas.ts";

/**
 * JIT compilation of a large aggregate costs PostgreSQL 0.3–1 s here, more than the query it speeds up
 * (measured in bench/reports.ts): reports read in a transaction with it off. PGlite has no JIT; the
 * setting is accepted and changes nothing.
 */
export function readWithoutJit<T>(db: Db, read: (tx: Db) => Promise<T>): Promise<T> {
  // Repeatable read: the rollups and the tickets a percentile then reads are one snapshot.
  return db.transaction(
    async (tx) => {
      await tx.execute(sql`set local jit = off`);
      // A year of resolutions is half a million durations to sort for a percentile: in memory, not on disk.
      await tx.execute(sql`set local work_mem = '64MB'`);
      // Index lookups cost about a sequential read on SSDs: at the default 4 the planner scans every ticket
      // to join a month of ratings to their tickets (0.6 s) instead of looking 12,000 of them up.
      await tx.execute(sql`set local random_page_cost = 1.1`);
      return read(tx);
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/**
 * Every report is one SQL aggregate over an index (decision 027): no ticket row reaches Node. Dates are
 * calendar days in the business calendar's time zone; `from` and `to` are both included.
 */
export interface ReportWindow {
  from: string;
  to: string;
  group: ReportGrouping;
  timeZone: string;
}

/** The window's first and last instants: local midnight of `from` up to local midnight after `to`. */
const lowerBound = (w: ReportWindow) => sql`(${w.from}::date::timestamp at time zone ${w.timeZone})`;
const upperBound = (w: ReportWindow) => sql`((${w.to}::date + 1)::timestamp at time zone ${w.timeZone})`;
/** The local day (or Monday of the week) a time falls in; formatted once per bucket, not once per ticket. */
const bucketOf = (w: ReportWindow, column: SQL) =>
  sql`date_trunc(${w.group}, ${column} at time zone ${w.timeZone})`;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export interface VolumeRow {
  kind: "opened" | "resolved";
  start: string;
  count: number;
}

/**
 * Tickets opened and done per bucket that has any (the service lists the empty ones). Each half is an
 * index-only scan of one index over the window.
 */
export async function countTicketVolume(db: Db, w: ReportWindow): Promise<VolumeRow[]> {
  const result = await db.execute(sql`
    select kind, to_char(bucket, 'YYYY-MM-DD') as start, count from (
      select 'opened' as kind, ${bucketOf(w, sql.raw("created_at"))} as bucket, count(*)::int as count
      from tickets where created_at >= ${lowerBound(w)} and created_at < ${upperBound(w)}
      group by 2
      union all
      select 'resolved', ${bucketOf(w, sql.raw("done_at"))}, count(*)::int
      from tickets where done_at >= ${lowerBound(w)} and done_at < ${upperBound(w)}
      group by 2
    ) counted`);
  return rowsOf<VolumeRow>(result);
}

/**
 * Open or In Progress tickets at the window's end, worked back from now: those open now, less those
 * opened after the window, plus those done after it (none or few when the window ends today). The
 * service walks back through the buckets from there: no scan of every older ticket.
 */
export async function countBacklogAtEnd(db: Db, w: ReportWindow): Promise<number> {
  const result = await db.execute(sql`
    select
      (select count(*) from tickets where status in ('Open', 'In Progress'))
      - (select count(*) from tickets where created_at >= ${upperBound(w)})
      + (select count(*) from tickets where done_at >= ${upperBound(w)}) as n`);
  return Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
}

export interface BreakdownRow {
  dimension: "category" | "priority" | "department";
  key: string;
  count: number;
}

/** Tickets opened in the window by category, by priority and by department, in one pass. */
export async function countTicketBreakdown(db: Db, w: ReportWindow): Promise<BreakdownRow[]> {
  const result = await db.execute(sql`
    select case when grouping(category) = 0 then 'category'
                when grouping(priority) = 0 then 'priority' else 'department' end as dimension,
           coalesce(category::text, priority::text, department) as key, count(*)::int as count
    from tickets
    where created_at >= ${lowerBound(w)} and created_at < ${upperBound(w)}
    group by grouping sets ((category), (priority), (department))
    order by dimension, count desc, key`);
  return rowsOf<BreakdownRow>(result);
}

export interface DurationRow {
  count: number;
  median: number | null;
  p90: number | null;
}

/**
 * Median and 90th percentile (continuous, as percentile_cont interpolates) in seconds: first response of
 * the tickets opened in the window, resolution of the tickets resolved in it.
 */
export async function summariseResponseTimes(
  db: Db,
  w: ReportWindow,
): Promise<{ firstResponse: DurationRow; resolution: DurationRow }> {
  const result = await db.execute(sql`
    select 'firstResponse' as kind, count(*)::int as count,
           percentile_cont(array[0.5, 0.9]) within group (order by extract(epoch from first_responded_at - created_at)) as p
    from tickets
    where created_at >= ${lowerBound(w)} and created_at < ${upperBound(w)} and first_responded_at is not null
    union all
    select 'resolution', count(*)::int,
           percentile_cont(array[0.5, 0.9]) within group (order by extract(epoch from resolved_at - created_at))
    from tickets
    where done_at >= ${lowerBound(w)} and done_at < ${upperBound(w)} and resolved_at is not null`);
  // One sort per measure: percentile_cont with an array of fractions answers both from it.
  const rows = rowsOf<{ kind: string; count: number; p: Array<number | string> | null }>(result);
  const pick = (kind: string): DurationRow => {
    const row = rows.find((r) => r.kind === kind);
    const [median, p90] = row?.p ?? [];
    return {
      count: row?.count ?? 0,
      median: median === undefined ? null : Number(median),
      p90: p90 === undefined ? null : Number(p90),
    };
  };
  return { firstResponse: pick("firstResponse"), resolution: pick("resolution") };
}

/** Feedback given in the window: how many, the average and how many of each rating. */
export async function summariseSatisfaction(db: Db, w: ReportWindow) {
  const result = await db.execute(sql`
    select rating, count(*)::int as count from ticket_feedback
    where submitted_at >= ${lowerBound(w)} and submitted_at < ${upperBound(w)}
    group by rating`);
  return rowsOf<{ rating: number; count: number }>(result);
}

export async function findRecentFeedbackComments(db: Db, w: ReportWindow, limit: number) {
  const result = await db.execute(sql`
    select rating, comment, submitted_at as "submittedAt" from ticket_feedback
    where submitted_at >= ${lowerBound(w)} and submitted_at < ${upperBound(w)} and comment <> ''
    order by submitted_at desc limit ${limit}`);
  return rowsOf<{ rating: number; comment: string; submittedAt: Date | string }>(result);
}

/** Feedback per person who resolved the ticket (or holds it, when nobody is recorded as resolving it). */
export async function summariseSatisfactionPerTechnician(db: Db, w: ReportWindow) {
  const result = await db.execute(sql`
    select u.id as "technicianId", u.name, count(*)::int as count, avg(f.rating)::float8 as average
    from ticket_feedback f
    join tickets t on t.id = f.ticket_id
    join users u on u.id = coalesce(t.resolved_by, t.assigned_to)
    where f.submitted_at >= ${lowerBound(w)} and f.submitted_at < ${upperBound(w)}
    group by u.id, u.name
    order by u.name, u.id`);
  return rowsOf<{ technicianId: string; name: string; count: number; average: number }>(result);
}

/**
 * Open and In Progress tickets per assignee now: every active technician (even with none) and anyone else
 * holding some. The open tickets are few against the whole table; tickets_status_idx finds them.
 */
export async function countWorkload(db: Db) {
  const result = await db.execute(sql`
    with held as (
      select assigned_to, count(*) filter (where status = 'Open')::int as open,
             count(*) filter (where status = 'In Progress')::int as "inProgress"
      from tickets where status in ('Open', 'In Progress')
      group by assigned_to
    )
    select u.id as "technicianId", u.name, coalesce(h.open, 0) as open, coalesce(h."inProgress", 0) as "inProgress"
    from users u left join held h on h.assigned_to = u.id
    where (u.role = 'technician' and u.status = 'Active') or h.assigned_to is not null
    union all
    select null, null, open, "inProgress" from held where assigned_to is null
    order by 2 nulls first, 1`);
  return rowsOf<{ technicianId: string | null; name: string | null; open: number; inProgress: number }>(
    result,
  );
}
