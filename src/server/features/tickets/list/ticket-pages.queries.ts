import { and, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { runPrepared } from "#server/db/prepared.ts";
import { type TicketRow, tickets } from "#server/db/schema/index.ts";
import {
  flatten,
  selectTicketsWithNames,
  type TicketWithNames,
} from "#server/features/ticket-records/ticket.queries.ts";

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
  sort: KeysetSort;
  dir: SortDirection;
  after?: SortedKeyset;
  limit: number;
}

/**
 * The ids of one page in the order asked: a page at most from each visibility branch, each read through
 * the branch's index in that order, merged. The id breaks ties, so no page repeats or skips a ticket.
 */
export function ticketSortedPageIdsQuery({
  branches,
  filters,
  sort,
  dir,
  after,
  limit,
}: SortedPageQuery): SQL {
  const { rank, at } = keysetColumns[sort];
  const direction = sql.raw(dir);
  const columns = [...(rank ? [rank.column] : []), at, tickets.id];
  const afterWhere = after
    ? sql`(${sql.join(columns, sql`, `)}) ${sql.raw(dir === "desc" ? "<" : ">")} (${sql.join(
        [
          ...(rank ? [sql`${after.rank ?? ""}::${rank.type}`] : []),
          sql`${after.at.toISOString()}::timestamptz`,
          sql`${after.id}`,
        ],
        sql`, `,
      )})`
    : undefined;
  const selected = sql.join(
    [...(rank ? [sql`${rank.column} as sort_rank`] : []), sql`${at} as sort_at`, sql`${tickets.id} as id`],
    sql`, `,
  );
  const innerOrder = sql.join(
    columns.map((column) => sql`${column} ${direction}`),
    sql`, `,
  );
  const outerOrder = sql.join(
    [...(rank ? [sql`sort_rank ${direction}`] : []), sql`sort_at ${direction}`, sql`id ${direction}`],
    sql`, `,
  );
  const pages = branches.map(
    (branch) =>
      sql`(select ${selected} from ${tickets} where ${and(branch, filters, afterWhere)} order by ${innerOrder} limit ${limit})`,
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
  after?: DueKeyset;
  limit: number;
}

/**
 * The ids of one page, earliest due time first and tickets without a running target last (by id). Each
 * branch reads the tickets with a due time through tickets_sla_due_idx (partial, in this order) and,
 * past those, the others by primary key: a page at most from each, merged.
 */
function ticketDuePageIdsQuery({ branches, filters, after, limit }: DuePageQuery): SQL {
  const isPastDue = after !== undefined && after.slaDueAt === null;
  const dueAfter =
    after?.slaDueAt != null
      ? sql`(${tickets.slaDueAt}, ${tickets.id}) > (${after.slaDueAt.toISOString()}::timestamptz, ${after.id})`
      : undefined;
  const pages = branches.flatMap((branch) => [
    ...(isPastDue
      ? []
      : [
          sql`(select ${tickets.id} as id, ${tickets.slaDueAt} as sla_due_at from ${tickets} where ${and(branch, filters, sql`${tickets.slaDueAt} is not null`, dueAfter)} order by ${tickets.slaDueAt} asc, ${tickets.id} asc limit ${limit})`,
        ]),
    sql`(select ${tickets.id} as id, ${tickets.slaDueAt} as sla_due_at from ${tickets} where ${and(branch, filters, sql`${tickets.slaDueAt} is null`, isPastDue ? sql`${tickets.id} > ${after.id}` : undefined)} order by ${tickets.id} asc limit ${limit})`,
  ]);
  return sql`select id from (${sql.join(pages, sql` union all `)}) page order by sla_due_at asc nulls last, id asc limit ${limit}`;
}

/**
 * The page's rows with names in one statement: the ids query (ordered, limited) becomes an array, unnested
 * with its ordinality, joined to the tickets by primary key and read back in that order.
 */
async function findTicketsOfIds(db: Db, idsQuery: SQL): Promise<TicketWithNames[]> {
  const rows = await runPrepared(
    selectTicketsWithNames(db)
      .innerJoin(sql`unnest(array(${idsQuery})) with ordinality as page(id, n)`, sql`page.id = ${tickets.id}`)
      .orderBy(sql`page.n`),
  );
  return rows.map(flatten);
}

/** In any keyset order (ticketSortedPageIdsQuery), names joined in the same second query. */
export async function findTicketsSortedPage(db: Db, query: SortedPageQuery): Promise<TicketWithNames[]> {
  if (query.branches.length === 0) return [];
  return findTicketsOfIds(db, ticketSortedPageIdsQuery(query));
}

/** Earliest due time first (ticketDuePageIdsQuery), keyset pagination on (slaDueAt, id). */
export async function findTicketsByDuePage(db: Db, query: DuePageQuery): Promise<TicketWithNames[]> {
  if (query.branches.length === 0) return [];
  return findTicketsOfIds(db, ticketDuePageIdsQuery(query));
}
