import { and, eq, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import { teamMembers, tickets } from "#server/db/schema/index.ts";
import type { Actor } from "#shared/permissions.ts";
import {
  isTeamScope,
  type ListTicketsQuery,
  type TicketDueFilter,
  type TicketScope,
} from "#shared/tickets/ticket.schemas.ts";

/**
 * An admin's one branch, every ticket. The only branch not bounded by one person's tickets or the
 * unassigned queue: a searched list reads it its own way (branchPage, decision 067), so it is this object.
 */
export const allTickets: SQL = sql`true`;

/**
 * What the actor may see, as disjoint conditions that each match one index (a list reads a page from each
 * and merges them, features/tickets/list/ticket-pages.queries.ts, so no list ever sorts more rows than a
 * page).
 * The SQL twin of can.viewTicket (src/shared/permissions.ts); ticket-visibility.test.ts checks that
 * the two agree for every actor × ticket combination.
 */
export function visibilityBranches(actor: Actor): SQL[] {
  if (actor.role === "admin") return [allTickets];
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
 * The tickets of the actor's teams (decision 073): the team ids read once by the statement (an array, not a
 * join), so that each visibility branch reads the team indexes' `team_id = any(…)`. `team_id is not null`
 * says outright what the partial team indexes hold.
 */
export function myTeamsTicketsWhere(actorId: string): SQL {
  return sql`(${tickets.teamId} is not null and ${tickets.teamId} = any(array(select ${teamMembers.teamId} from ${teamMembers} where ${teamMembers.userId} = ${actorId})))`;
}

/**
 * A list's filters beyond visibility and the search (ticketSearchWhere): a tab, a team, a tag, status, priority,
 * category, on hold or not (decision 070), an external reference, a sync's start (decision 079) and (staff, with the window) a due filter. The team tabs and the team filter narrow the visible
 * tickets like the other tabs: they never add a ticket the actor may not see (decision 073).
 */
export function ticketFiltersWhere(
  actor: Actor,
  {
    scope,
    status,
    priority,
    category,
    onHold,
    due,
    team,
    tag,
    externalRef,
    updatedSince,
  }: Omit<ListTicketsQuery, "cursor" | "limit" | "sort" | "due" | "q"> & {
    due?: TicketDueFilter;
  },
  window?: DueWindow | null,
): SQL | undefined {
  const filters: SQL[] = [];
  if (scope === "mine") filters.push(eq(tickets.assignedTo, actor.id));
  if (scope === "unassigned") filters.push(isNull(tickets.assignedTo));
  if (scope === "created") filters.push(eq(tickets.createdBy, actor.id));
  if (isTeamScope(scope)) filters.push(myTeamsTicketsWhere(actor.id));
  if (scope === "team_unassigned") filters.push(isNull(tickets.assignedTo));
  if (team) filters.push(eq(tickets.teamId, team));
  // Decision 071: through the GIN index on tags.
  if (tag) filters.push(sql`${tickets.tags} @> array[${tag}]::text[]`);
  if (status) filters.push(eq(tickets.status, status));
  if (priority) filters.push(eq(tickets.priority, priority));
  if (category) filters.push(eq(tickets.category, category));
  // No value to bind: a statement built once per shape names which of the two it is (decision 066).
  if (onHold === true) filters.push(sql`${tickets.onHoldSince} is not null`);
  if (onHold === false) filters.push(sql`${tickets.onHoldSince} is null`);
  if (due && window) filters.push(dueFilterWhere(due, window));
  // Decision 079: through tickets_external_ref_idx; a sync's window through each branch's updated index.
  if (externalRef) filters.push(eq(tickets.externalRef, externalRef));
  if (updatedSince) filters.push(sql`${tickets.updatedAt} >= ${updatedSince}::timestamptz`);
  return filters.length > 0 ? and(...filters) : undefined;
}

/**
 * The tickets whose id, title or description hold every word of `q` (searchQuery), through the GIN
 * index. The query is parsed once a statement (the sub-select), not once a row where a list checks the
 * search on each row it reads (branchPage, decision 067).
 */
export function ticketSearchWhere(q: string | undefined): SQL | undefined {
  const query = q ? searchQuery(q) : null;
  return query ? sql`${tickets.search} @@ (select to_tsquery('simple', ${query}))` : undefined;
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
