import { t } from "@lingui/core/macro";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { ChevronRight, Inbox, UsersRound } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { cn } from "#client/components/ui/cn.ts";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { LoadMore } from "#client/components/ui/load-more.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { type TicketListFilters, ticketListQuery } from "#client/features/tickets/ticket.api.ts";
import { priorityLabels } from "#client/features/tickets/ticket-labels.ts";
import { useTicketListKeys } from "#client/features/tickets/use-ticket-list-keys.ts";
import { formatDateTime } from "#client/lib/format.ts";
import { i18n } from "#client/lib/i18n.ts";
import type { OpenTicketState } from "#client/lib/list-memory.ts";
import { Link } from "#client/lib/router/links.tsx";
import { categoryLabels } from "#client/lib/ticket-value-labels.ts";
import { toast } from "#client/lib/toast.ts";
import { useActor } from "#client/lib/use-actor.ts";
import { useHydrated } from "#client/lib/use-hydrated.ts";
import { can } from "#shared/permissions.ts";
import type { Ticket, TicketPage } from "#shared/tickets/ticket.schemas.ts";
import { BulkActionsBar } from "./bulk-actions-bar.tsx";
import { TicketHoldBadge } from "./ticket-hold-badge.tsx";
import { TicketDueBadge } from "./ticket-sla.tsx";
import { TicketSortSelect } from "./ticket-sort.tsx";
import { priorityDots, TicketStatusBadge } from "./ticket-status-badge.tsx";

interface TicketListProps {
  filters: TicketListFilters;
  /** What to show when there is no ticket at all; a plain "No tickets found" otherwise. */
  emptyState?: ReactNode;
  /** The toast for a list that failed to load differs by screen. */
  loadErrorMessage?: string;
  /** Given, the list offers its Sort control (the order itself is filters.sort and filters.dir). */
  onSortChange?: (value: string) => void;
  /** Staff may also sort by due time. */
  showDueSort?: boolean;
}

/** "1 ticket", "1,234 tickets", "10,000+ tickets" past the server's cap. */
export function ticketCountText(total: NonNullable<TicketPage["total"]>): string {
  const number = `${i18n.number(total.count)}${total.capped ? "+" : ""}`;
  return total.count === 1 && !total.capped ? t`${number} ticket` : t`${number} tickets`;
}

export function TicketList({
  filters,
  emptyState,
  loadErrorMessage,
  onSortChange,
  showDueSort = false,
}: TicketListProps) {
  // While a new search or filter loads, the previous rows stay (dimmed) instead of a spinner each keystroke.
  const query = useInfiniteQuery({ ...ticketListQuery(filters), placeholderData: keepPreviousData });
  const tickets = query.data?.pages.flatMap((page) => page.items) ?? [];
  // Counted with the first page (the server does not count again for "Load more").
  const total = query.data?.pages[0]?.total ?? null;
  const listRef = useRef<HTMLUListElement>(null);
  const keys = useTicketListKeys(
    tickets.map((ticket) => ticket.ticketId),
    listRef,
  );
  const actor = useActor();
  // Staff tick tickets for a bulk action (decision 015); a new filter starts a new selection.
  const isSelectable = actor ? can.changeInBulk(actor) : false;
  const filtersKey = JSON.stringify(filters);
  const [selection, setSelection] = useState<{ filtersKey: string; ids: string[] }>({ filtersKey, ids: [] });
  const selectedIds = selection.filtersKey === filtersKey ? selection.ids : [];
  const setSelectedIds = (ids: string[]) => setSelection({ filtersKey, ids });
  const isHydrated = useHydrated();

  useEffect(() => {
    if (query.isError)
      toast.error(loadErrorMessage ?? t`Failed to load tickets. Please try again.`, {
        toastId: "tickets-load-failed",
      });
  }, [query.isError, loadErrorMessage]);

  // The count and the order stay put while a new order loads, so the control keeps its focus.
  const toolbar = (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b border-slate-100 px-4 py-2 sm:px-5">
      <p className="text-sm font-medium text-slate-700" aria-live="polite">
        {total ? ticketCountText(total) : "\u00a0"}
      </p>
      {onSortChange ? (
        <TicketSortSelect
          value={{ sort: filters.sort, dir: filters.dir }}
          onChange={onSortChange}
          showDue={showDueSort}
        />
      ) : null}
    </div>
  );

  if (query.isPending) {
    return (
      <div>
        {toolbar}
        <div className="flex justify-center py-12">
          <Spinner label={t`Loading tickets`} />
        </div>
      </div>
    );
  }
  if (query.isError) {
    return (
      <div>
        {toolbar}
        <LoadFailed
          layout="block"
          message={t`The tickets could not be loaded.`}
          onRetry={() => void query.refetch()}
        />
      </div>
    );
  }

  const ticketIds = tickets.map((ticket) => ticket.ticketId);
  const bar =
    actor && isSelectable ? (
      <BulkActionsBar
        actor={actor}
        ticketIds={ticketIds}
        selectedIds={selectedIds.filter((id) => ticketIds.includes(id))}
        onSelectAll={(isSelected) => setSelectedIds(isSelected ? ticketIds : [])}
        onApplied={() => setSelectedIds([])}
      />
    ) : null;
  const toggle = (ticketId: string, isSelected: boolean) =>
    setSelectedIds(isSelected ? [...selectedIds, ticketId] : selectedIds.filter((id) => id !== ticketId));

  return (
    <div aria-busy={query.isPlaceholderData}>
      {toolbar}
      {/* The bar stays (same place in the tree) when a bulk action empties the list: its answer is still to be read. */}
      {bar}
      {tickets.length === 0 ? (emptyState ?? <EmptyState icon={Inbox} title={t`No tickets found`} />) : null}
      <ul
        ref={listRef}
        aria-label={t`Tickets`}
        hidden={tickets.length === 0}
        className={cn(
          "divide-y divide-slate-100 transition-opacity",
          query.isPlaceholderData && "opacity-60",
        )}
      >
        {tickets.map((ticket) => (
          <li key={ticket.ticketId} className="flex items-stretch">
            {isSelectable ? (
              <label className="flex shrink-0 cursor-pointer items-start py-2.5 pr-1 pl-4 sm:items-center sm:pl-5">
                <input
                  type="checkbox"
                  className="size-4 rounded border-slate-300 accent-indigo-600"
                  aria-label={t`Select ${ticket.ticketId}: ${ticket.title}`}
                  checked={selectedIds.includes(ticket.ticketId)}
                  onChange={(event) => toggle(ticket.ticketId, event.target.checked)}
                  // On a list drawn by the server, selecting needs the app's code (bulk-actions-bar.tsx).
                  disabled={!isHydrated}
                />
              </label>
            ) : null}
            <TicketRow
              ticket={ticket}
              isSelected={keys.selectedId === ticket.ticketId}
              onFocus={() => keys.handleRowFocus(ticket.ticketId)}
            />
          </li>
        ))}
      </ul>
      <LoadMore query={query} />
    </div>
  );
}

interface TicketRowProps {
  ticket: Ticket;
  /** The keyboard selection (j/k): marked even when focus is elsewhere, e.g. back from the ticket. */
  isSelected: boolean;
  onFocus: () => void;
}

function TicketRow({ ticket, isSelected, onFocus }: TicketRowProps) {
  const label = i18n._(priorityLabels[ticket.priority]);
  return (
    <Link
      to={`/tickets/${ticket.ticketId}`}
      data-ticket-id={ticket.ticketId}
      state={{ focusTitle: true } satisfies OpenTicketState}
      onFocus={onFocus}
      className={cn(
        "group flex min-w-0 flex-1 items-center gap-3 border-l-4 px-4 py-2 transition-colors focus-visible:outline-none sm:gap-4 sm:px-5 sm:py-3",
        // The selection (j/k) is a bar and a tint; it is also the focused row when moved by keyboard.
        isSelected
          ? "border-indigo-600 bg-indigo-50/60"
          : "border-transparent hover:bg-slate-50 focus-visible:border-indigo-600 focus-visible:bg-indigo-50/60",
      )}
    >
      {/*
        Two short lines (decision 034): the title with its status, then the priority, who raised it and where.
        Nothing is cut with an ellipsis (a title can wrap); on a phone the id, date, category and assignee are
        left to screen readers and the ticket page, and shown from the sm width up.
      */}
      <div className="min-w-0 flex-1">
        {/* The badges wrap under the title when they would squeeze it (a phone, a long team name). */}
        <div className="flex min-w-0 flex-wrap items-start gap-x-2 gap-y-1">
          <p className="min-w-[min(12rem,100%)] flex-1 break-words text-sm font-medium text-slate-900 group-hover:text-indigo-700 sm:text-base">
            {ticket.title}
          </p>
          <TicketDueBadge sla={ticket.sla} />
          <TicketHoldBadge ticket={ticket} />
          {ticket.teamName ? <TeamChip name={ticket.teamName} /> : null}
          <TicketStatusBadge status={ticket.status} />
        </div>
        <p className="mt-0.5 text-xs text-slate-500">
          <span
            aria-hidden="true"
            className={cn("mr-1.5 inline-block size-2 rounded-full", priorityDots[ticket.priority])}
          />
          {/* "High" on a phone, "High priority" from the sm width up and always for screen readers. */}
          <span aria-hidden="true" className="sm:hidden">
            {label}
          </span>
          <span className="sr-only sm:not-sr-only">{t`${label} priority`}</span>
          <Dot />
          <span className="text-slate-700">{ticket.createdByName ?? t`Unknown requester`}</span>
          <Dot />
          <span>{placeOf(ticket)}</span>
          <span className="sr-only sm:not-sr-only">
            <Dot />
            <span className="font-mono">{ticket.ticketId}</span>
            <Dot />
            <time dateTime={ticket.createdAt}>{formatDateTime(ticket.createdAt)}</time>
            <Dot />
            <span>{i18n._(categoryLabels[ticket.category])}</span>
            <Dot />
            <span>{ticket.assignedToName ?? (ticket.assignedTo ? t`Assigned` : t`Unassigned`)}</span>
          </span>
        </p>
        {ticket.tags && ticket.tags.length > 0 ? <TagChips tags={ticket.tags} /> : null}
      </div>
      <ChevronRight
        aria-hidden="true"
        className="size-4 shrink-0 text-slate-300 group-hover:text-slate-500"
      />
    </Link>
  );
}

/** The ticket's team (staff see it; decision 069), beside its status. */
function TeamChip({ name }: { name: string }) {
  return (
    <span className="inline-flex max-w-40 shrink-0 items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
      <UsersRound aria-hidden="true" className="size-3 shrink-0" />
      <span className="sr-only">{t`Team:`} </span>
      <span className="truncate">{name}</span>
    </span>
  );
}

/** The ticket's tags (staff see them; decision 071), as small badges on a line of their own that wraps. */
function TagChips({ tags }: { tags: readonly string[] }) {
  return (
    <p className="mt-1 flex flex-wrap gap-1">
      <span className="sr-only">{t`Tags:`} </span>
      {tags.map((tag) => (
        <span
          key={tag}
          className="inline-flex max-w-40 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-indigo-600/20 ring-inset"
        >
          <span className="truncate">{tag}</span>
        </span>
      ))}
    </p>
  );
}

/** Where the requester sits: "Finance, floor 3, office 214". */
function placeOf({ department, floor, officeNumber }: Ticket) {
  return officeNumber
    ? t`${department}, floor ${floor}, office ${officeNumber}`
    : t`${department}, floor ${floor}`;
}

const Dot = () => (
  <span aria-hidden="true" className="px-1.5 text-slate-300">
    ·
  </span>
);
