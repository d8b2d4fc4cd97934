import { can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { ChangeStatusInput } from "#shared/tickets/ticket-activity.schemas.ts";
import type { ServiceContext } from "../../context.ts";
import { conflict, forbidden, ruleViolation } from "../../errors.ts";
import { inTransaction } from "../../events/transaction.ts";
import { toTicketDto } from "./ticket.presenter.ts";
import { assignTicketIfOpen, findTicketById, lockTicket, updateTicketStatus } from "./ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "./ticket-access.ts";

async function reloadTicket(ctx: ServiceContext, ticketId: string): Promise<Ticket> {
  return toTicketDto((await findTicketById(ctx.db, ticketId))!);
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
  const found = await findTicketById(ctx.db, ticketId);
  // A technician who lost the race to another technician is told so, not shown a 404: they could see
  // the ticket a moment ago. Anyone else who may not see it gets the usual 404.
  if (
    found &&
    ctx.actor.role === "technician" &&
    found.assignedTo !== null &&
    found.assignedTo !== ctx.actor.id
  ) {
    throw lostAssignRace(found.assignedToName);
  }
  const ticket = ensureVisible(ctx.actor, found, ticketId);
  if (ctx.actor.role !== "technician") throw forbidden("Only technicians can assign tickets to themselves");
  if (ticket.assignedTo !== null) throw conflict("This ticket is already assigned.");
  if (!can.assignToSelf(ctx.actor, ticket)) throw ruleViolation("Only Open tickets can be assigned.");
  const now = new Date();
  await inTransaction(ctx, async (tx, recordEvent) => {
    if (!(await assignTicketIfOpen(tx, ticketId, ctx.actor.id, now))) {
      const winner = await findTicketById(tx, ticketId);
      throw lostAssignRace(winner?.assignedTo ? winner.assignedToName : null);
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
  if (ticket.status === status) throw ruleViolation(`This ticket is already ${status}.`);
  const now = new Date();
  await inTransaction(ctx, async (tx, recordEvent) => {
    // Decide again on the locked row: a Close that won the race is never overwritten.
    const locked = ensureVisible(ctx.actor, await lockTicket(tx, ticketId), ticketId);
    if (locked.status === "Closed") throw conflict("This ticket was closed while you were changing it.");
    if (locked.status === status) throw ruleViolation(`This ticket is already ${status}.`);
    await updateTicketStatus(tx, ticketId, status, now);
    await recordEvent({
      ticketId,
      type: "status_changed",
      actorId: ctx.actor.id,
      fromStatus: locked.status,
      toStatus: status,
      createdAt: now,
    });
  });
  return reloadTicket(ctx, ticketId);
}
