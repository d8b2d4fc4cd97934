import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Actor } from "#shared/permissions.ts";
import type { ListTicketsQuery } from "#shared/tickets/ticket.schemas.ts";
import { tickets } from "../../db/schema/index.ts";

/**
 * The SQL twin of can.viewTicket (src/shared/permissions.ts). ticket-visibility.test.ts checks
 * that the two agree for every actor × ticket combination.
 */
export function visibleTicketsWhere(actor: Actor): SQL {
  if (actor.role === "admin") return sql`true`;
  if (actor.role === null) return sql`false`;
  const own = or(eq(tickets.createdBy, actor.id), eq(tickets.assignedTo, actor.id))!;
  if (actor.role === "technician") return or(own, isNull(tickets.assignedTo))!;
  return own;
}

/** A list's filter: what the actor may see, narrowed (never widened) by a tab, filters and a search. */
export function ticketListWhere(
  actor: Actor,
  { scope, status, priority, category, q }: Omit<ListTicketsQuery, "cursor" | "limit">,
): SQL {
  const filters = [visibleTicketsWhere(actor)];
  if (scope === "mine") filters.push(eq(tickets.assignedTo, actor.id));
  if (scope === "unassigned") filters.push(isNull(tickets.assignedTo));
  if (status) filters.push(eq(tickets.status, status));
  if (priority) filters.push(eq(tickets.priority, priority));
  if (category) filters.push(eq(tickets.category, category));
  const query = q ? searchQuery(q) : null;
  if (query) filters.push(sql`${tickets.search} @@ to_tsquery('simple', ${query})`);
  return and(...filters)!;
}

/** "print jam tkt4f" → "print:* & jam:* & tkt4f:*": every word, as a prefix, through the GIN index. */
export function searchQuery(text: string): string | null {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
  return words.length > 0 ? words.map((word) => `${word}:*`).join(" & ") : null;
}
