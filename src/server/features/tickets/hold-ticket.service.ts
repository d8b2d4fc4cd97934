import { nowOf, type ServiceContext } from "#server/context.ts";
import { conflict, forbidden, ruleViolation, validationFailed } from "#server/errors.ts";
import { resolveMentions } from "#server/features/mentions/mention.service.ts";
import { endHold } from "#server/features/ticket-events/ticket-hold.ts";
import { type HeldTicket, inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { type TicketFields, updateTicketHold } from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { insertComment } from "#server/features/ticket-records/ticket-activity.queries.ts";
import { currentTicketFor } from "#server/features/ticket-records/ticket-view.ts";
import { type Actor, can, type TicketFacts } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import {
  type ChangeHoldInput,
  changeHoldRefusal,
  holdUntilRefusal,
  type PutOnHoldInput,
  putOnHoldRefusal,
} from "#shared/tickets/ticket-hold.ts";
import { ensureTicketVersion, type IfMatch } from "./ticket-version.ts";

// On hold (decision 070): staff who may change a ticket's status put an In Progress ticket on hold with a
// public comment for the requester, change its lift date, and take it off hold. The requester's reply
// (ticket-activity.service.ts) and the lift-date job (features/service-levels/hold-jobs.ts) lift it too.

/** Throws why the actor may not touch this ticket's hold at all (a user 403, a Closed ticket 409). */
function ensureMayHold(actor: Actor, ticket: TicketFacts) {
  if (actor.role !== "technician" && actor.role !== "admin") {
    throw forbidden("Only technicians and administrators can put a ticket on hold or take it off hold");
  }
  if (ticket.status === "Closed") throw conflict("This ticket is closed; it can no longer be put on hold.");
  if (!can.changeStatus(actor, ticket)) throw forbidden("You cannot change the status of this ticket");
}

/**
 * Who may touch the hold, on the ticket as read before the lock: someone who may not see it gets 404.
 * What the ticket's state allows is decided again under the lock.
 */
async function visibleForHold(ctx: ServiceContext, ticketId: string) {
  const ticket = await findVisibleTicket(ctx, ticketId);
  ensureMayHold(ctx.actor, ticket);
  return ticket;
}

/** The lift date as an instant, checked against the server's clock: ahead, within the limit. */
function liftDateOf(until: string | null | undefined, now: Date): Date | null {
  if (!until) return null;
  const at = new Date(until);
  const refusal = holdUntilRefusal(at, now);
  if (refusal) throw validationFailed(`until: ${refusal}`);
  return at;
}

/** The locked row as the rules read it, visible to the caller still, or a 404. */
/** The locked ticket, if the caller still sees it, it is not Closed, and it is the version If-Match names. */
function lockedForHold(
  ctx: ServiceContext,
  locked: TicketFields | undefined,
  ticketId: string,
  ifMatch: IfMatch | undefined,
) {
  const current = ensureVisible(ctx.actor, locked, ticketId);
  if (current.status === "Closed") throw conflict("This ticket was closed meanwhile.");
  ensureTicketVersion(ifMatch, current);
  return current;
}

/** Decision 078: a hold change made only on the version of the ticket the caller read, when they say so. */
type Versioned = { ifMatch?: IfMatch };

/**
 * Puts the ticket on hold under its lock, decided on the locked row: the Hold form and a macro (decision
 * 075) come here. The comment (mentions resolved) is what the requester reads, sent as every public
 * comment is (notification, e-mail with a reply address, webhook); the hold's own entry tells nobody.
 */
export async function putOnHoldUnderLock(
  ctx: ServiceContext,
  { tx, recordEvent, ticket }: HeldTicket,
  { message, notifyIds, holdUntil }: { message: string; notifyIds: string[]; holdUntil: Date | null },
): Promise<void> {
  ensureMayHold(ctx.actor, ticket);
  const refusal = putOnHoldRefusal(ticket);
  if (refusal) throw ruleViolation(refusal);
  const now = nowOf(ctx);
  const comment = await insertComment(tx, {
    ticketId: ticket.id,
    authorId: ctx.actor.id,
    message,
    isInternal: false,
    createdAt: now,
  });
  await recordEvent({
    ticketId: ticket.id,
    type: "commented",
    actorId: ctx.actor.id,
    commentId: comment.id,
    createdAt: now,
    mentionedUserIds: notifyIds,
  });
  await updateTicketHold(tx, ticket.id, { onHoldSince: now, holdUntil, updatedAt: now });
  await recordEvent({
    ticketId: ticket.id,
    type: "put_on_hold",
    actorId: ctx.actor.id,
    holdUntil,
    createdAt: now,
  });
}

export async function putTicketOnHold(
  ctx: ServiceContext,
  ticketId: string,
  input: PutOnHoldInput,
  { ifMatch }: Versioned = {},
): Promise<Ticket> {
  const ticket = await visibleForHold(ctx, ticketId);
  const refusal = putOnHoldRefusal(ticket);
  if (refusal) throw ruleViolation(refusal);
  const holdUntil = liftDateOf(input.until, nowOf(ctx));
  // A hold's comment is a comment: staff may mention staff in it as anywhere else.
  const { message, notifyIds } = await resolveMentions(ctx.db, ctx.actor, ticket, input.comment);
  await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    const current = lockedForHold(ctx, locked, ticketId, ifMatch);
    const lateRefusal = putOnHoldRefusal(current);
    if (lateRefusal) throw conflict(`${lateRefusal} It changed while you were putting it on hold.`);
    await putOnHoldUnderLock(ctx, { tx, recordEvent, ticket: current }, { message, notifyIds, holdUntil });
  });
  return currentTicketFor(ctx, ticketId);
}

/** A new lift date for a ticket on hold, or none (null). */
export async function changeTicketHold(
  ctx: ServiceContext,
  ticketId: string,
  input: ChangeHoldInput,
  { ifMatch }: Versioned = {},
): Promise<Ticket> {
  const ticket = await visibleForHold(ctx, ticketId);
  const refusal = changeHoldRefusal(ticket);
  if (refusal) throw ruleViolation(refusal);
  const holdUntil = liftDateOf(input.until, nowOf(ctx));
  await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    const current = lockedForHold(ctx, locked, ticketId, ifMatch);
    if (changeHoldRefusal(current)) throw conflict("This ticket was taken off hold meanwhile.");
    if ((current.holdUntil?.getTime() ?? null) === (holdUntil?.getTime() ?? null)) return;
    const now = nowOf(ctx);
    await updateTicketHold(tx, ticketId, { onHoldSince: current.onHoldSince, holdUntil });
    await recordEvent({ ticketId, type: "hold_changed", actorId: ctx.actor.id, holdUntil, createdAt: now });
  });
  return currentTicketFor(ctx, ticketId);
}

/** Takes the ticket off hold under its lock: the button and a macro (decision 075) come here. */
export async function takeOffHoldUnderLock(
  ctx: ServiceContext,
  { tx, recordEvent, ticket }: HeldTicket,
): Promise<void> {
  ensureMayHold(ctx.actor, ticket);
  const refusal = changeHoldRefusal(ticket);
  if (refusal) throw ruleViolation(refusal);
  await endHold(tx, recordEvent, ticket, { reason: "staff", actorId: ctx.actor.id, at: nowOf(ctx) });
}

export async function takeTicketOffHold(
  ctx: ServiceContext,
  ticketId: string,
  { ifMatch }: Versioned = {},
): Promise<Ticket> {
  const ticket = await visibleForHold(ctx, ticketId);
  const refusal = changeHoldRefusal(ticket);
  if (refusal) throw ruleViolation(refusal);
  await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    const current = lockedForHold(ctx, locked, ticketId, ifMatch);
    if (changeHoldRefusal(current)) throw conflict("This ticket was taken off hold meanwhile.");
    await takeOffHoldUnderLock(ctx, { tx, recordEvent, ticket: current });
  });
  return currentTicketFor(ctx, ticketId);
}
