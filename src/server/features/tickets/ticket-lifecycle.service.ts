import { nowOf, type ServiceContext } from "#server/context.ts";
import { conflict, forbidden, ruleViolation } from "#server/errors.ts";
import { inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import {
  assignTicketIfOpen,
  findTicketById,
  updateTicketStatus,
} from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { ticketDtoFor } from "#server/features/ticket-records/ticket-view.ts";
import { can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { ChangeStatusInput } from "#shared/tickets/ticket-activity.schemas.ts";
import { statusChangeRefusal, takesTicket } from "#shared/tickets/ticket-status.ts";

async function reloadTicket(ctx: ServiceContext, ticketId: string): Promise<Ticket> {
  return ticketDtoFor(ctx, (await findTicketById(ctx.db, ticketId))!);
}

/** The loser of an Assign to Me race learns who won: they could see the ticket a moment ago. */
function lostAssignRace(winnerName: string | null) {
  return conflict(
    winnerName
      ? `This ticket was just assigned to ${winnerName}.`
      : "This ticket was just assigned to someone else.",
  );
}

export async function assignTicketToMe(ctx: ServiceContext, ticketId: string): Promise<Ticket> {
  // Visibility first: a ticket the caller may not see answers 404 whatever its state (DESIGN.md §2.1).
  const ticket = await findVisibleTicket(ctx, ticketId);
  if (ctx.actor.role !== "technician") throw forbidden("Only technicians can assign tickets to themselves");
  if (ticket.assignedTo !== null) throw conflict("This ticket is already assigned.");
  if (!can.assignToSelf(ctx.actor, ticket)) throw ruleViolation("Only Open tickets can be assigned.");
  await inTicketTransaction(ctx, ticketId, async (tx, recordEvent) => {
    // Taken under the lock, like every change: the timeline shows the changes in the order they were made.
    const now = nowOf(ctx);
    if (!(await assignTicketIfOpen(tx, ticketId, ctx.actor.id, now))) {
      // The ticket was Open and unassigned when this caller read it; only the update's outcome says they
      // lost, so naming the winner tells them nothing they could not see a moment ago.
      const winner = await findTicketById(tx, ticketId);
      if (winner?.assignedTo) throw lostAssignRace(winner.assignedToName);
      throw ruleViolation("Only Open tickets can be assigned.");
    }
    await recordEvent({
      ticketId,
      type: "assigned",
      actorId: ctx.actor.id,
      fromStatus: "Open",
      toStatus: "In Progress",
      createdAt: now,
    });
  });
  return reloadTicket(ctx, ticketId);
}

export async function changeTicketStatus(
  ctx: ServiceContext,
  ticketId: string,
  { status }: ChangeStatusInput,
): Promise<Ticket> {
  const ticket = await findVisibleTicket(ctx, ticketId);
  if (ctx.actor.role !== "technician" && ctx.actor.role !== "admin") {
    throw forbidden("Only technicians and administrators can change a ticket's status");
  }
  if (ticket.status === "Closed") throw conflict("This ticket is closed; its status can no longer change.");
  if (!can.changeStatus(ctx.actor, ticket)) throw forbidden("You cannot change the status of this ticket");
  const refusal = statusChangeRefusal(ctx.actor, ticket, status);
  if (refusal) throw ruleViolation(refusal);
  await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    // Decide again on the locked row: a Close or an assignment that won the race is never overwritten.
    const now = nowOf(ctx);
    // A technician acting on an unassigned ticket that another technician took meanwhile lost a race.
    const tookMeanwhile =
      ticket.assignedTo === null && locked?.assignedTo && locked.assignedTo !== ctx.actor.id;
    if (ctx.actor.role === "technician" && tookMeanwhile) {
      throw lostAssignRace((await findTicketById(tx, ticketId))?.assignedToName ?? null);
    }
    const current = ensureVisible(ctx.actor, locked, ticketId);
    if (current.status === "Closed") throw conflict("This ticket was closed while you were changing it.");
    const lateRefusal = statusChangeRefusal(ctx.actor, current, status);
    if (lateRefusal) throw ruleViolation(lateRefusal);
    const takes = takesTicket(ctx.actor, current, status);
    await updateTicketStatus(tx, ticketId, {
      status,
      ...(takes ? { assignedTo: ctx.actor.id } : {}),
      // Who resolved it stays through a Close; back to In Progress, it is no longer resolved by anyone.
      ...(status === "Resolved" ? { resolvedBy: ctx.actor.id } : {}),
      ...(status === "In Progress" ? { resolvedBy: null } : {}),
      updatedAt: now,
    });
    await recordEvent({
      ticketId,
      type: takes ? "assigned" : "status_changed",
      actorId: ctx.actor.id,
      fromStatus: current.status,
      toStatus: status,
      createdAt: now,
    });
  });
  return reloadTicket(ctx, ticketId);
}
