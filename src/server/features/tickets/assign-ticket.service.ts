import { nowOf, type ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { conflict, forbidden, ruleViolation } from "#server/errors.ts";
import { endHold } from "#server/features/ticket-events/ticket-hold.ts";
import { inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import {
  assignTicketIfOpen,
  findTicketById,
  updateTicketAssignee,
} from "#server/features/ticket-records/ticket.queries.ts";
import { findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { currentTicketFor } from "#server/features/ticket-records/ticket-view.ts";
import { findUserById } from "#server/features/users/user.queries.ts";
import { can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import {
  type AssignTicketInput,
  assignmentRefusal,
  statusAfterAssignment,
} from "#shared/tickets/ticket-assignment.ts";

async function ensureActiveTechnician(db: Db, assigneeId: string) {
  const person = await findUserById(db, assigneeId);
  if (person?.role !== "technician" || person.status !== "Active") {
    throw ruleViolation(`${person?.name ?? "That person"} is not an active technician.`);
  }
}

/** The loser of an Assign to Me race learns who won: they could see the ticket a moment ago. */
export function lostAssignRace(winnerName: string | null) {
  return conflict(
    winnerName
      ? `This ticket was just assigned to ${winnerName}.`
      : "This ticket was just assigned to someone else.",
  );
}

/** Assign to Me: a technician takes an Open, unassigned ticket; it becomes In Progress. */
export async function assignTicketToMe(ctx: ServiceContext, ticketId: string): Promise<Ticket> {
  // Visibility first: a ticket the caller may not see answers 404 whatever its state (docs/security.md).
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
  return currentTicketFor(ctx, ticketId);
}

/**
 * An admin gives any ticket that is not Closed to an active technician or back to the
 * queue; a technician hands their own ticket to another. Race-safe like Assign to Me: the change applies
 * only if the locked row still has the assignee this caller saw.
 */
export async function assignTicket(
  ctx: ServiceContext,
  ticketId: string,
  { assigneeId }: AssignTicketInput,
): Promise<Ticket> {
  // Visibility first: a ticket the caller may not see answers 404 whatever its state (docs/security.md).
  const seen = await findVisibleTicket(ctx, ticketId);
  if (ctx.actor.role !== "technician" && ctx.actor.role !== "admin") {
    throw forbidden("Only technicians and administrators can assign tickets");
  }
  if (seen.status === "Closed") throw conflict("This ticket is closed; it can no longer be assigned.");
  if (!can.assignTo(ctx.actor, seen))
    throw forbidden("Only its assignee or an administrator can assign this ticket");
  if (assigneeId === null && !can.returnToQueue(ctx.actor, seen)) {
    throw forbidden("Only an administrator can return a ticket to the queue");
  }
  const refusal = assignmentRefusal(seen, assigneeId);
  if (refusal) throw ruleViolation(refusal);
  if (assigneeId !== null) await ensureActiveTechnician(ctx.db, assigneeId);
  await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    const now = nowOf(ctx);
    if (!locked || locked.assignedTo !== seen.assignedTo) {
      const winner = locked && (await findTicketById(tx, ticketId));
      throw conflict(
        winner?.assignedToName
          ? `This ticket was just assigned to ${winner.assignedToName}.`
          : "This ticket's assignee changed meanwhile; reload it and try again.",
      );
    }
    if (locked.status === "Closed") throw conflict("This ticket was closed while you were assigning it.");
    // Deactivation may have happened since the first check; the event must never name an inactive assignee.
    if (assigneeId !== null) await ensureActiveTechnician(tx, assigneeId);
    const status = statusAfterAssignment(locked.status, assigneeId);
    // Back to the queue, an In Progress ticket is Open again: that status change ends a hold (decision 070).
    if (status !== locked.status) {
      await endHold(tx, recordEvent, locked, { reason: "status", actorId: ctx.actor.id, at: now });
    }
    await updateTicketAssignee(tx, ticketId, { assignedTo: assigneeId, status, updatedAt: now });
    await recordEvent({
      ticketId,
      type: "reassigned",
      actorId: ctx.actor.id,
      fromStatus: locked.status,
      toStatus: status,
      fromAssigneeId: locked.assignedTo,
      toAssigneeId: assigneeId,
      createdAt: now,
    });
  });
  return currentTicketFor(ctx, ticketId);
}
