import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { preconditionFailed, validationFailed } from "#server/errors.ts";

/**
 * Decision 078: what a ticket's entity tag is made of. The last activity (updated_at, which every change a
 * requester can see moves) and the fields the edit, status, assignee and hold routes change, so two changes within one millisecond
 * still give two tags. A team or tag move (staff only, not activity) does not change it. The same facts on
 * the row (Date) and on its DTO (ISO string) give the same tag.
 */
interface TicketVersionFacts {
  updatedAt: Date | string;
  title: string;
  description: string;
  category: string;
  priority: string;
  status: string;
  assignedTo: string | null;
  department: string;
  floor: string;
  officeNumber: string;
  mergedIntoId: string | null;
  onHoldSince: Date | string | null;
  holdUntil: Date | string | null;
}

const instant = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The ticket's strong ETag, e.g. `"3f9a…"`: opaque to clients, who send it back in If-Match. */
export function ticketEntityTag(ticket: TicketVersionFacts): string {
  const facts = [
    new Date(ticket.updatedAt).toISOString(),
    ticket.title,
    ticket.description,
    ticket.category,
    ticket.priority,
    ticket.status,
    ticket.assignedTo,
    ticket.department,
    ticket.floor,
    ticket.officeNumber,
    ticket.mergedIntoId,
    instant(ticket.onHoldSince),
    instant(ticket.holdUntil),
  ];
  return `"${createHash("sha256").update(JSON.stringify(facts)).digest("base64url").slice(0, 27)}"`;
}

/** An If-Match header: any current ticket (`*`), or the entity tags it lists. */
export type IfMatch = "*" | readonly string[];

const entityTag = /^(?:W\/)?("[\x21\x23-\x7e]*")$/;

/**
 * The request's If-Match (RFC 9110), undefined without one; 400 when it is not `*` or a list of quoted
 * entity tags. A weak tag (`W/"…"`) is compared as its strong self: a proxy that compresses an answer
 * may have weakened the tag it passed on, and the tag names the same version.
 */
export function ifMatchOf(request: FastifyRequest): IfMatch | undefined {
  const header = request.headers["if-match"];
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === "*") return "*";
  const tags = value.split(",").map((part) => entityTag.exec(part.trim())?.[1]);
  if (tags.length === 0 || tags.some((tag) => tag === undefined)) {
    throw validationFailed(
      'If-Match must be "*" or the ETag of the ticket as GET /api/tickets/:ticketId answered it, quotes included (e.g. If-Match: "3f9a…").',
    );
  }
  return tags as string[];
}

/**
 * 412 unless the ticket, as it is under its lock, is the version If-Match names: someone changed it
 * since the caller read it, and nothing is changed.
 */
export function ensureTicketVersion(ifMatch: IfMatch | undefined, ticket: TicketVersionFacts) {
  if (ifMatch === undefined || ifMatch === "*") return;
  if (!ifMatch.includes(ticketEntityTag(ticket))) {
    throw preconditionFailed(
      "This ticket has changed since you read it (If-Match does not match its ETag). Read the ticket again (GET /api/tickets/:ticketId), then send your change with its new ETag.",
    );
  }
}
