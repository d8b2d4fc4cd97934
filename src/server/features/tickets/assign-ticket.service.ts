import { nowOf, type ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { conflict, forbidden, ruleViolation } from "#server/errors.ts";
import { endHold } from "#server/features/ticket-events/ticket-hold.ts";
import { type HeldTicket, inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import {
  assignTicketIfOpen,
  findTicketById,
  updateTicketAssignee,
} from "#server/features/ticket-records/ticket.queries.ts";
import { findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { currentTicketFor } from "#server/features/ticket-records/ticket-view.ts";
import { findUserById } from "#server/features/users/user.queries.ts";
import { type Actor, can, type TicketFacts } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import {
  type AssignTicketInput,
  assignmentRefusal,
  statusAfterAssignment,
} from "#shared/tickets/ticket-assignment.ts";
import { ensureTicketVersion, type IfMatch } from "./ticket-version.ts";

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

/**
 * Assign to Me under the ticket's lock: the conditional update takes it only while it is Open and
 * unassigned. The button and a macro that assigns "me" to an unassigned ticket (decision 075) come here.
 */
export async function assignToMeUnderLock(
  ctx: ServiceContext,
  { tx, recordEvent, ticket }: HeldTicket,
): Promise<void> {
  if (ctx.actor.role !== "technician") throw forbidden("Only technicians can assign tickets to themselves");
  if (ticket.assignedTo !== null) throw conflict("This ticket is already assigned.");
  if (!can.assignToSelf(ctx.actor, ticket)) throw ruleViolation("Only Open tickets can be assigned.");
  // Taken under the lock, like every change: the timeline shows the changes in the order they were made.
  const now = nowOf(ctx);
  if (!(await assignTicketIfOpen(tx, ticket.id, ctx.actor.id, now))) {
    // The ticket was Open and unassigned when this caller read it; only the update's outcome says they
    // lost, so naming the winner tells them nothing they could not see a moment ago.
    const winner = await findTicketById(tx, ticket.id);
    if (winner?.assignedTo) throw lostAssignRace(winner.assignedToName);
    throw ruleViolation("Only Open tickets can be assigned.");
  }
  await recordEvent({
    ticketId: ticket.id,
    type: "assigned",
    actorId: ctx.actor.id,
    fromStatus: "Open",
    toStatus: "In Progress",
    createdAt: now,
  });
}

/** Assign to Me: a technician takes an Open, unassigned ticket; it becomes In Progress. */
export async function assignTicketToMe(ctx: ServiceContext, ticketId: string): Promise<Ticket> {
  // Visibility first: a ticket the caller may not see answers 404 whatever its state (docs/security.md).
  const ticket = await findVisibleTicket(ctx, ticketId);
  if (ctx.actor.role !== "technician") throw forbidden("Only technicians can assign tickets to themselves");
  if (ticket.assignedTo !== null) throw conflict("This ticket is already assigned.");
  if (!can.assignToSelf(ctx.actor, ticket)) throw ruleViolation("Only Open tickets can be assigned.");
  // Under the lock the state is decided by the conditional update (the one who lost learns who won),
  // not by the locked row, which the race's winner may have changed.
  await inTicketTransaction(ctx, ticketId, (tx, recordEvent) =>
    assignToMeUnderLock(ctx, { tx, recordEvent, ticket }),
  );
  return currentTicketFor(ctx, ticketId);
}

/** Throws why the actor may not give this ticket to `assigneeId` (null: the queue). */
async function ensureMayAssign(db: Db, actor: Actor, ticket: TicketFacts, assigneeId: string | null) {
  if (actor.role !== "technician" && actor.role !== "admin") {
    throw forbidden("Only technicians and administrators can assign tickets");
  }
  if (ticket.status === "Closed") throw conflict("This ticket is closed; it can no longer be assigned.");
  if (!can.assignTo(actor, ticket))
    throw forbidden("Only its assignee or an administrator can assign this ticket");
  if (assigneeId === null && !can.returnToQueue(actor, ticket)) {
    throw forbidden("Only an administrator can return a ticket to the queue");
  }
  const refusal = assignmentRefusal(ticket, assigneeId);
  if (refusal) throw ruleViolation(refusal);
  // Under the lock again: deactivation may have happened since; an event never names an inactive assignee.
  if (assigneeId !== null) await ensureActiveTechnician(db, assigneeId);
}

/**
 * The assignment under the ticket's lock, decided on the locked row: the Assign control and a macro
 * (decision 075) come here. Decision 006: the status follows (statusAfterAssignment).
 */
export async function assignUnderLock(
  ctx: ServiceContext,
  { tx, recordEvent, ticket }: HeldTicket,
  assigneeId: string | null,
): Promise<void> {
  await ensureMayAssign(tx, ctx.actor, ticket, assigneeId);
  const now = nowOf(ctx);
  const status = statusAfterAssignment(ticket.status, assigneeId);
  // Back to the queue, an In Progress ticket is Open again: that status change ends a hold (decision 070).
  if (status !== ticket.status) {
    await endHold(tx, recordEvent, ticket, { reason: "status", actorId: ctx.actor.id, at: now });
  }
  await updateTicketAssignee(tx, ticket.id, { assignedTo: assigneeId, status, updatedAt: now });
  await recordEvent({
    ticketId: ticket.id,
    type: "reassigned",
    actorId: ctx.actor.id,
    fromStatus: ticket.status,
    toStatus: status,
    fromAssigneeId: ticket.assignedTo,
    toAssigneeId: assigneeId,
    createdAt: now,
  });
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
  { ifMatch }: { ifMatch?: IfMatch } = {},
): Promise<Ticket> {
  // Visibility first: a ticket the caller may not see answers 404 whatever its state (docs/security.md).
  const seen = await findVisibleTicket(ctx, ticketId);
  await ensureMayAssign(ctx.db, ctx.actor, seen, assigneeId);
  await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    if (!locked || locked.assignedTo !== seen.assignedTo) {
      const winner = locked && (await findTicketById(tx, ticketId));
      throw conflict(
        winner?.assignedToName
          ? `This ticket was just assigned to ${winner.assignedToName}.`
          : "This ticket's assignee changed meanwhile; reload it and try again.",
      );
    }
    if (locked.status === "Closed") throw conflict("This ticket was closed while you were assigning it.");
    ensureTicketVersion(ifMatch, locked);
    await assignUnderLock(ctx, { tx, recordEvent, ticket: locked }, assigneeId);
  });
  return currentTicketFor(ctx, ticketId);
}
