import { can } from "#shared/permissions.ts";
import type {
  CreateTicketInput,
  ListTicketsQuery,
  Ticket,
  TicketPage,
  TicketSummary,
  TicketSummaryQuery,
} from "#shared/tickets/ticket.schemas.ts";
import { ticketIdPattern } from "#shared/tickets/ticket.schemas.ts";
import type { ServiceContext } from "../../context.ts";
import { forbidden, validationFailed } from "../../errors.ts";
import { inTransaction } from "../../events/transaction.ts";
import { linkAttachments } from "../attachments/attachment.service.ts";
import { toTicketDto } from "./ticket.presenter.ts";
import {
  countTickets,
  findTicketById,
  findTicketsPage,
  insertTicket,
  type Keyset,
} from "./ticket.queries.ts";
import { findVisibleTicket } from "./ticket-access.ts";
import { newTicketId } from "./ticket-id.ts";
import { ticketFiltersWhere, ticketsInScopeWhere, visibilityBranches } from "./ticket-visibility.ts";

export async function createTicket(
  ctx: ServiceContext,
  { attachmentIds, ...input }: CreateTicketInput,
): Promise<Ticket> {
  if (!can.createTicket(ctx.actor)) throw forbidden("You do not have permission to create tickets");
  const now = new Date();
  const row = await inTransaction(ctx, async (tx, recordEvent) => {
    const inserted = await insertTicket(tx, {
      id: newTicketId(now.getTime()),
      ...input,
      status: "Open",
      assignedTo: null,
      createdBy: ctx.actor.id,
      createdAt: now,
      updatedAt: now,
    });
    await recordEvent({
      ticketId: inserted.id,
      type: "created",
      actorId: ctx.actor.id,
      toStatus: "Open",
      createdAt: now,
    });
    await linkAttachments(tx, attachmentIds, {
      uploadedBy: ctx.actor.id,
      ticketId: inserted.id,
      commentId: null,
      isInternal: false,
    });
    return inserted;
  });
  const created = await findTicketById(ctx.db, row.id);
  return toTicketDto(created!);
}

export async function getTicket(ctx: ServiceContext, ticketId: string): Promise<Ticket> {
  return toTicketDto(await findVisibleTicket(ctx, ticketId));
}

export async function listTicketsFor(ctx: ServiceContext, query: ListTicketsQuery): Promise<TicketPage> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await findTicketsPage(ctx.db, {
    branches: visibilityBranches(ctx.actor),
    filters: ticketFiltersWhere(ctx.actor, query),
    after,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toTicketDto),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}

export function summarizeTicketsFor(
  ctx: ServiceContext,
  { scope }: TicketSummaryQuery,
): Promise<TicketSummary> {
  return countTickets(ctx.db, ticketsInScopeWhere(ctx.actor, scope), ctx.actor.id);
}

function encodeCursor({ createdAt, id }: Keyset): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString("base64url");
}

// Exactly what encodeCursor writes: a four-digit year keeps the date inside both JavaScript's and
// PostgreSQL's range, and the round trip refuses dates like 2024-02-31 that Date would roll over.
const cursorDatePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function decodeCursor(cursor: string): Keyset {
  const invalid = validationFailed("cursor: Not a valid page cursor");
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const [iso, id] = parts;
  if (parts.length !== 2 || !iso || !id || !cursorDatePattern.test(iso) || !ticketIdPattern.test(id)) {
    throw invalid;
  }
  const createdAt = new Date(iso);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== iso) throw invalid;
  return { createdAt, id };
}
