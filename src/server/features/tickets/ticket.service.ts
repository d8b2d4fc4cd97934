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
} from "#shared/tickets/ticket.schemas.ts";
import { countSearchMatchesUpTo } from "./list/branch-page.queries.ts";
import { countTeamQueueFromCounters, teamCountersOf } from "./list/team-queue.queries.ts";
import {
  countDueTickets,
  countListFromCounters,
  countTicketsFromCounters,
  countTicketsUpTo,
} from "./list/ticket-counts.queries.ts";
import {
  decodeDueCursor,
  decodeSortedCursor,
  decodeSyncCursor,
  encodeDueCursor,
  encodeSortedCursor,
  encodeSyncCursor,
  nextUpdatedSinceOf,
} from "./list/ticket-cursors.ts";
import { findTicketsPageOfShape } from "./list/ticket-page-shapes.queries.ts";
import {
  findTicketsByDuePage,
  findTicketsSortedPage,
  type KeysetSort,
  keysetOf,
} from "./list/ticket-pages.queries.ts";
import { type RequesterDeps, requesterOf } from "./ticket-requester.service.ts";

/** What the server decides about a new ticket beyond the form: the team whose queue it goes to (decision 073). */
export interface NewTicketOptions {
  teamId?: string | null;
  /** What inviting an unknown requester needs (decision 079); without it, only existing accounts are named. */
  invitations?: RequesterDeps;
}

export async function createTicket(
  ctx: ServiceContext,
  { attachmentIds, customFields, requesterEmail, ...input }: CreateTicketInput,
  { teamId: chosenTeamId = null, invitations }: NewTicketOptions = {},
): Promise<Ticket> {
  // The caller, or the person a staff member raises it for (decision 079): checked before anything is read.
  const requester = await requesterOf(ctx, requesterEmail);
  const fieldValues = await checkNewTicketFieldValues(ctx.db, input.category, customFields);
  const now = nowOf(ctx);
  let isRequesterInvited = false;
  const row = await inTransaction(ctx, async (tx, recordEvent) => {
    // An unknown requester is invited in this transaction, so a refused ticket invites nobody (decision 079).
    const { userId: createdBy, isInvited } = await requester.resolve(tx, {
      department: input.department,
      invitations,
    });
    isRequesterInvited = isInvited;
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
      createdBy,
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
  // The invitation's mail was queued with the ticket: the sender need not wait for its next round.
  if (isRequesterInvited) ctx.dispatcher?.dispatch([], { mailQueued: true });
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
): TicketListOrder {
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
  // A sync (decision 079) reads by last change, oldest first, whatever else narrows it.
  if (query.updatedSince) {
    if ((query.sort && query.sort !== "newest" && query.sort !== "updated") || query.dir === "desc") {
      throw validationFailed(
        "sort: A sync (updatedSince) reads by last change, oldest first: leave sort and dir out",
      );
    }
    return { sort: "updated", dir: "asc" };
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
  !query.q && !query.due && !query.cf?.length && !query.tag && !query.externalRef && !query.updatedSince;

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
  // A sync's cursor keeps when its first page was read: its last page's nextUpdatedSince reaches back from it.
  const sync = query.updatedSince
    ? query.cursor
      ? decodeSyncCursor(query.cursor)
      : { startedAt: nowOf(ctx), after: undefined }
    : null;
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
          after: sync ? sync.after : query.cursor ? decodeSortedCursor(query.cursor, order) : undefined,
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
      ? sync
        ? encodeSyncCursor({ startedAt: sync.startedAt, after: keysetOf("updated", last) })
        : order.sort === "due"
          ? encodeDueCursor({ slaDueAt: last.slaDueAt, id: last.id })
          : encodeSortedCursor(keysetOf(order.sort, last), order)
      : null;
  return {
    items: page.map((row) => toTicketDto(row, dto, ticketSlaFor(slaView, row))),
    nextCursor,
    total,
    ...(sync && query.updatedSince
      ? { nextUpdatedSince: nextCursor ? null : nextUpdatedSinceOf(query.updatedSince, sync.startedAt) }
      : {}),
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
  !query.externalRef &&
  !query.updatedSince &&
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
