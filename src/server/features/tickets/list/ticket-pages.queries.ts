import { and, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { runPrepared } from "#server/db/prepared.ts";
import { type TicketRow, tickets } from "#server/db/schema/index.ts";
import {
  flatten,
  selectTicketsWithNames,
  type TicketWithNames,
} from "#server/features/ticket-records/ticket.queries.ts";
import { allTickets } from "#server/features/ticket-records/ticket-visibility.ts";
import { branchPage, type PageColumn } from "./branch-page.queries.ts";

interface Keyset {
  createdAt: Date;
  id: string;
}

/** The orders a list reads by keyset on its own indexes (decision 034); `due` has its own query below. */
export type KeysetSort = "created" | "updated" | "priority" | "status";
export type SortDirection = "asc" | "desc";

/**
 * Where a sorted list stopped: the rank (the priority or the status, for those orders), the time
 * (created_at, or updated_at for `updated`) and the id, the tiebreaker.
 */
export interface SortedKeyset {
  rank?: string;
  at: Date;
  id: string;
}

/**
 * Each order's keyset columns, most significant first; every visibility branch has an index in this
 * order (tickets.ts), scanned forwards for asc and backwards for desc. Enums compare in their declared
 * order: Low < Medium < High, Open < In Progress < Resolved < Closed.
 */
const keysetColumns = {
  created: { rank: null, at: tickets.createdAt },
  updated: { rank: null, at: tickets.updatedAt },
  priority: { rank: { column: tickets.priority, type: sql.raw("ticket_priority") }, at: tickets.createdAt },
  status: { rank: { column: tickets.status, type: sql.raw("ticket_status") }, at: tickets.createdAt },
} as const;

/** The keyset of a row in an order: what a cursor (and the CSV export's next page) continues from. */
export function keysetOf(
  sort: KeysetSort,
  row: Pick<TicketRow, "id" | "createdAt" | "updatedAt" | "priority" | "status">,
): SortedKeyset {
  const at = sort === "updated" ? row.updatedAt : row.createdAt;
  const rank = sort === "priority" ? row.priority : sort === "status" ? row.status : undefined;
  return { ...(rank ? { rank } : {}), at, id: row.id };
}

interface SortedPageQuery {
  branches: SQL[];
  filters?: SQL;
  /** The search's match (ticketSearchWhere): read apart from the other filters (branchPage, decision 067). */
  search?: SQL;
  sort: KeysetSort;
  dir: SortDirection;
  after?: SortedKeyset;
  limit: number;
}

/**
 * A keyset as a statement binds it: the rank, the time as ISO text and the id — or, in a statement built
 * once per shape (ticket-page-shapes.queries.ts), a placeholder for each.
 */
interface KeysetParams {
  rank?: string;
  at: string;
  id: string;
}

const keysetParams = ({ rank, at, id }: SortedKeyset): KeysetParams => ({
  ...(rank ? { rank } : {}),
  at: at.toISOString(),
  id,
});

/**
 * The ids of one page in the order asked: a page at most from each visibility branch, each read through
 * the branch's index in that order (branchPage), merged. The id breaks ties, so no page repeats or skips
 * a ticket.
 */
export function ticketSortedPageIdsQuery({ after, ...query }: SortedPageQuery): SQL {
  return sortedPageIds({ ...query, after: after && keysetParams(after) });
}

export function sortedPageIds({
  branches,
  filters,
  search,
  sort,
  dir,
  after,
  limit,
}: Omit<SortedPageQuery, "after"> & { after?: KeysetParams }): SQL {
  const { rank, at } = keysetColumns[sort];
  const columns = [...(rank ? [rank.column] : []), at, tickets.id];
  const afterWhere = after
    ? sql`(${sql.join(columns, sql`, `)}) ${sql.raw(dir === "desc" ? "<" : ">")} (${sql.join(
        [
          ...(rank ? [sql`${after.rank ?? ""}::${rank.type}`] : []),
          sql`${after.at}::timestamptz`,
          sql`${after.id}`,
        ],
        sql`, `,
      )})`
    : undefined;
  const selected: PageColumn[] = [
    ...(rank ? [[rank.column, "sort_rank"] as const] : []),
    [at, "sort_at"],
    [tickets.id, "id"],
  ];
  const keyset = selected.map(([, alias]) => alias);
  const outerOrder = sql.join(
    keyset.map((alias) => sql`${sql.identifier(alias)} ${sql.raw(dir)}`),
    sql`, `,
  );
  const pages = branches.map((branch) =>
    branchPage({
      where: and(branch, filters, afterWhere),
      wholeTable: branch === allTickets,
      selected,
      keyset,
      dir,
      limit,
      search,
    }),
  );
  return sql`select id from (${sql.join(pages, sql` union all `)}) page order by ${outerOrder} limit ${limit}`;
}

interface PageQuery {
  branches: SQL[];
  filters?: SQL;
  after?: Keyset;
  limit: number;
}

/** The ids of one page, newest first (ticketSortedPageIdsQuery by created, descending). */
export function ticketPageIdsQuery({ branches, filters, after, limit }: PageQuery): SQL {
  return ticketSortedPageIdsQuery({
    branches,
    filters,
    sort: "created",
    dir: "desc",
    after: after && { at: after.createdAt, id: after.id },
    limit,
  });
}

/** Where a list sorted by due time stopped: a due time, or null once in the tickets that owe nothing. */
export interface DueKeyset {
  slaDueAt: Date | null;
  id: string;
}

interface DuePageQuery {
  branches: SQL[];
  filters?: SQL;
  search?: SQL;
  after?: DueKeyset;
  limit: number;
}

/** A due-time keyset as a statement binds it (the time as ISO text, null past the due times), or placeholders. */
interface DueKeysetParams {
  dueAt: string | null;
  id: string;
}

/**
 * The ids of one page, earliest due time first and tickets without a running target last (by id). Each
 * branch reads the tickets with a due time through tickets_sla_due_idx (partial, in this order) and,
 * past those, the others by primary key: a page at most from each (branchPage), merged.
 */
export function duePageIds({
  branches,
  filters,
  search,
  after,
  limit,
}: Omit<DuePageQuery, "after"> & { after?: DueKeysetParams }): SQL {
  const isPastDue = after !== undefined && after.dueAt === null;
  const dueAfter =
    after?.dueAt != null
      ? sql`(${tickets.slaDueAt}, ${tickets.id}) > (${after.dueAt}::timestamptz, ${after.id})`
      : undefined;
  const selected: PageColumn[] = [
    [tickets.id, "id"],
    [tickets.slaDueAt, "sla_due_at"],
  ];
  const pages = branches.flatMap((branch) => [
    ...(isPastDue
      ? []
      : [
          branchPage({
            where: and(branch, filters, sql`${tickets.slaDueAt} is not null`, dueAfter),
            wholeTable: branch === allTickets,
            selected,
            keyset: ["sla_due_at", "id"],
            dir: "asc",
            limit,
            search,
          }),
        ]),
    branchPage({
      where: and(
        branch,
        filters,
        sql`${tickets.slaDueAt} is null`,
        isPastDue ? sql`${tickets.id} > ${after.id}` : undefined,
      ),
      wholeTable: branch === allTickets,
      selected,
      keyset: ["id"],
      dir: "asc",
      limit,
      search,
    }),
  ]);
  return sql`select id from (${sql.join(pages, sql` union all `)}) page order by sla_due_at asc nulls last, id asc limit ${limit}`;
}

/**
 * The page's rows with names in one statement: the ids query (ordered, limited) becomes an array, unnested
 * with its ordinality, joined to the tickets by primary key and read back in that order.
 */
export function ticketsOfIdsQuery(db: Db, idsQuery: SQL) {
  return selectTicketsWithNames(db)
    .innerJoin(sql`unnest(array(${idsQuery})) with ordinality as page(id, n)`, sql`page.id = ${tickets.id}`)
    .orderBy(sql`page.n`);
}

/** In any keyset order (ticketSortedPageIdsQuery), names joined in the same second query. */
export async function findTicketsSortedPage(db: Db, query: SortedPageQuery): Promise<TicketWithNames[]> {
  if (query.branches.length === 0) return [];
  const rows = await runPrepared(ticketsOfIdsQuery(db, ticketSortedPageIdsQuery(query)));
  return rows.map(flatten);
}

/** Earliest due time first (duePageIds), keyset pagination on (slaDueAt, id). */
export async function findTicketsByDuePage(
  db: Db,
  { after, ...query }: DuePageQuery,
): Promise<TicketWithNames[]> {
  if (query.branches.length === 0) return [];
  const params = after && { dueAt: after.slaDueAt?.toISOString() ?? null, id: after.id };
  const rows = await runPrepared(ticketsOfIdsQuery(db, duePageIds({ ...query, after: params })));
  return rows.map(flatten);
}
