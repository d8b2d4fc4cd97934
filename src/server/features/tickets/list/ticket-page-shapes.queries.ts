import type { Db } from "#server/db/client.ts";
import { bound, runShaped } from "#server/db/statement-shapes.ts";
import { flatten, type TicketWithNames } from "#server/features/ticket-records/ticket.queries.ts";
import { ticketFiltersWhere, visibilityBranches } from "#server/features/ticket-records/ticket-visibility.ts";
import type { Actor } from "#shared/permissions.ts";
import type { ListTicketsQuery, SortDirection } from "#shared/tickets/ticket.schemas.ts";
import {
  type DueKeyset,
  duePageIds,
  type KeysetSort,
  type SortedKeyset,
  sortedPageIds,
  ticketsOfIdsQuery,
} from "./ticket-pages.queries.ts";

/** What narrows a list whose statement is built once per shape: a tab and plain values, nothing computed. */
export type ValueFilters = Pick<
  ListTicketsQuery,
  "scope" | "status" | "priority" | "category" | "onHold" | "team"
>;

/** A page in a keyset order after a keyset, or by due time after a due-time keyset. */
type ShapedOrder =
  | { sort: KeysetSort; dir: SortDirection; after?: SortedKeyset }
  | { sort: "due"; after?: DueKeyset };

interface ShapedPageQuery {
  actor: Actor;
  filters: ValueFilters;
  order: ShapedOrder;
  limit: number;
}

/**
 * One page of a list narrowed by a tab, a status, a priority and a category (no search, due filter or
 * custom field: those build their SQL per request, ticket-pages.queries.ts), through a statement built
 * once per shape (decision 066). The shape is what decides the SQL text: the caller's role (its visibility
 * branches), the tab, which filters are present, the order and direction, and whether and where a cursor
 * continues; 4 roles × 6 tabs × 16 filter sets × 3 on-hold choices × 9 orders × 2–3 cursor kinds bound it. Every value — the
 * caller's id, the filters' values, the cursor's keyset, the page size — is a parameter, and the same
 * statement as ticket-pages.queries.ts builds per request: the same text, so the same plans.
 */
export async function findTicketsPageOfShape(
  db: Db,
  { actor, filters, order, limit }: ShapedPageQuery,
): Promise<TicketWithNames[]> {
  if (actor.role === null) return [];
  const { scope, status, priority, category, onHold, team } = filters;
  const cursor =
    order.after === undefined
      ? "first"
      : order.sort === "due"
        ? (order.after as DueKeyset).slaDueAt === null
          ? "past-due"
          : "due"
        : "after";
  const shape = [
    "ticket-page",
    actor.role,
    scope,
    status ? "status" : "",
    priority ? "priority" : "",
    category ? "category" : "",
    onHold === undefined ? "" : `onHold.${onHold}`,
    team ? "team" : "",
    order.sort === "due" ? "due" : `${order.sort}.${order.dir}`,
    cursor,
  ].join("|");
  const rows = await runShaped(
    db,
    shape,
    () => {
      // Stand-ins that the visibility and filter code puts into its conditions where the values would go.
      const me: Actor = { id: bound("me"), role: actor.role };
      const branches = visibilityBranches(me);
      const where = ticketFiltersWhere(me, {
        scope,
        status: status && bound("status"),
        priority: priority && bound("priority"),
        category: category && bound("category"),
        onHold,
        team: team && bound("team"),
      });
      const pageSize = bound<number>("limit");
      const ids =
        order.sort === "due"
          ? duePageIds({
              branches,
              filters: where,
              after:
                cursor === "first"
                  ? undefined
                  : { dueAt: cursor === "past-due" ? null : bound("afterAt"), id: bound("afterId") },
              limit: pageSize,
            })
          : sortedPageIds({
              branches,
              filters: where,
              sort: order.sort,
              dir: order.dir,
              after:
                cursor === "first"
                  ? undefined
                  : { rank: bound("afterRank"), at: bound("afterAt"), id: bound("afterId") },
              limit: pageSize,
            });
      return ticketsOfIdsQuery(db, ids);
    },
    { me: actor.id, status, priority, category, team, limit, ...keysetValues(order) },
  );
  return rows.map(flatten);
}

function keysetValues(order: ShapedOrder): Record<string, unknown> {
  if (!order.after) return {};
  if (order.sort === "due") {
    const { slaDueAt, id } = order.after as DueKeyset;
    return { afterAt: slaDueAt?.toISOString() ?? null, afterId: id };
  }
  const { rank, at, id } = order.after as SortedKeyset;
  return { afterRank: rank ?? "", afterAt: at.toISOString(), afterId: id };
}
