import { z } from "zod";
import { ticketIdSchema, ticketSchema, ticketStatuses } from "#shared/tickets/ticket.schemas.ts";

/**
 * What a ticket is to the one it is linked to (decision 074): related to it, a duplicate of it, or a child
 * of it (the other is its parent). One stored row per pair says it from one side.
 */
export const ticketLinkKinds = ["related", "duplicate", "child", "incident"] as const;
export type TicketLinkKind = (typeof ticketLinkKinds)[number];

/**
 * How a link reads from one ticket, as its "Linked tickets" panel names the other ticket (decision 074):
 * `related`; `duplicate_of` (this ticket duplicates the other); `has_duplicate` (the other duplicates this
 * one); `parent` (the other is this one's parent); `child` (the other is this one's child). A new link is
 * asked for in the same words, from the ticket it is made on. Decision 077 adds `affected_by` (the other is
 * the major incident affecting this one) and `affects` (this one is the incident affecting the other), made
 * only through the incident's own routes.
 */
export const ticketLinkRelations = [
  "related",
  "duplicate_of",
  "has_duplicate",
  "parent",
  "child",
  "affected_by",
  "affects",
] as const;
export type TicketLinkRelation = (typeof ticketLinkRelations)[number];

/** The relations the "Link another ticket" form makes; an incident's links have routes of their own. */
export const linkableRelations = ["related", "duplicate_of", "has_duplicate", "parent", "child"] as const;
export type LinkableRelation = (typeof linkableRelations)[number];

/** A stored link: what `ticketId` is to `linkedTicketId`. */
export interface StoredTicketLink {
  ticketId: string;
  linkedTicketId: string;
  kind: TicketLinkKind;
}

/** The row that says `relation` from `thisId`'s side about `otherId`. */
export function storedLinkOf(
  thisId: string,
  otherId: string,
  relation: TicketLinkRelation,
): StoredTicketLink {
  switch (relation) {
    case "related":
      return { ticketId: thisId, linkedTicketId: otherId, kind: "related" };
    case "duplicate_of":
      return { ticketId: thisId, linkedTicketId: otherId, kind: "duplicate" };
    case "has_duplicate":
      return { ticketId: otherId, linkedTicketId: thisId, kind: "duplicate" };
    case "parent":
      return { ticketId: thisId, linkedTicketId: otherId, kind: "child" };
    case "child":
      return { ticketId: otherId, linkedTicketId: thisId, kind: "child" };
    case "affected_by":
      return { ticketId: thisId, linkedTicketId: otherId, kind: "incident" };
    case "affects":
      return { ticketId: otherId, linkedTicketId: thisId, kind: "incident" };
  }
}

/** How the stored row `link` reads from `thisId`'s side (one of its two tickets). */
export function relationOf(thisId: string, link: StoredTicketLink): TicketLinkRelation {
  const fromThisSide = link.ticketId === thisId;
  switch (link.kind) {
    case "related":
      return "related";
    case "duplicate":
      return fromThisSide ? "duplicate_of" : "has_duplicate";
    case "child":
      return fromThisSide ? "parent" : "child";
    case "incident":
      return fromThisSide ? "affected_by" : "affects";
  }
}

/** The other ticket of a stored row, seen from `thisId`. */
export const otherTicketOf = (thisId: string, link: StoredTicketLink) =>
  link.ticketId === thisId ? link.linkedTicketId : link.ticketId;

const relationError = { error: "Kind must be related, duplicate_of, has_duplicate, parent or child" };

/** POST /api/tickets/:ticketId/links: the other ticket, and what it is to this one (as the panel reads it). */
export const createTicketLinkInputSchema = z.object({
  ticketId: ticketIdSchema,
  kind: z.enum(linkableRelations, relationError),
});
export type CreateTicketLinkInput = z.infer<typeof createTicketLinkInputSchema>;

/** POST /api/tickets/:ticketId/merge: the ticket this one (the duplicate) is merged into. */
export const mergeTicketInputSchema = z.object({ targetId: ticketIdSchema });
export type MergeTicketInput = z.infer<typeof mergeTicketInputSchema>;

export const ticketLinkIdSchema = z
  .string({ error: "Link id must be text" })
  .regex(/^LNK[0-9A-Z]{1,40}$/, "Link id must be a link id (LNK…)");

/** One link as the caller reads it from a ticket: the other ticket's id, title and status, and the relation. */
export const ticketLinkSchema = z.object({
  linkId: z.string(),
  ticketId: z.string(),
  title: z.string(),
  status: z.enum(ticketStatuses),
  relation: z.enum(ticketLinkRelations),
  createdAt: z.iso.datetime(),
});
export type TicketLink = z.infer<typeof ticketLinkSchema>;

/** GET /api/tickets/:ticketId/links: the links whose other ticket the caller may see, oldest first. */
export const ticketLinksSchema = z.object({ items: z.array(ticketLinkSchema) });
export type TicketLinks = z.infer<typeof ticketLinksSchema>;

/**
 * POST /api/tickets/:ticketId/merge answers the duplicate as it is now (Closed, `mergedIntoId` set) and what
 * moved to the target.
 */
export const mergeResultSchema = z.object({
  ticket: ticketSchema,
  moved: z.object({
    comments: z.number().int(),
    attachments: z.number().int(),
    followers: z.number().int(),
  }),
});
export type MergeResult = z.infer<typeof mergeResultSchema>;
