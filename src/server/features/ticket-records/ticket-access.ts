import type { ServiceContext } from "#server/context.ts";
import { notFound } from "#server/errors.ts";
import { findTicketById } from "#server/features/ticket-records/ticket.queries.ts";
import { type Actor, can, type TicketFacts } from "#shared/permissions.ts";

/** A ticket the actor may not see does not exist for them: 404, never 403 (docs/security.md). */
export function ensureVisible<T extends TicketFacts>(
  actor: Actor,
  ticket: T | undefined,
  ticketId: string,
): T {
  if (!ticket || !can.viewTicket(actor, ticket)) throw notFound("Ticket", ticketId);
  return ticket;
}

/** The ticket with its people's names, as the actor may see it. */
export async function findVisibleTicket(ctx: ServiceContext, ticketId: string) {
  return ensureVisible(ctx.actor, await findTicketById(ctx.db, ticketId), ticketId);
}
