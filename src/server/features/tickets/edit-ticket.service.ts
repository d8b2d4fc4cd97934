import { nowOf, type ServiceContext } from "#server/context.ts";
import { conflict, forbidden, ruleViolation } from "#server/errors.ts";
import { type HeldTicket, inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
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
import { ensureTicketVersion, type IfMatch } from "./ticket-version.ts";

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
 * Decision 015: the edit under the ticket's lock, decided on the locked row (the ticket page's edit, bulk
 * priority and a macro, decision 075, come here). Applies the fields that differ from the ticket as it is
 * now, taking "from" from the locked row, so a change someone made since the caller read the ticket is
 * never overwritten unseen, and records one "edited" event listing each field from → to. Returns the
 * changes (none: nothing recorded).
 */
export async function editUnderLock(
  ctx: ServiceContext,
  { tx, recordEvent, ticket }: HeldTicket,
  input: EditTicketInput,
): Promise<TicketChange[]> {
  const fields = editableTicketFields.filter((field) => input[field] !== undefined);
  ensureMayEdit(ctx.actor, ticket, fields);
  // Taken after the lock: an edit that waited for another one is recorded after it in the timeline.
  const now = nowOf(ctx);
  const changes: TicketChange[] = fields.flatMap((field) => {
    const to = input[field];
    return to === undefined || to === ticket[field] ? [] : [{ field, from: ticket[field], to }];
  });
  if (changes.length === 0) return changes;
  await updateTicketDetails(tx, ticket.id, {
    ...Object.fromEntries(changes.map((change) => [change.field, change.to])),
    updatedAt: now,
  });
  await recordEvent({ ticketId: ticket.id, type: "edited", actorId: ctx.actor.id, changes, createdAt: now });
  return changes;
}

/** Applies an edit in its own transaction; returns the changes (none: nothing recorded). */
export async function applyTicketEdit(
  ctx: ServiceContext,
  ticketId: string,
  input: EditTicketInput,
  ifMatch?: IfMatch,
): Promise<TicketChange[]> {
  // Visibility first: a ticket the caller may not see answers 404 whatever its state (docs/security.md).
  const seen = await findVisibleTicket(ctx, ticketId);
  ensureMayEdit(
    ctx.actor,
    seen,
    editableTicketFields.filter((field) => input[field] !== undefined),
  );
  return inTicketTransaction(ctx, ticketId, (tx, recordEvent, locked) => {
    const ticket = ensureVisible(ctx.actor, locked, ticketId);
    // Decided on the locked row: no change can come between this check and the edit (decision 078).
    ensureTicketVersion(ifMatch, ticket);
    return editUnderLock(ctx, { tx, recordEvent, ticket }, input);
  });
}

/**
 * PATCH /api/tickets/:ticketId: the ticket after the edit (unchanged when the patch changed nothing);
 * with `ifMatch`, only if the ticket is still the version the caller read (else 412, decision 078).
 */
export async function editTicket(
  ctx: ServiceContext,
  ticketId: string,
  input: EditTicketInput,
  { ifMatch }: { ifMatch?: IfMatch } = {},
): Promise<Ticket> {
  await applyTicketEdit(ctx, ticketId, input, ifMatch);
  return currentTicketFor(ctx, ticketId);
}
