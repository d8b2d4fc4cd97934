import { nowOf, type ServiceContext } from "#server/context.ts";
import { conflict, forbidden, ruleViolation } from "#server/errors.ts";
import { inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { updateTicketDetails } from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { currentTicketFor } from "#server/features/ticket-records/ticket-view.ts";
import { type Actor, can, type TicketFacts } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import {
  type EditableTicketField,
  type EditTicketInput,
  editableTicketFields,
  type TicketChange,
} from "#shared/tickets/ticket-edit.ts";

/** Throws why the actor may not change these fields of this ticket (can.editTicketDetails, can.editDescription). */
function ensureMayEdit(actor: Actor, ticket: TicketFacts, fields: EditableTicketField[]) {
  if (fields.some((field) => field !== "description")) {
    if (actor.role !== "technician" && actor.role !== "admin") {
      throw forbidden("Only technicians and administrators can edit a ticket's details");
    }
    if (ticket.status === "Closed" && !can.editTicketDetails(actor, ticket)) {
      throw conflict("This ticket is closed; only an administrator can correct it.");
    }
    if (!can.editTicketDetails(actor, ticket)) throw forbidden("You cannot edit this ticket");
  }
  if (fields.includes("description")) {
    if (actor.role === null || ticket.createdBy !== actor.id) {
      throw forbidden("Only the person who raised the ticket can edit its description");
    }
    if (!can.editDescription(actor, ticket)) {
      throw ruleViolation("The description can be edited only while the ticket is Open.");
    }
  }
}

/**
 * Decision 015: applies the fields that differ from the ticket as it is now, under a row lock, and
 * records one "edited" event listing each field from → to. Returns the changes (none: nothing recorded).
 */
export async function applyTicketEdit(
  ctx: ServiceContext,
  ticketId: string,
  input: EditTicketInput,
): Promise<TicketChange[]> {
  // Visibility first: a ticket the caller may not see answers 404 whatever its state (docs/security.md).
  const seen = await findVisibleTicket(ctx, ticketId);
  const fields = editableTicketFields.filter((field) => input[field] !== undefined);
  ensureMayEdit(ctx.actor, seen, fields);
  return inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    // Decide again on the locked row, and take "from" from it: a change someone made since this caller
    // read the ticket is never overwritten unseen; the timeline shows exactly what this edit replaced.
    const current = ensureVisible(ctx.actor, locked, ticketId);
    ensureMayEdit(ctx.actor, current, fields);
    // Taken after the lock: an edit that waited for another one is recorded after it in the timeline.
    const now = nowOf(ctx);
    const changes: TicketChange[] = fields.flatMap((field) => {
      const to = input[field];
      return to === undefined || to === current[field] ? [] : [{ field, from: current[field], to }];
    });
    if (changes.length === 0) return changes;
    await updateTicketDetails(tx, ticketId, {
      ...Object.fromEntries(changes.map((change) => [change.field, change.to])),
      updatedAt: now,
    });
    await recordEvent({ ticketId, type: "edited", actorId: ctx.actor.id, changes, createdAt: now });
    return changes;
  });
}

/** PATCH /api/tickets/:ticketId: the ticket after the edit (unchanged when the patch changed nothing). */
export async function editTicket(
  ctx: ServiceContext,
  ticketId: string,
  input: EditTicketInput,
): Promise<Ticket> {
  await applyTicketEdit(ctx, ticketId, input);
  return currentTicketFor(ctx, ticketId);
}
