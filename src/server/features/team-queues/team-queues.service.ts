import { nowOf, type ServiceContext } from "#server/context.ts";
import { forbidden, notFound, unauthenticated } from "#server/errors.ts";
import { toMeDto } from "#server/features/users/user.presenter.ts";
import { can } from "#shared/permissions.ts";
import type {
  SetAwayInput,
  SetTeamAssignmentInput,
  TeamAssignment,
} from "#shared/teams/team-queues.schemas.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import { updateAwaySince, updateTeamAssignment } from "./team-queue.queries.ts";

/**
 * PUT /api/me/away: a technician marks themselves away, or back (decision 073). While away, their teams'
 * auto-assignment passes them over; everything else stays as it is (their tickets, Assign to Me).
 */
export async function setAway(ctx: ServiceContext, { away }: SetAwayInput): Promise<Me> {
  if (!can.markAway(ctx.actor)) throw forbidden("Only technicians can mark themselves away");
  const row = await updateAwaySince(ctx.db, ctx.actor.id, away ? nowOf(ctx) : null);
  if (!row) throw unauthenticated();
  return toMeDto(row);
}

/**
 * PUT /api/teams/:teamId/assignment: how a team gives out its new tickets — off, round robin, or to the
 * member with the fewest open tickets (decision 073). Administrators only; it applies to the next ticket.
 */
export async function setTeamAssignment(
  ctx: ServiceContext,
  teamId: string,
  { assignment }: SetTeamAssignmentInput,
): Promise<TeamAssignment> {
  if (!can.changeTeamAssignment(ctx.actor)) {
    throw forbidden("Only administrators can change how a team assigns its tickets");
  }
  const row = await updateTeamAssignment(ctx.db, teamId, assignment, nowOf(ctx));
  if (!row) throw notFound("Team", teamId);
  return row;
}
