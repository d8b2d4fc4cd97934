import { asc, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { teamMembers, teams, ticketCounts } from "#server/db/schema/index.ts";
import { bound, runShaped } from "#server/db/statement-shapes.ts";
import type { TicketScope, TicketStatus } from "#shared/tickets/ticket.schemas.ts";

/** Who counts, on which database, and what was read for them lately (decision 066). */
type CountingContext = Pick<ServiceContext, "db" | "actor" | "ticketReads">;

/** A list's team queue whose count the counters hold (decision 073): see teamCountersOf. */
export interface TeamQueueCount {
  scope: TicketScope;
  team?: string;
  status?: TicketStatus;
  cap: number;
}

/**
 * Which counters hold a team list's count, when they do: the caller's teams' unassigned tickets
 * (`team_unassigned`: the sum of their 'tu:<team>'), or for an administrator, who sees every ticket, one
 * team's tickets ('t:<team>') or its unassigned ones ('tu:<team>'). Anything else about teams (the "My
 * team's" tab, a technician's team filter) is counted from the tickets, within what they may see.
 */
export function teamCountersOf(
  actor: CountingContext["actor"],
  { scope, team }: Pick<TeamQueueCount, "scope" | "team">,
): { mine: true } | { key: string } | null {
  if (!team) return scope === "team_unassigned" ? { mine: true } : null;
  if (actor.role !== "admin") return null;
  if (scope === "visible") return { key: `t:${team}` };
  if (scope === "unassigned") return { key: `tu:${team}` };
  return null;
}

/**
 * A team list's count from the counters (teamCountersOf says which), by status, summed over the counter
 * slots: a few rows by primary key per team, remembered like the dashboard's (ctx.ticketReads).
 */
export async function countTeamQueueFromCounters(
  ctx: CountingContext,
  { scope, team, status, cap }: TeamQueueCount,
): Promise<{ count: number; capped: boolean }> {
  const counters = teamCountersOf(ctx.actor, { scope, team });
  if (!counters) throw new Error(`countTeamQueueFromCounters: no counters hold ${scope} of team ${team}`);
  const read = () =>
    "mine" in counters ? readMyTeamsUnassigned(ctx.db, ctx.actor.id) : readTeamCounter(ctx.db, counters.key);
  const key = "mine" in counters ? `team-counters|mine|${ctx.actor.id}` : `team-counters|${counters.key}`;
  const rows = await (ctx.ticketReads ? ctx.ticketReads.read(key, read) : read());
  const total = rows
    .filter((row) => status === undefined || row.status === status)
    .reduce((sum, row) => sum + Number(row.n), 0);
  return total > cap ? { count: cap, capped: true } : { count: total, capped: false };
}

const countedByStatus = () => ({
  status: ticketCounts.status,
  n: sql<number>`sum(${ticketCounts.n})::int`,
});

/** The unassigned tickets of the caller's teams by status: their 'tu:<team>' counters, in one statement. */
function readMyTeamsUnassigned(db: Db, me: string) {
  return runShaped(
    db,
    "team-counters|mine",
    () =>
      db
        .select(countedByStatus())
        .from(ticketCounts)
        .where(
          sql`${ticketCounts.scope} = any(array(select 'tu:' || ${teamMembers.teamId} from ${teamMembers} where ${teamMembers.userId} = ${bound("me")}))`,
        )
        .groupBy(ticketCounts.status),
    { me },
  );
}

function readTeamCounter(db: Db, scope: string) {
  return runShaped(
    db,
    "team-counters|one",
    () =>
      db
        .select(countedByStatus())
        .from(ticketCounts)
        .where(eq(ticketCounts.scope, bound("scope")))
        .groupBy(ticketCounts.status),
    { scope },
  );
}

/**
 * Open and In Progress tickets now, by counter ('all', 'unassigned', and each team's 't:<team>' and
 * 'tu:<team>', migration 0040): a few rows by primary key per team, whatever the table's size.
 */
export async function readOpenCountsByTeam(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ scope: ticketCounts.scope, n: sql<number>`sum(${ticketCounts.n})::int` })
    .from(ticketCounts)
    .where(
      sql`${ticketCounts.status} in ('Open', 'In Progress') and ${ticketCounts.scope} = any(array(
        select 't:' || ${teams.id} from ${teams} union all select 'tu:' || ${teams.id} from ${teams}
        union all select 'all' union all select 'unassigned'))`,
    )
    .groupBy(ticketCounts.scope);
  return new Map(rows.map((row) => [row.scope, Number(row.n)]));
}

/** Every team by name, and whether the caller is in it: the lists' team filter and the team tabs. */
export function findTeamsFor(db: Db, me: string) {
  return db
    .select({
      id: teams.id,
      name: teams.name,
      isMember: sql<boolean>`exists (select 1 from ${teamMembers} where ${teamMembers.teamId} = ${teams.id} and ${teamMembers.userId} = ${me})`,
    })
    .from(teams)
    .orderBy(asc(sql`lower(${teams.name})`), asc(teams.id));
}
