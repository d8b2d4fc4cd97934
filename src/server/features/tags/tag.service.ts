import { nowOf, type ServiceContext } from "#server/context.ts";
import { conflict, forbidden, ruleViolation } from "#server/errors.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import { type HeldTicket, inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { updateTicketTags } from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { currentTicketFor } from "#server/features/ticket-records/ticket-view.ts";
import { type Actor, can, type TicketFacts } from "#shared/permissions.ts";
import {
  type ChangeTicketTagsInput,
  maxTagsPerTicket,
  type TagSuggestions,
  type TagSuggestionsQuery,
  tagNotAllowedMessage,
} from "#shared/tags/tag.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { findTagCounts, tagSuggestionLimit } from "./tag.queries.ts";

const onlyStaff = "Only technicians and administrators can see and change tags";

/** Tags are staff's (can.seeTags): anyone else is refused before their request is read. */
export function requireTagAccess(ctx: ServiceContext) {
  if (!can.seeTags(ctx.actor)) throw forbidden(onlyStaff);
}

/** Throws why the actor may not change this ticket's tags (can.changeTicketTags). */
function ensureMayChangeTags(actor: Actor, ticket: TicketFacts) {
  if (!can.seeTags(actor)) throw forbidden(onlyStaff);
  if (ticket.status === "Closed") throw conflict("This ticket is closed; its tags can no longer change.");
  if (!can.changeTicketTags(actor, ticket)) throw forbidden("You cannot change this ticket's tags");
}

/**
 * The tag change under the ticket's lock, decided on the locked row: the tag control and a macro
 * (decision 075) come here. A tag already there is not added again, one not there not removed; when
 * nothing changes, nothing is recorded. With the admin's fixed list on, a tag outside it is refused (422);
 * removing any is allowed.
 */
export async function changeTagsUnderLock(
  ctx: ServiceContext,
  { tx, recordEvent, ticket }: HeldTicket,
  { add, remove }: ChangeTicketTagsInput,
): Promise<void> {
  ensureMayChangeTags(ctx.actor, ticket);
  const had = new Set(ticket.tags);
  const added = add.filter((tag) => !had.has(tag)).sort();
  const removed = remove.filter((tag) => had.has(tag)).sort();
  if (added.length === 0 && removed.length === 0) return;
  if (added.length > 0) {
    const settings = await readSetting(tx, "tags");
    const outside = settings.fixed ? added.find((tag) => !settings.allowed.includes(tag)) : undefined;
    if (outside !== undefined) throw ruleViolation(tagNotAllowedMessage(outside));
  }
  const next = [...had].filter((tag) => !removed.includes(tag)).concat(added);
  if (next.length > maxTagsPerTicket) {
    throw ruleViolation(`A ticket has at most ${maxTagsPerTicket} tags; remove one before adding another.`);
  }
  await updateTicketTags(tx, ticket.id, next);
  await recordEvent({
    ticketId: ticket.id,
    type: "tags_changed",
    actorId: ctx.actor.id,
    tagsAdded: added,
    tagsRemoved: removed,
    // Taken after the lock: a change that waited for another is recorded after it.
    createdAt: nowOf(ctx),
  });
}

/**
 * PATCH /api/tickets/:ticketId/tags (decision 071): adds and removes tags under the ticket's row lock, so
 * two people tagging at once both count, and records one "tags_changed" event (staff only, notifying
 * nobody).
 */
export async function changeTicketTags(
  ctx: ServiceContext,
  ticketId: string,
  input: ChangeTicketTagsInput,
): Promise<Ticket> {
  if (!can.seeTags(ctx.actor)) throw forbidden(onlyStaff);
  // Visibility first: a ticket the caller may not see answers 404 whatever its state (docs/security.md).
  const seen = await findVisibleTicket(ctx, ticketId);
  ensureMayChangeTags(ctx.actor, seen);
  await inTicketTransaction(ctx, ticketId, (tx, recordEvent, locked) =>
    changeTagsUnderLock(ctx, { tx, recordEvent, ticket: ensureVisible(ctx.actor, locked, ticketId) }, input),
  );
  return currentTicketFor(ctx, ticketId);
}

/**
 * GET /api/tags (staff): what the tag control suggests, most used first. With the admin's fixed list on,
 * exactly the listed tags (each with its count, the unused ones last); otherwise the tags in use.
 */
export async function suggestTags(ctx: ServiceContext, { q }: TagSuggestionsQuery): Promise<TagSuggestions> {
  if (!can.seeTags(ctx.actor)) throw forbidden(onlyStaff);
  const settings = await readSetting(ctx.db, "tags");
  const prefix = q || undefined;
  if (!settings.fixed) {
    return { fixed: false, items: await findTagCounts(ctx.db, { prefix, limit: tagSuggestionLimit }) };
  }
  const listed = settings.allowed.filter((tag) => !prefix || tag.startsWith(prefix));
  const used = await findTagCounts(ctx.db, { only: listed, limit: listed.length || 1 });
  const counts = new Map(used.map((item) => [item.tag, item.count]));
  const items = listed
    .map((tag) => ({ tag, count: counts.get(tag) ?? 0 }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
  return { fixed: true, items };
}
