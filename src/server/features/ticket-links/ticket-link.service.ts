import { nowOf, type ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import type { TicketLinkRow } from "#server/db/schema/index.ts";
import { conflict, forbidden, notFound, ruleViolation } from "#server/errors.ts";
import {
  inTicketPairTransaction,
  type RecordEvent,
} from "#server/features/ticket-events/ticket-transaction.ts";
import { findTicketById } from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { type Actor, can, isStaff, type TicketFacts } from "#shared/permissions.ts";
import {
  type CreateTicketLinkInput,
  otherTicketOf,
  relationOf,
  type StoredTicketLink,
  storedLinkOf,
  type TicketLink,
  type TicketLinks,
} from "#shared/ticket-links/ticket-link.schemas.ts";
import {
  deleteLink,
  findLinkBetween,
  findLinkOf,
  findLinksOf,
  findParentId,
  insertLink,
  isAncestor,
} from "./ticket-link.queries.ts";

const onlyStaff = "Only technicians and administrators can link tickets";

/** Throws why the actor may not change this ticket's links (can.linkTickets), after it was found visible. */
function ensureMayLink(actor: Actor, ticket: TicketFacts) {
  if (can.linkTickets(actor, ticket)) return;
  if (ticket.status === "Closed") {
    throw conflict("This ticket is closed; only an administrator can change its links.");
  }
  throw forbidden("You cannot change this ticket's links");
}

/**
 * GET /api/tickets/:ticketId/links (decision 074): the ticket's links whose other ticket the caller may
 * see too, each as this ticket reads it. A link to a ticket the caller may not see is left out: it would
 * name a ticket they must not learn of (a requester sees links between their own tickets only).
 */
export async function listTicketLinks(ctx: ServiceContext, ticketId: string): Promise<TicketLinks> {
  await findVisibleTicket(ctx, ticketId);
  const rows = await findLinksOf(ctx.db, ticketId);
  return {
    items: rows
      .filter(({ other }) => can.viewTicket(ctx.actor, other))
      .map(({ link, other }) => ({
        linkId: link.id,
        ticketId: other.id,
        title: other.title,
        status: other.status,
        relation: relationOf(ticketId, link),
        createdAt: link.createdAt.toISOString(),
      })),
  };
}

/** A new parent/child row must not give a ticket a second parent nor make a loop. */
async function refuseBadTree(tx: Db, stored: StoredTicketLink) {
  if (stored.kind !== "child") return;
  const child = stored.ticketId;
  const parent = stored.linkedTicketId;
  const hasParent = await findParentId(tx, child);
  if (hasParent !== undefined) {
    throw conflict(`${child} already has a parent, ${hasParent}; remove that link first.`);
  }
  if (await isAncestor(tx, child, parent)) {
    throw conflict(
      `${child} is already a parent of ${parent} (or of one of its parents): that link would make a loop.`,
    );
  }
}

/**
 * Records a link made or removed on both its tickets, this one first, each reading the link from its own
 * side.
 */
export async function recordOnBoth(
  recordEvent: RecordEvent,
  type: "linked" | "unlinked",
  { link, ticketId, otherId }: { link: TicketLinkRow; ticketId: string; otherId: string },
  actorId: string,
  at: Date,
) {
  for (const [on, other] of [
    [ticketId, otherId],
    [otherId, ticketId],
  ] as const) {
    await recordEvent({
      ticketId: on,
      type,
      actorId,
      linkedTicketId: other,
      linkKind: relationOf(on, link),
      createdAt: at,
    });
  }
}

/**
 * POST /api/tickets/:ticketId/links (decision 074): links another ticket to this one, as `kind` says the
 * other is to this one. Staff who may edit this ticket and see the other; one link per pair; a ticket has
 * at most one parent and no loop of parents. Both rows are locked in id order, and a "linked" entry is
 * recorded on each ticket (staff only, notifying nobody).
 */
export async function createTicketLink(
  ctx: ServiceContext,
  ticketId: string,
  { ticketId: otherId, kind }: CreateTicketLinkInput,
): Promise<TicketLink> {
  const seen = await findVisibleTicket(ctx, ticketId);
  if (!isStaff(ctx.actor)) throw forbidden(onlyStaff);
  if (otherId === ticketId) throw ruleViolation("A ticket cannot be linked to itself.");
  await findVisibleTicket(ctx, otherId);
  ensureMayLink(ctx.actor, seen);
  const stored = storedLinkOf(ticketId, otherId, kind);
  const link = await inTicketPairTransaction(ctx, [ticketId, otherId], async (tx, recordEvent, locked) => {
    // Decided again on the locked rows: a ticket taken by a colleague meanwhile is no longer visible.
    ensureMayLink(ctx.actor, ensureVisible(ctx.actor, locked[0], ticketId));
    ensureVisible(ctx.actor, locked[1], otherId);
    const existing = await findLinkBetween(tx, ticketId, otherId);
    if (existing) {
      const relation = relationOf(ticketId, existing).replace("_", " ");
      throw conflict(
        `${ticketId} and ${otherId} are already linked (${relation}); remove that link to link them another way.`,
      );
    }
    await refuseBadTree(tx, stored);
    const now = nowOf(ctx);
    const row = await insertLink(tx, { ...stored, createdBy: ctx.actor.id, createdAt: now });
    await recordOnBoth(recordEvent, "linked", { link: row, ticketId, otherId }, ctx.actor.id, now);
    return { row, other: locked[1]! };
  });
  return {
    linkId: link.row.id,
    ticketId: otherId,
    title: link.other.title,
    status: link.other.status,
    relation: kind,
    createdAt: link.row.createdAt.toISOString(),
  };
}

/**
 * DELETE /api/tickets/:ticketId/links/:linkId (decision 074): removes one of this ticket's links, for staff
 * who may edit this ticket and see the other (a link they cannot see is 404, as it is not listed for them);
 * records "unlinked" on both tickets.
 */
export async function removeTicketLink(ctx: ServiceContext, ticketId: string, linkId: string): Promise<void> {
  const seen = await findVisibleTicket(ctx, ticketId);
  if (!isStaff(ctx.actor)) throw forbidden(onlyStaff);
  const found = await findLinkOf(ctx.db, ticketId, linkId);
  if (!found) throw notFound("Link", linkId);
  const otherId = otherTicketOf(ticketId, found);
  const other = await findTicketById(ctx.db, otherId);
  if (!other || !can.viewTicket(ctx.actor, other)) throw notFound("Link", linkId);
  ensureMayLink(ctx.actor, seen);
  await inTicketPairTransaction(ctx, [ticketId, otherId], async (tx, recordEvent, locked) => {
    ensureMayLink(ctx.actor, ensureVisible(ctx.actor, locked[0], ticketId));
    if (!locked[1] || !can.viewTicket(ctx.actor, locked[1])) throw notFound("Link", linkId);
    // Another person may have removed it meanwhile.
    const link = await findLinkOf(tx, ticketId, linkId);
    if (!link) throw notFound("Link", linkId);
    await deleteLink(tx, linkId);
    const now = nowOf(ctx);
    await recordOnBoth(recordEvent, "unlinked", { link, ticketId, otherId }, ctx.actor.id, now);
  });
}
