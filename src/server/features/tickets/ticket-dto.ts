import type { ServiceContext } from "#server/context.ts";
import { ticketSlaFor } from "#server/features/service-levels/ticket-sla.service.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { toTicketDto } from "./ticket.presenter.ts";
import type { TicketWithNames } from "./ticket.queries.ts";
import { ticketViewSettings } from "./ticket-dto-context.ts";

/** Tickets as the caller sees them: service levels (staff) and the auto-close date at the server's clock. */
export async function ticketDtosFor(ctx: ServiceContext, rows: TicketWithNames[]): Promise<Ticket[]> {
  const { slaView: view, dto } = await ticketViewSettings(ctx);
  return rows.map((row) => toTicketDto(row, dto, ticketSlaFor(view, row)));
}

export async function ticketDtoFor(ctx: ServiceContext, row: TicketWithNames): Promise<Ticket> {
  const [ticket] = await ticketDtosFor(ctx, [row]);
  return ticket!;
}
