import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Actor } from "#shared/permissions.ts";
import type { TicketScope, TicketStatus } from "#shared/tickets/ticket.schemas.ts";
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

/** A list's filter: what the actor may see, narrowed (never widened) by a tab and a status. */
export function ticketListWhere(
  actor: Actor,
  { scope, status }: { scope: TicketScope; status?: TicketStatus },
): SQL {
  const filters = [visibleTicketsWhere(actor)];
  if (scope === "mine") filters.push(eq(tickets.assignedTo, actor.id));
  if (scope === "unassigned") filters.push(isNull(tickets.assignedTo));
  if (status) filters.push(eq(tickets.status, status));
  return and(...filters)!;
}
