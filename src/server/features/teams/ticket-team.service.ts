import { nowOf, type ServiceContext } from "#server/context.ts";
import { conflict, forbidden, validationFailed } from "#server/errors.ts";
import { type HeldTicket, inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { updateTicketTeam } from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { currentTicketFor } from "#server/features/ticket-records/ticket-view.ts";
import { type Actor, can, type TicketFacts } from "#shared/permissions.ts";
import type { ChangeTicketTeamInput } from "#shared/teams/team.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { findTeams } from "./team.queries.ts";

/** Throws why the actor may not move this ticket to a team (can.changeTicketTeam). */
function ensureMayChangeTeam(actor: Actor, ticket: TicketFacts) {
  if (actor.role !== "technician" && actor.role !== "admin") {
    throw forbidden("Only technicians and administrators can move a ticket to a team");
  }
  if (ticket.status === "Closed") throw conflict("This ticket is closed; its team can no longer change.");
  if (!can.changeTicketTeam(actor, ticket)) throw forbidden("You cannot move this ticket to a team");
}

/**
 * The move under the ticket's lock, decided on the locked row: the Team control and a macro (decision 075)
 * come here. Moving it where it already is changes nothing and records nothing.
 */
export async function changeTeamUnderLock(
  ctx: ServiceContext,
  { tx, recordEvent, ticket }: HeldTicket,
  teamId: string | null,
): Promise<void> {
  ensureMayChangeTeam(ctx.actor, ticket);
  if (ticket.teamId === teamId) return;
  const names = new Map((await findTeams(tx)).map((team) => [team.id, team.name]));
  if (teamId !== null && !names.has(teamId)) {
    throw validationFailed(`teamId: there is no team '${teamId}'`, [
      { path: ["teamId"], message: "Choose one of the teams" },
    ]);
  }
  await updateTicketTeam(tx, ticket.id, teamId);
  await recordEvent({
    ticketId: ticket.id,
    type: "team_changed",
    actorId: ctx.actor.id,
    fromTeamName: ticket.teamId === null ? null : (names.get(ticket.teamId) ?? null),
    toTeamName: teamId === null ? null : names.get(teamId)!,
    // Taken after the lock: a move that waited for another change is recorded after it.
    createdAt: nowOf(ctx),
  });
}

/**
 * PUT /api/tickets/:ticketId/team (decision 069): moves the ticket to a team, or out of any (null), under
 * its row lock, and records a "team_changed" event, which tells the new team's technicians (but the one
 * who moved it).
 */
export async function changeTicketTeam(
  ctx: ServiceContext,
  ticketId: string,
  { teamId }: ChangeTicketTeamInput,
): Promise<Ticket> {
  // Visibility first: a ticket the caller may not see answers 404 whatever its state (docs/security.md).
  const seen = await findVisibleTicket(ctx, ticketId);
  ensureMayChangeTeam(ctx.actor, seen);
  await inTicketTransaction(ctx, ticketId, (tx, recordEvent, locked) =>
    changeTeamUnderLock(ctx, { tx, recordEvent, ticket: ensureVisible(ctx.actor, locked, ticketId) }, teamId),
  );
  return currentTicketFor(ctx, ticketId);
}
