import { and, type SQL } from "drizzle-orm";
import { nowOf, type ServiceContext } from "#server/context.ts";
import { forbidden, validationFailed } from "#server/errors.ts";
import { linkAttachments } from "#server/features/attachments/attachment.service.ts";
import {
  checkNewTicketFieldValues,
  customFieldFiltersWhere,
  insertNewTicketFieldValues,
} from "#server/features/custom-fields/custom-field-values.service.ts";
import { autoAssignInTeam, lockTeam } from "#server/features/team-queues/auto-assign.ts";
import { routeNewTicket } from "#server/features/teams/routing.service.ts";
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
  ticketSearchWhere,
  ticketsInScopeWhere,
  visibilityBranches,
} from "#server/features/ticket-records/ticket-visibility.ts";
import { newTicketId } from "#server/ids.ts";
import { type Actor, can } from "#shared/permissions.ts";
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
  isTeamScope,
  searchCountCap,
  ticketCountCap,
  ticketIdPattern,
  ticketPriorities,
  ticketStatuses,
} from "#shared/tickets/ticket.schemas.ts";
import { countSearchMatchesUpTo } from "./list/branch-page.queries.ts";
import { countTeamQueueFromCounters, teamCountersOf } from "./list/team-queue.queries.ts";
import {
  countDueTickets,
  countListFromCounters,
  countTicketsFromCounters,
  countTicketsUpTo,
} from "./list/ticket-counts.queries.ts";
import { findTicketsPageOfShape } from "./list/ticket-page-shapes.queries.ts";
import {
  type DueKeyset,
  findTicketsByDuePage,
  findTicketsSortedPage,
  type KeysetSort,
  keysetOf,
  type SortedKeyset,
} from "./list/ticket-pages.queries.ts";

/** What the server decides about a new ticket beyond the form: the team whose queue it goes to (decision 073). */
export interface NewTicketOptions {
  teamId?: string | null;
}

export async function createTicket(
  ctx: ServiceContext,
  { attachmentIds, customFields, ...input }: CreateTicketInput,
  { teamId: chosenTeamId = null }: NewTicketOptions = {},
): Promise<Ticket> {
  if (!can.createTicket(ctx.actor)) throw forbidden("You do not have permission to create tickets");
  const fieldValues = await checkNewTicketFieldValues(ctx.db, input.category, customFields);
  const now = nowOf(ctx);
  const row = await inTransaction(ctx, async (tx, recordEvent) => {
    // Its team first (decision 069): the created event is addressed to the team's technicians. A caller that
    // names the team is not routed.
    const teamId = chosenTeamId ?? (await routeNewTicket(tx, { ...input, customFields: fieldValues.values }));
    // The team's row before anything that moves the ticket counters (decision 073): its auto-assignment
    // below takes turns on it, and must not wait for it while holding counter rows another creation needs.
    if (teamId) await lockTeam(tx, teamId);
    const inserted = await insertTicket(tx, {
      id: newTicketId(now.getTime()),
      ...input,
      // Stored, not derived on read: lists sort and filter on them through an index (decision 019).
      ...(await dueTimesForTicket(tx, input.priority, now)),
      status: "Open",
      assignedTo: null,
      teamId,
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
    if (teamId) await autoAssignInTeam(tx, recordEvent, { ticketId: inserted.id, teamId, now });
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
  /** The search, apart from the other filters: a list reads it its own way (branchPage, decision 067). */
  search: SQL | undefined;
  branches: SQL[];
}

/**
 * The order a list reads in, checked: the due-time filter and order are for staff (those with an SLA
 * view), and the due-time order is earliest first only. The team tabs and filter are staff's too (decision
 * 073); users are in no team.
 */
function listOrderOf(
  actor: Actor,
  query: Omit<ListTicketsRequest, "cursor" | "limit">,
  slaView: SlaView | null,
) {
  if ((query.team || isTeamScope(query.scope)) && !can.listByTeam(actor)) {
    throw forbidden("Only technicians and administrators can list tickets by team");
  }
  if (query.tag && !can.seeTags(actor)) {
    throw forbidden("Only technicians and administrators can filter tickets by tag");
  }
  const sort = query.sort ?? "newest";
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
  return order;
}

/**
 * Checks a list query (due filters and sort are for staff; custom field filters name real fields) and
 * turns it into SQL. The CSV export (features/exports) and the list's pages with a search, a due filter
 * or custom field filters read through it.
 */
export async function planTicketList(
  ctx: ServiceContext,
  query: Omit<ListTicketsRequest, "cursor" | "limit">,
  /** The caller's view when it has read it already (ticketViewSettings); read here otherwise. */
  knownSlaView?: SlaView | null,
): Promise<TicketListPlan> {
  const slaView = knownSlaView === undefined ? await slaViewFor(ctx) : knownSlaView;
  const order = listOrderOf(ctx.actor, query, slaView);
  const filters = and(
    ticketFiltersWhere(ctx.actor, query, slaView),
    await customFieldFiltersWhere(ctx.db, query.cf),
  );
  const search = ticketSearchWhere(query.q);
  return { order, slaView, filters, search, branches: visibilityBranches(ctx.actor) };
}

/**
 * A page whose filters are a tab and plain values (a status, a priority, a category) reads through a
 * statement built once per shape (decision 066); a search, a due filter, custom field filters or a tag
 * (decision 071) build their SQL for the request.
 */
const hasOnlyValueFilters = (query: ListTicketsRequest) =>
  !query.q && !query.due && !query.cf?.length && !query.tag;

export async function listTicketsFor(ctx: ServiceContext, query: ListTicketsRequest): Promise<TicketPage> {
  const { dto, slaView } = await ticketViewSettings(ctx);
  const order = listOrderOf(ctx.actor, query, slaView);
  const isShaped = hasOnlyValueFilters(query);
  // Counted once, with the first page; "Load more" does not count again. A tab and a status alone are
  // what the dashboard counters are kept by (decision 039): read there, not from the tickets. A search
  // is counted only when its first page is full (decision 067): a shorter one is every match already.
  const counting = query.cursor ? "no" : isCountedByCounters(ctx.actor, query) ? "counters" : "tickets";
  // The list's SQL built for this request: only for what no shape covers.
  const plan = !isShaped || counting === "tickets" ? await planTicketList(ctx, query, slaView) : null;
  const limit = query.limit + 1;
  const reading = isShaped
    ? findTicketsPageOfShape(ctx.db, {
        actor: ctx.actor,
        filters: query,
        order:
          order.sort === "due"
            ? { sort: "due", after: query.cursor ? decodeDueCursor(query.cursor) : undefined }
            : { ...order, after: query.cursor ? decodeSortedCursor(query.cursor, order) : undefined },
        limit,
      })
    : order.sort === "due"
      ? findTicketsByDuePage(ctx.db, {
          branches: plan!.branches,
          filters: plan!.filters,
          search: plan!.search,
          after: query.cursor ? decodeDueCursor(query.cursor) : undefined,
          limit,
        })
      : findTicketsSortedPage(ctx.db, {
          branches: plan!.branches,
          filters: plan!.filters,
          search: plan!.search,
          ...order,
          after: query.cursor ? decodeSortedCursor(query.cursor, order) : undefined,
          limit,
        });
  const [rows, total] = await Promise.all([
    reading,
    counting === "no"
      ? null
      : counting === "counters"
        ? countFromCounters(ctx, query)
        : plan!.search
          ? reading.then((found) =>
              found.length <= query.limit
                ? { count: found.length, capped: false }
                : countSearchMatchesUpTo(ctx.db, {
                    branches: plan!.branches,
                    filters: plan!.filters,
                    search: plan!.search!,
                    cap: searchCountCap,
                  }),
            )
          : countTicketsUpTo(ctx.db, {
              branches: plan!.branches,
              filters: plan!.filters,
              cap: ticketCountCap,
            }),
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

/** A list's total read from the counters (isCountedByCounters says when they hold it). */
const countFromCounters = (ctx: ServiceContext, query: Omit<ListTicketsRequest, "cursor" | "limit">) =>
  query.team || isTeamScope(query.scope)
    ? countTeamQueueFromCounters(ctx, { ...query, cap: ticketCountCap })
    : countListFromCounters(ctx, { scope: query.scope, status: query.status, cap: ticketCountCap });

/**
 * The `total` a list's first page answers with, without reading the page: a saved view's count (decision
 * 071) is the number its list shows. The same checks (a filter the caller may not use is refused) and the
 * same counts: from the counters when they hold it, else counted up to the cap (a search up to its own).
 */
export async function countTicketListFor(
  ctx: ServiceContext,
  query: Omit<ListTicketsRequest, "cursor" | "limit">,
): Promise<{ count: number; capped: boolean }> {
  const slaView = await slaViewFor(ctx);
  listOrderOf(ctx.actor, query, slaView);
  if (isCountedByCounters(ctx.actor, query)) return countFromCounters(ctx, query);
  const { branches, filters, search } = await planTicketList(ctx, query, slaView);
  return search
    ? countSearchMatchesUpTo(ctx.db, { branches, filters, search, cap: searchCountCap })
    : countTicketsUpTo(ctx.db, { branches, filters, cap: ticketCountCap });
}

/**
 * No filter but the tab and the status: the counters hold the count; with a team tab or filter, when
 * counters are kept for it (teamCountersOf, decision 073).
 */
const isCountedByCounters = (actor: Actor, query: Omit<ListTicketsRequest, "cursor" | "limit">) =>
  !query.priority &&
  !query.category &&
  query.onHold === undefined &&
  // No counter is kept per tag (decision 071): a tagged list counts its tickets, up to the cap.
  !query.tag &&
  !query.q &&
  !query.due &&
  !query.cf?.length &&
  (query.team || isTeamScope(query.scope) ? teamCountersOf(actor, query) !== null : true);

export async function summarizeTicketsFor(
  ctx: ServiceContext,
  { scope }: TicketSummaryQuery,
): Promise<TicketSummary> {
  const [slaView, counts] = await Promise.all([slaViewFor(ctx), countTicketsFromCounters(ctx, scope)]);
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
