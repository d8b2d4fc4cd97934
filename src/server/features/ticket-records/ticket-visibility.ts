import { and, eq, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import { tickets } from "#server/db/schema/index.ts";
import type { Actor } from "#shared/permissions.ts";
import type { ListTicketsQuery, TicketDueFilter, TicketScope } from "#shared/tickets/ticket.schemas.ts";

/**
 * What the actor may see, as disjoint conditions that each match one index (a list reads a page from each
 * and merges them, features/tickets/list/ticket-pages.queries.ts, so no list ever sorts more rows than a
 * page).
 * The SQL twin of can.viewTicket (src/shared/permissions.ts); ticket-visibility.test.ts checks that
 * the two agree for every actor × ticket combination.
 */
export function visibilityBranches(actor: Actor): SQL[] {
  if (actor.role === "admin") return [sql`true`];
  if (actor.role === null) return [];
  const assignedToMe = eq(tickets.assignedTo, actor.id);
  const createdByMeAssignedElsewhere = and(
    eq(tickets.createdBy, actor.id),
    or(isNull(tickets.assignedTo), ne(tickets.assignedTo, actor.id))!,
  )!;
  if (actor.role === "technician") {
    return [
      assignedToMe,
      isNull(tickets.assignedTo),
      and(eq(tickets.createdBy, actor.id), ne(tickets.assignedTo, actor.id))!,
    ];
  }
  return [createdByMeAssignedElsewhere, assignedToMe];
}

export function visibleTicketsWhere(actor: Actor): SQL {
  const branches = visibilityBranches(actor);
  return branches.length === 0 ? sql`false` : or(...branches)!;
}

/** What a dashboard counts: the visible tickets, narrowed to a scope. */
export function ticketsInScopeWhere(actor: Actor, scope: TicketScope): SQL {
  return and(visibleTicketsWhere(actor), ticketFiltersWhere(actor, { scope }))!;
}

/** Where the service-level filters stand: the server's now and the policy's "due soon" window. */
export interface DueWindow {
  now: Date;
  dueSoonMinutes: number;
}

/**
 * A list's filters beyond visibility: a tab, status, priority, category, a search and (staff, with the
 * window) a due filter.
 */
export function ticketFiltersWhere(
  actor: Actor,
  {
    scope,
    status,
    priority,
    category,
    q,
    due,
  }: Omit<ListTicketsQuery, "cursor" | "limit" | "sort" | "due"> & {
    due?: TicketDueFilter;
  },
  window?: DueWindow | null,
): SQL | undefined {
  const filters: SQL[] = [];
  if (scope === "mine") filters.push(eq(tickets.assignedTo, actor.id));
  if (scope === "unassigned") filters.push(isNull(tickets.assignedTo));
  if (scope === "created") filters.push(eq(tickets.createdBy, actor.id));
  if (status) filters.push(eq(tickets.status, status));
  if (priority) filters.push(eq(tickets.priority, priority));
  if (category) filters.push(eq(tickets.category, category));
  const query = q ? searchQuery(q) : null;
  if (query) filters.push(sql`${tickets.search} @@ to_tsquery('simple', ${query})`);
  if (due && window) filters.push(dueFilterWhere(due, window));
  return filters.length > 0 ? and(...filters) : undefined;
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

/** Running targets past due (`overdue`) or due within the window (`due_soon`), through tickets_sla_due_idx. */
export function dueFilterWhere(due: TicketDueFilter, { now, dueSoonMinutes }: DueWindow): SQL {
  const nowParam = sql`${now.toISOString()}::timestamptz`;
  if (due === "overdue") return sql`${tickets.slaDueAt} <= ${nowParam}`;
  const soon = new Date(now.getTime() + dueSoonMinutes * 60_000).toISOString();
  return sql`(${tickets.slaDueAt} > ${nowParam} and ${tickets.slaDueAt} <= ${soon}::timestamptz)`;
}
