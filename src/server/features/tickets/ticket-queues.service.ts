import type { ServiceContext } from "#server/context.ts";
import { forbidden } from "#server/errors.ts";
import { ticketFiltersWhere, visibilityBranches } from "#server/features/ticket-records/ticket-visibility.ts";
import { can } from "#shared/permissions.ts";
import type { TeamQueues } from "#shared/teams/team-queues.schemas.ts";
import { ticketCountCap } from "#shared/tickets/ticket.schemas.ts";
import { countTeamQueueFromCounters, findTeamsFor, readOpenCountsByTeam } from "./list/team-queue.queries.ts";
import { countTicketsUpTo } from "./list/ticket-counts.queries.ts";

/**
 * GET /api/tickets/queues (decision 073): every team by name, and for a member of a team the counts of
 * its two tabs, each counted exactly as that list's first page counts its total (listTicketsFor): "My
 * team's unassigned" from the teams' counters, "My team's" from the tickets, within what they may see.
 */
export async function getTeamQueues(ctx: ServiceContext): Promise<TeamQueues> {
  if (!can.listByTeam(ctx.actor)) throw forbidden("Only technicians and administrators have team queues");
  const teams = await findTeamsFor(ctx.db, ctx.actor.id);
  const openByTeam = await openByTeamFor(ctx, teams);
  if (!teams.some((team) => team.isMember)) return { teams, mine: null, openByTeam };
  const [unassigned, all] = await Promise.all([
    countTeamQueueFromCounters(ctx, { scope: "team_unassigned", cap: ticketCountCap }),
    countTicketsUpTo(ctx.db, {
      branches: visibilityBranches(ctx.actor),
      filters: ticketFiltersWhere(ctx.actor, { scope: "team" }),
      cap: ticketCountCap,
    }),
  ]);
  return { teams, mine: { unassigned, all }, openByTeam };
}

/**
 * The admin home's open tickets by team: an administrator sees every ticket, so the counters are theirs to
 * read; the tickets in no team are the whole count less the teams'. Nothing for a team-less install.
 */
async function openByTeamFor(
  ctx: ServiceContext,
  teams: readonly { id: string }[],
): Promise<TeamQueues["openByTeam"]> {
  if (!can.countAllByTeam(ctx.actor) || teams.length === 0) return null;
  const counts = await readOpenCountsByTeam(ctx.db);
  const countOf = (scope: string) => counts.get(scope) ?? 0;
  const rows = teams.map((team) => ({
    teamId: team.id,
    open: countOf(`t:${team.id}`),
    unassigned: countOf(`tu:${team.id}`),
  }));
  const sum = (key: "open" | "unassigned") => rows.reduce((total, row) => total + row[key], 0);
  return [
    ...rows,
    {
      teamId: null,
      open: Math.max(0, countOf("all") - sum("open")),
      unassigned: Math.max(0, countOf("unassigned") - sum("unassigned")),
    },
  ];
}
