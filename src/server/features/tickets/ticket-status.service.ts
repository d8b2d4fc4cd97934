import { nowOf, type ServiceContext } from "#server/context.ts";
import { conflict, forbidden, ruleViolation } from "#server/errors.ts";
import { endHold } from "#server/features/ticket-events/ticket-hold.ts";
import { type HeldTicket, inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { findTicketById, updateTicketStatus } from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { currentTicketFor } from "#server/features/ticket-records/ticket-view.ts";
import { type Actor, can, type TicketFacts } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { ChangeStatusInput } from "#shared/tickets/ticket-activity.schemas.ts";
import { type ChangeableStatus, statusChangeRefusal, takesTicket } from "#shared/tickets/ticket-status.ts";
import { lostAssignRace } from "./assign-ticket.service.ts";

/** Throws why the actor may not give this ticket this status (can.changeStatus, statusChangeRefusal). */
function ensureMayChangeStatus(actor: Actor, ticket: TicketFacts, status: ChangeableStatus) {
  if (actor.role !== "technician" && actor.role !== "admin") {
    throw forbidden("Only technicians and administrators can change a ticket's status");
  }
  if (ticket.status === "Closed") throw conflict("This ticket is closed; its status can no longer change.");
  if (!can.changeStatus(actor, ticket)) throw forbidden("You cannot change the status of this ticket");
  const refusal = statusChangeRefusal(actor, ticket, status);
  if (refusal) throw ruleViolation(refusal);
}

/**
 * The status change under the ticket's lock, decided on the locked row: the Status buttons and a macro
 * (decision 075) both come here. A technician setting In Progress on an unassigned ticket takes it.
 */
export async function changeStatusUnderLock(
  ctx: ServiceContext,
  { tx, recordEvent, ticket }: HeldTicket,
  status: ChangeableStatus,
): Promise<void> {
  ensureMayChangeStatus(ctx.actor, ticket, status);
  const now = nowOf(ctx);
  const takes = takesTicket(ctx.actor, ticket, status);
  // Any status change ends a hold (decision 070), before the status moves (the table's check).
  await endHold(tx, recordEvent, ticket, { reason: "status", actorId: ctx.actor.id, at: now });
  await updateTicketStatus(tx, ticket.id, {
    status,
    ...(takes ? { assignedTo: ctx.actor.id } : {}),
    // Who resolved it stays through a Close; back to In Progress, it is no longer resolved by anyone.
    ...(status === "Resolved" ? { resolvedBy: ctx.actor.id } : {}),
    ...(status === "In Progress" ? { resolvedBy: null } : {}),
    updatedAt: now,
  });
  await recordEvent({
    ticketId: ticket.id,
    type: takes ? "assigned" : "status_changed",
    actorId: ctx.actor.id,
    fromStatus: ticket.status,
    toStatus: status,
    createdAt: now,
  });
}

export async function changeTicketStatus(
  ctx: ServiceContext,
  ticketId: string,
  { status }: ChangeStatusInput,
): Promise<Ticket> {
  const ticket = await findVisibleTicket(ctx, ticketId);
  ensureMayChangeStatus(ctx.actor, ticket, status);
  await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    // Decide again on the locked row: a Close or an assignment that won the race is never overwritten.
    // A technician acting on an unassigned ticket that another technician took meanwhile lost a race.
    const tookMeanwhile =
      ticket.assignedTo === null && locked?.assignedTo && locked.assignedTo !== ctx.actor.id;
    if (ctx.actor.role === "technician" && tookMeanwhile) {
      throw lostAssignRace((await findTicketById(tx, ticketId))?.assignedToName ?? null);
    }
    const current = ensureVisible(ctx.actor, locked, ticketId);
    if (current.status === "Closed") throw conflict("This ticket was closed while you were changing it.");
    await changeStatusUnderLock(ctx, { tx, recordEvent, ticket: current }, status);
  });
  return currentTicketFor(ctx, ticketId);
}
