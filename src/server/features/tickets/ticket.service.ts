import { and, type SQL } from "drizzle-orm";
import { nowOf, type ServiceContext } from "#server/context.ts";
import { forbidden, validationFailed } from "#server/errors.ts";
import { linkAttachments } from "#server/features/attachments/attachment.service.ts";
import {
  checkNewTicketFieldValues,
  customFieldFiltersWhere,
  insertNewTicketFieldValues,
} from "#server/features/custom-fields/custom-field-values.service.ts";
import { dueTimesForTicket } from "#server/features/ticket-events/ticket-sla.ts";
import { inTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { toTicketDto } from "#server/features/ticket-records/ticket.presenter.ts";
import { insertTicket } from "#server/features/ticket-records/ticket.queries.ts";
import { findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import {
  currentTicketFor,
  type SlaView,
  slaViewFor,
  ticketDtoFor,
  ticketSlaFor,
  ticketViewSettings,
} from "#server/features/ticket-records/ticket-view.ts";
import {
  ticketFiltersWhere,
  ticketsInScopeWhere,
  visibilityBranches,
} from "#server/features/ticket-records/ticket-visibility.ts";
import { newTicketId } from "#server/ids.ts";
import { can } from "#shared/permissions.ts";
import type {
  CreateTicketInput,
  ListTicketsQuery,
  SortDirection,
  Ticket,
  TicketPage,
  TicketSort,
  TicketSummary,
  TicketSummaryQuery,
} from "#shared/tickets/ticket.schemas.ts";
import {
  defaultSortDirection,
  ticketCountCap,
  ticketIdPattern,
  ticketPriorities,
  ticketStatuses,
} from "#shared/tickets/ticket.schemas.ts";
import {
  countDueTickets,
  countListFromCounters,
  countTicketsFromCounters,
  countTicketsUpTo,
} from "./list/ticket-counts.queries.ts";
import {
  type DueKeyset,
  findTicketsByDuePage,
  findTicketsSortedPage,
  type KeysetSort,
  keysetOf,
  type SortedKeyset,
} from "./list/ticket-pages.queries.ts";

export async function createTicket(
  ctx: ServiceContext,
  { attachmentIds, customFields, ...input }: CreateTicketInput,
): Promise<Ticket> {
  if (!can.createTicket(ctx.actor)) throw forbidden("You do not have permission to create tickets");
  const fieldValues = await checkNewTicketFieldValues(ctx.db, input.category, customFields);
  const now = nowOf(ctx);
  const row = await inTransaction(ctx, async (tx, recordEvent) => {
    const inserted = await insertTicket(tx, {
      id: newTicketId(now.getTime()),
      ...input,
      // Stored, not derived on read: lists sort and filter on them through an index (decision 019).
      ...(await dueTimesForTicket(tx, input.priority, now)),
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
    await insertNewTicketFieldValues(tx, inserted.id, fieldValues);
    return inserted;
  });
  return currentTicketFor(ctx, row.id);
}

export async function getTicket(ctx: ServiceContext, ticketId: string): Promise<Ticket> {
  return ticketDtoFor(ctx, await findVisibleTicket(ctx, ticketId));
}

/** The list query as the route parses it; callers inside the server may leave the sort out (newest). */
type ListTicketsRequest = Omit<ListTicketsQuery, "sort"> & { sort?: TicketSort };

/** The order a list reads in: by due time, or a keyset order (`newest` is created, descending). */
type TicketListOrder = { sort: "due" } | { sort: KeysetSort; dir: SortDirection };

/** What a list reads, whatever the page: its order, the caller's service-level view, filters and visibility. */
interface TicketListPlan {
  order: TicketListOrder;
  slaView: SlaView | null;
  filters: SQL | undefined;
  branches: SQL[];
}

/**
 * Checks a list query (due filters and sort are for staff; custom field filters name real fields) and
 * turns it into SQL. The list and the CSV export (features/exports) both read through it.
 */
export async function planTicketList(
  ctx: ServiceContext,
  query: Omit<ListTicketsRequest, "cursor" | "limit">,
  /** The caller's view when it has read it already (ticketViewSettings); read here otherwise. */
  knownSlaView?: SlaView | null,
): Promise<TicketListPlan> {
  const sort = query.sort ?? "newest";
  const slaView = knownSlaView === undefined ? await slaViewFor(ctx) : knownSlaView;
  if ((query.due || sort === "due") && !slaView) {
    throw forbidden("Only technicians and administrators can filter or sort by due time");
  }
  if (sort === "due" && query.dir === "desc") {
    throw validationFailed("dir: The due-time order is earliest first only");
  }
  const order: TicketListOrder =
    sort === "due"
      ? { sort }
      : {
          sort: sort === "newest" ? "created" : sort,
          dir: query.dir ?? defaultSortDirection(sort),
        };
  const filters = and(
    ticketFiltersWhere(ctx.actor, query, slaView),
    await customFieldFiltersWhere(ctx.db, query.cf),
  );
  return { order, slaView, filters, branches: visibilityBranches(ctx.actor) };
}

export async function listTicketsFor(ctx: ServiceContext, query: ListTicketsRequest): Promise<TicketPage> {
  const { dto, slaView: view } = await ticketViewSettings(ctx);
  const { order, slaView, filters, branches } = await planTicketList(ctx, query, view);
  const limit = query.limit + 1;
  const [rows, total] = await Promise.all([
    order.sort === "due"
      ? findTicketsByDuePage(ctx.db, {
          branches,
          filters,
          after: query.cursor ? decodeDueCursor(query.cursor) : undefined,
          limit,
        })
      : findTicketsSortedPage(ctx.db, {
          branches,
          filters,
          ...order,
          after: query.cursor ? decodeSortedCursor(query.cursor, order) : undefined,
          limit,
        }),
    // Counted once, with the first page; "Load more" does not count again. A tab and a status alone are
    // what the dashboard counters are kept by (decision 039): read there, not from the tickets.
    query.cursor
      ? null
      : isCountedByCounters(query)
        ? countListFromCounters(ctx.db, ctx.actor, {
            scope: query.scope,
            status: query.status,
            cap: ticketCountCap,
          })
        : countTicketsUpTo(ctx.db, { branches, filters, cap: ticketCountCap }),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last
      ? order.sort === "due"
        ? encodeDueCursor({ slaDueAt: last.slaDueAt, id: last.id })
        : encodeSortedCursor(keysetOf(order.sort, last), order)
      : null;
  return {
    items: page.map((row) => toTicketDto(row, dto, ticketSlaFor(slaView, row))),
    nextCursor,
    total,
  };
}

/** No filter but the tab and the status: the counters hold the count. */
const isCountedByCounters = (query: ListTicketsRequest) =>
  !query.priority && !query.category && !query.q && !query.due && !query.cf?.length;

export async function summarizeTicketsFor(
  ctx: ServiceContext,
  { scope }: TicketSummaryQuery,
): Promise<TicketSummary> {
  const [slaView, counts] = await Promise.all([
    slaViewFor(ctx),
    countTicketsFromCounters(ctx.db, ctx.actor, scope),
  ]);
  const due = slaView
    ? await countDueTickets(ctx.db, ticketsInScopeWhere(ctx.actor, scope), slaView)
    : { overdue: null, dueSoon: null };
  return { ...counts, ...due };
}

// Newest first keeps the cursor it always had (`<created>|<id>`); every other order names itself first
// (`priority.desc|High|<created>|<id>`), so that a cursor of one order is refused by another.
function encodeSortedCursor({ rank, at, id }: SortedKeyset, order: { sort: KeysetSort; dir: SortDirection }) {
  const isNewest = order.sort === "created" && order.dir === "desc";
  const parts = [
    ...(isNewest ? [] : [`${order.sort}.${order.dir}`]),
    ...(rank ? [rank] : []),
    at.toISOString(),
    id,
  ];
  return Buffer.from(parts.join("|")).toString("base64url");
}

// A due-time cursor names its sort ("due|…"), so a cursor of the newest-first list is refused here and
// the other way round; "-" stands for the tickets without a due time, read last.
function encodeDueCursor({ slaDueAt, id }: DueKeyset): string {
  return Buffer.from(`due|${slaDueAt ? slaDueAt.toISOString() : "-"}|${id}`).toString("base64url");
}

// Exactly what encodeCursor writes: a four-digit year keeps the date inside both JavaScript's and
// PostgreSQL's range, and the round trip refuses dates like 2024-02-31 that Date would roll over.
const cursorDatePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const invalidCursor = () => validationFailed("cursor: Not a valid page cursor");

function dateOfCursor(iso: string | undefined): Date {
  if (!iso || !cursorDatePattern.test(iso)) throw invalidCursor();
  const at = new Date(iso);
  if (Number.isNaN(at.getTime()) || at.toISOString() !== iso) throw invalidCursor();
  return at;
}

const ranksOf: Record<KeysetSort, readonly string[] | null> = {
  created: null,
  updated: null,
  priority: ticketPriorities,
  status: ticketStatuses,
};

function decodeSortedCursor(cursor: string, order: { sort: KeysetSort; dir: SortDirection }): SortedKeyset {
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const isNewest = order.sort === "created" && order.dir === "desc";
  if (!isNewest && parts.shift() !== `${order.sort}.${order.dir}`) throw invalidCursor();
  const ranks = ranksOf[order.sort];
  const rank = ranks ? parts.shift() : undefined;
  if (ranks && (rank === undefined || !ranks.includes(rank))) throw invalidCursor();
  const [iso, id] = parts;
  if (parts.length !== 2 || !id || !ticketIdPattern.test(id)) throw invalidCursor();
  return { ...(rank ? { rank } : {}), at: dateOfCursor(iso), id };
}

function decodeDueCursor(cursor: string): DueKeyset {
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const [kind, iso, id] = parts;
  if (parts.length !== 3 || kind !== "due" || !id || !ticketIdPattern.test(id)) throw invalidCursor();
  return { slaDueAt: iso === "-" ? null : dateOfCursor(iso), id };
}
