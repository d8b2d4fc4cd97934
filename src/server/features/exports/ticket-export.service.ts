import { nowOf, type ServiceContext } from "#server/context.ts";
import type { TicketWithNames } from "#server/features/ticket-records/ticket.queries.ts";
import {
  findTicketsByDuePage,
  findTicketsSortedPage,
  keysetOf,
} from "#server/features/tickets/list/ticket-pages.queries.ts";
import { planTicketList } from "#server/features/tickets/ticket.service.ts";
import type { ExportTicketsQuery } from "#shared/tickets/ticket.schemas.ts";
import { ticketCsvHeader, ticketDueCsvHeader, toTicketCsvCells } from "./csv-export.presenter.ts";
import { type CsvExport, csvFilename, csvStream } from "./csv-stream.ts";

/**
 * Every ticket of the list as filtered on screen (same query, same visibility, same order), as CSV read
 * in keyset pages. Refusals (a user asking for due times, an unknown custom field) come before the first
 * byte, as they do for the list.
 */
export async function exportTicketsFor(ctx: ServiceContext, query: ExportTicketsQuery): Promise<CsvExport> {
  const { order, slaView, filters, search, branches } = await planTicketList(ctx, query);
  const withDueTimes = slaView !== null;
  const chunks = await csvStream<TicketWithNames>({
    header: withDueTimes ? [...ticketCsvHeader, ...ticketDueCsvHeader] : ticketCsvHeader,
    // In the list's order. By created (the default) the keyset never changes: a ticket edited during the
    // export is written once. In the other orders a ticket whose due time, last activity, priority or
    // status moves meanwhile may be missed or written twice.
    readPage: (last, limit) =>
      order.sort === "due"
        ? findTicketsByDuePage(ctx.db, {
            branches,
            filters,
            search,
            after: last && { slaDueAt: last.slaDueAt, id: last.id },
            limit,
          })
        : findTicketsSortedPage(ctx.db, {
            branches,
            filters,
            search,
            ...order,
            after: last && keysetOf(order.sort, last),
            limit,
          }),
    toCells: (row) => toTicketCsvCells(row, withDueTimes),
  });
  return { filename: csvFilename("tickets", nowOf(ctx)), chunks };
}
