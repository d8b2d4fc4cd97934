import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import type { BreakdownRow, DurationRow, ReportWindow, VolumeRow } from "./report.queries.ts";

/**
 * The same reports as report.queries.ts, read from the daily rollups (decision 027; tables in
 * db/schema/report-rollups.ts, kept exact by the triggers of migration 0025). A year is a few thousand
 * rollup rows, and a percentile reads one bucket's exact durations: the answers equal the direct ones
 * (report-rollup.test.ts), only faster.
 */

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** True when the rollups are counted in this time zone (else the reports read the tickets directly). */
export async function rollupsCountIn(db: Db, timeZone: string): Promise<boolean> {
  const result = await db.execute(sql`select time_zone as "timeZone" from report_rollup_state`);
  return rowsOf<{ timeZone: string }>(result)[0]?.timeZone === timeZone;
}

/** The window's instants, for the few reads that go back to the tickets (a percentile's bucket). */
const lowerBound = (w: ReportWindow) => sql`(${w.from}::date::timestamp at time zone ${w.timeZone})`;
const upperBound = (w: ReportWindow) => sql`((${w.to}::date + 1)::timestamp at time zone ${w.timeZone})`;
const inWindow = (w: ReportWindow) => sql`day between ${w.from}::date and ${w.to}::date`;

export async function countTicketVolumeFromRollup(db: Db, w: ReportWindow): Promise<VolumeRow[]> {
  const result = await db.execute(sql`
    select kind, to_char(date_trunc(${w.group}, day::timestamp), 'YYYY-MM-DD') as start, sum(count)::int as count
    from (
      select 'opened' as kind, day, count from report_opened_days where ${inWindow(w)}
      union all
      select 'resolved', day, count from report_done_days where ${inWindow(w)}
    ) days
    group by 1, 2 having sum(count) > 0`);
  return rowsOf<VolumeRow>(result);
}

export async function countTicketBreakdownFromRollup(db: Db, w: ReportWindow): Promise<BreakdownRow[]> {
  const result = await db.execute(sql`
    select case when grouping(category) = 0 then 'category'
                when grouping(priority) = 0 then 'priority' else 'department' end as dimension,
           coalesce(category::text, priority::text, department) as key, sum(count)::int as count
    from report_opened_days
    where ${inWindow(w)}
    group by grouping sets ((category), (priority), (department))
    having sum(count) > 0
    order by dimension, count desc, key`);
  return rowsOf<BreakdownRow>(result);
}

type Measure = "first_response" | "resolution";

/** The exact durations (seconds) ranked `offset` to `offset + limit - 1` within one bucket of the window. */
async function durationsInBucket(
  db: Db,
  w: ReportWindow,
  measure: Measure,
  bucket: number,
  offset: number,
  limit: number,
) {
  const result = await db.execute(
    measure === "first_response"
      ? sql`
        select extract(epoch from first_responded_at - created_at)::float8 as seconds from tickets
        where first_response_bucket = ${bucket} and created_at >= ${lowerBound(w)} and created_at < ${upperBound(w)}
        order by 1 offset ${offset} limit ${limit}`
      : sql`
        select extract(epoch from resolved_at - created_at)::float8 as seconds from tickets
        where resolution_bucket = ${bucket} and done_at >= ${lowerBound(w)} and done_at < ${upperBound(w)}
        order by 1 offset ${offset} limit ${limit}`,
  );
  return rowsOf<{ seconds: number | string }>(result).map((row) => Number(row.seconds));
}

/**
 * Median and 90th percentile exactly as `percentile_cont` gives them: the rollup's counts per bucket say
 * which bucket holds each value needed (ranks floor and ceil of p·(n−1)) and at which rank within it; only
 * those buckets' durations in the window are read and sorted (a few per cent of them, from an index).
 */
async function percentilesFromRollup(db: Db, w: ReportWindow, measure: Measure): Promise<DurationRow> {
  const result = await db.execute(sql`
    select bucket, sum(count)::int as count from report_duration_days
    where measure = ${measure} and ${inWindow(w)}
    group by bucket having sum(count) > 0 order by bucket`);
  const buckets = rowsOf<{ bucket: number; count: number }>(result);
  const total = buckets.reduce((sum, row) => sum + row.count, 0);
  if (total === 0) return { count: 0, median: null, p90: null };
  const positions = [0.5, 0.9].map((fraction) => fraction * (total - 1));
  const ranks = [...new Set(positions.flatMap((position) => [Math.floor(position), Math.ceil(position)]))];
  // Which bucket each rank falls in, and its rank within that bucket.
  const wanted = new Map<number, { first: number; last: number }>();
  const placeOf = new Map<number, { bucket: number; within: number }>();
  for (const rank of ranks) {
    let before = 0;
    for (const row of buckets) {
      if (rank < before + row.count) {
        const within = rank - before;
        placeOf.set(rank, { bucket: row.bucket, within });
        const span = wanted.get(row.bucket);
        wanted.set(row.bucket, {
          first: Math.min(span?.first ?? within, within),
          last: Math.max(span?.last ?? within, within),
        });
        break;
      }
      before += row.count;
    }
  }
  const read = new Map<number, number[]>();
  for (const [bucket, { first, last }] of wanted) {
    read.set(bucket, await durationsInBucket(db, w, measure, bucket, first, last - first + 1));
  }
  const valueAt = (rank: number) => {
    const place = placeOf.get(rank);
    const span = place && wanted.get(place.bucket);
    const value = place && span ? read.get(place.bucket)?.[place.within - span.first] : undefined;
    // Only if a ticket changed between the two reads of this transaction (it reads committed rows).
    if (value === undefined) throw new Error(`Rank ${rank} of ${measure} not found in its bucket`);
    return value;
  };
  const [median, p90] = positions.map((position) => {
    const below = Math.floor(position);
    const above = Math.ceil(position);
    const low = valueAt(below);
    return below === above ? low : low + (position - below) * (valueAt(above) - low);
  });
  return { count: total, median: median ?? null, p90: p90 ?? null };
}

export async function summariseResponseTimesFromRollup(db: Db, w: ReportWindow) {
  return {
    firstResponse: await percentilesFromRollup(db, w, "first_response"),
    resolution: await percentilesFromRollup(db, w, "resolution"),
  };
}

/** Ratings given in the window: how many of each. */
export async function summariseSatisfactionFromRollup(db: Db, w: ReportWindow) {
  const result = await db.execute(sql`
    select rating::int as rating, sum(count)::int as count from report_feedback_days
    where ${inWindow(w)}
    group by rating having sum(count) > 0`);
  return rowsOf<{ rating: number; count: number }>(result);
}

/** Per technician, as the direct query: avg over the same integers (numeric division, then float8). */
export async function summariseSatisfactionPerTechnicianFromRollup(db: Db, w: ReportWindow) {
  const result = await db.execute(sql`
    select u.id as "technicianId", u.name, sum(r.count)::int as count,
           (sum(r.count * r.rating)::numeric / sum(r.count))::float8 as average
    from report_feedback_days r
    join users u on u.id = r.technician_id
    where ${inWindow(w)}
    group by u.id, u.name
    having sum(r.count) > 0
    order by u.name, u.id`);
  return rowsOf<{ technicianId: string; name: string; count: number; average: number }>(result);
}
