import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import type { ReportWindow } from "./report.queries.ts";

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const lowerBound = (w: ReportWindow) => sql`(${w.from}::date::timestamp at time zone ${w.timeZone})`;
const upperBound = (w: ReportWindow) => sql`((${w.to}::date + 1)::timestamp at time zone ${w.timeZone})`;

export interface TeamReportRow {
  /** null: the tickets in no team. */
  teamId: string | null;
  name: string | null;
  opened: number;
  resolved: number;
  open: number;
  resolutionCount: number;
  /** Median and 90th percentile of resolution, in seconds; null when none was resolved. */
  p: Array<number | string | null> | null;
}

/**
 * Every team and "no team" (teamId null), by name, the latter last (decision 073's reports by team):
 * - opened in the window: each team's from tickets_team_idx (team, created_at), index only; no team's is
 *   every ticket opened in the window less the teams';
 * - done in the window (Resolved, or Closed without a resolution, as the volume report counts), and the
 *   resolution times of those resolved (as the response-times report): one pass over the window's done
 *   tickets, grouped by team;
 * - Open or In Progress now: the teams' counters ('t:<team>', migration 0040), no team's the whole
 *   count ('all') less the teams'. A few rows by primary key.
 */
export async function countByTeam(db: Db, w: ReportWindow): Promise<TeamReportRow[]> {
  const open = sql`('Open', 'In Progress')`;
  const result = await db.execute(sql`
    with team_rows as (
      select t.id as team_id, t.name,
             (select count(*) from tickets x
              where x.team_id = t.id and x.created_at >= ${lowerBound(w)} and x.created_at < ${upperBound(w)})::int as opened,
             (select coalesce(sum(c.n), 0) from ticket_counts c
              where c.scope = 't:' || t.id and c.status in ${open})::int as open
      from teams t
    ),
    done as (
      select team_id, count(*)::int as resolved, count(resolved_at)::int as resolution_count,
             percentile_cont(array[0.5, 0.9]) within group (order by extract(epoch from resolved_at - created_at))
               filter (where resolved_at is not null) as p
      from tickets
      where done_at >= ${lowerBound(w)} and done_at < ${upperBound(w)}
      group by team_id
    ),
    keyed as (
      select team_id, name, opened, open from team_rows
      union all
      select null, null,
             (select count(*) from tickets
              where created_at >= ${lowerBound(w)} and created_at < ${upperBound(w)})::int
               - (select coalesce(sum(opened), 0) from team_rows)::int,
             (select coalesce(sum(n), 0) from ticket_counts where scope = 'all' and status in ${open})::int
               - (select coalesce(sum(open), 0) from team_rows)::int
    )
    select k.team_id as "teamId", k.name, k.opened, coalesce(d.resolved, 0) as resolved, k.open,
           coalesce(d.resolution_count, 0) as "resolutionCount", d.p
    from keyed k left join done d on d.team_id is not distinct from k.team_id
    order by k.team_id is null, lower(k.name), k.team_id`);
  return rowsOf<TeamReportRow>(result);
}
