import { and, eq, getTableColumns, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "#server/db/client.ts";
import { runPrepared } from "#server/db/prepared.ts";
import { type TicketRow, ticketCounts, tickets, users } from "#server/db/schema/index.ts";
import type { Actor, TicketFacts } from "#shared/permissions.ts";
import type {
  SummaryScope,
  TicketScope,
  TicketStatus,
  TicketSummary,
} from "#shared/tickets/ticket.schemas.ts";
import { type DueWindow, dueFilterWhere } from "./ticket-visibility.ts";

export type TicketFields = Omit<TicketRow, "search">;
export type TicketWithNames = TicketFields & { createdByName: string | null; assignedToName: string | null };

// Every column but the search vector, which only the database needs.
const { search: _search, ...ticketColumns } = getTableColumns(tickets);

const creator = alias(users, "creator");
const assignee = alias(users, "assignee");

function selectTicketsWithNames(db: Db) {
  return db
    .select({
      ticket: ticketColumns,
      createdByName: creator.name,
      assignedToName: assignee.name,
    })
    .from(tickets)
    .leftJoin(creator, eq(creator.id, tickets.createdBy))
    .leftJoin(assignee, eq(assignee.id, tickets.assignedTo));
}

const flatten = (row: {
  ticket: TicketFields;
  createdByName: string | null;
  assignedToName: string | null;
}) => ({
  ...row.ticket,
  createdByName: row.createdByName,
  assignedToName: row.assignedToName,
});

export async function insertTicket(db: Db, values: typeof tickets.$inferInsert): Promise<TicketFields> {
  const [row] = await db.insert(tickets).values(values).returning(ticketColumns);
  return row!;
}

/**
 * Conditional update: two technicians clicking Assign to Me at once must not both become assignee.
 * Returns false when the ticket was no longer Open and unassigned.
 */
export async function assignTicketIfOpen(
  db: Db,
  id: string,
  technicianId: string,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(tickets)
    .set({ assignedTo: technicianId, status: "In Progress", updatedAt: at })
    .where(and(eq(tickets.id, id), isNull(tickets.assignedTo), eq(tickets.status, "Open")))
    .returning({ id: tickets.id });
  return rows.length === 1;
}

export async function updateTicketStatus(
  db: Db,
  id: string,
  values: Pick<TicketRow, "status" | "updatedAt"> & Partial<Pick<TicketRow, "assignedTo" | "resolvedBy">>,
) {
  await db.update(tickets).set(values).where(eq(tickets.id, id));
}

/** The assignment, under the caller's row lock; the status follows it (statusAfterAssignment). */
export async function updateTicketAssignee(
  db: Db,
  id: string,
  values: Pick<TicketRow, "assignedTo" | "status" | "updatedAt">,
) {
  await db.update(tickets).set(values).where(eq(tickets.id, id));
}

/** Moves the last activity (updated_at) forward to `at`; never back. */
export async function touchTicket(db: Db, id: string, at: Date) {
  await db
    .update(tickets)
    .set({ updatedAt: at })
    .where(and(eq(tickets.id, id), lt(tickets.updatedAt, at)));
}

export async function findTicketById(db: Db, id: string): Promise<TicketWithNames | undefined> {
  const [row] = await selectTicketsWithNames(db).where(eq(tickets.id, id));
  return row && flatten(row);
}

export interface Keyset {
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
export function ticketDuePageIdsQuery({ branches, filters, after, limit }: DuePageQuery): SQL {
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

/**
 * Newest first, keyset pagination on (createdAt, id): never OFFSET. Each visibility branch reads at most
 * a page through its own index; the merged ids are then joined to names in a second, primary-key query.
 */
export async function findTicketsPage(db: Db, query: PageQuery): Promise<TicketWithNames[]> {
  if (query.branches.length === 0) return [];
  return findTicketsOfIds(db, ticketPageIdsQuery(query));
}

/** In any keyset order (ticketSortedPageIdsQuery), names joined in the same second query. */
export async function findTicketsSortedPage(db: Db, query: SortedPageQuery): Promise<TicketWithNames[]> {
  if (query.branches.length === 0) return [];
  return findTicketsOfIds(db, ticketSortedPageIdsQuery(query));
}

/**
 * How many tickets the list matches, counting no further than `cap` + 1 in each branch (the branches are
 * disjoint, so their counts add up): at most cap + 1 index entries a branch, whatever the table's size.
 */
export async function countTicketsUpTo(
  db: Db,
  { branches, filters, cap }: { branches: SQL[]; filters?: SQL; cap: number },
): Promise<{ count: number; capped: boolean }> {
  if (branches.length === 0) return { count: 0, capped: false };
  const counts = branches.map(
    (branch) =>
      sql`(select count(*)::int as n from (select 1 from ${tickets} where ${and(branch, filters)} limit ${cap + 1}) matched)`,
  );
  const result = await db.execute<{ total: number }>(
    sql`select coalesce(sum(n), 0)::int as total from (${sql.join(counts, sql` union all `)}) counts`,
  );
  const total = Number((result as unknown as { rows: Array<{ total: number }> }).rows[0]?.total ?? 0);
  return total > cap ? { count: cap, capped: true } : { count: total, capped: false };
}

/** Earliest due time first (ticketDuePageIdsQuery), keyset pagination on (slaDueAt, id). */
export async function findTicketsByDuePage(db: Db, query: DuePageQuery): Promise<TicketWithNames[]> {
  if (query.branches.length === 0) return [];
  return findTicketsOfIds(db, ticketDuePageIdsQuery(query));
}

/**
 * The dashboard counts straight from the tickets: one aggregate over every ticket in `where`. The
 * dashboard reads the trigger-kept counters instead (countTicketsFromCounters); this stays as the
 * definition they are checked against (ticket-counts.test.ts).
 */
export async function countTickets(db: Db, where: SQL, actorId: string, due: DueWindow | null) {
  const counted = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
  const countedDue = (filter: "overdue" | "due_soon") =>
    due ? counted(dueFilterWhere(filter, due)) : sql<null>`null`;
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      open: counted(sql`${tickets.status} = 'Open'`),
      inProgress: counted(sql`${tickets.status} = 'In Progress'`),
      resolved: counted(sql`${tickets.status} = 'Resolved'`),
      closed: counted(sql`${tickets.status} = 'Closed'`),
      assignedToMe: counted(sql`${tickets.assignedTo} = ${actorId}`),
      unassigned: counted(sql`${tickets.assignedTo} is null`),
      // Every ticket the actor resolved, wherever it is now, through the partial tickets_resolved_by_idx.
      resolvedByMe: sql<number>`(select count(*)::int from ${tickets} where ${tickets.resolvedBy} = ${actorId})`,
      overdue: countedDue("overdue"),
      dueSoon: countedDue("due_soon"),
    })
    .from(tickets)
    .where(where);
  return row!;
}

/**
 * Locks the ticket row for the rest of the transaction and returns it as it is now, so that a concurrent
 * change (a Close, an assignment) cannot slip between the check and the write. The first statement of
 * every change to an existing ticket (inTicketTransaction, decision 053). FOR NO KEY UPDATE: it excludes
 * the other writers of the ticket, but not the key-share locks that inserting a comment, an event or a
 * notification takes through its foreign key, so it never waits for them nor they for it.
 */
export async function lockTicket(db: Db, id: string): Promise<TicketFields | undefined> {
  const [row] = await db.select(ticketColumns).from(tickets).where(eq(tickets.id, id)).for("no key update");
  return row;
}

/** What the permission rules look at (can.*): the push reads no more of a ticket to know who may see it. */
export async function findTicketFacts(db: Db, id: string): Promise<TicketFacts | undefined> {
  const [row] = await db
    .select({ createdBy: tickets.createdBy, assignedTo: tickets.assignedTo, status: tickets.status })
    .from(tickets)
    .where(eq(tickets.id, id));
  return row;
}

export async function updateTicketDetails(
  db: Db,
  id: string,
  values: Partial<
    Pick<
      TicketRow,
      "title" | "description" | "category" | "priority" | "department" | "floor" | "officeNumber"
    >
  > &
    Pick<TicketRow, "updatedAt">,
) {
  await db.update(tickets).set(values).where(eq(tickets.id, id));
}

type CountsByStatus = Record<TicketStatus, number>;
const noTickets = (): CountsByStatus => ({ Open: 0, "In Progress": 0, Resolved: 0, Closed: 0 });
const sumOf = (counts: CountsByStatus) => Object.values(counts).reduce((a, b) => a + b, 0);

/**
 * The dashboard counts from the counters the triggers keep (migration 0029, decision 039): a few dozen
 * rows by primary key, whatever the table's size. Visibility is put together from disjoint sets exactly as
 * visibilityBranches draws it: a technician sees assigned-to-me + unassigned + created-by-me-assigned-
 * elsewhere (c − ca − cu), a user created-by-me + assigned-to-me-created-elsewhere (c + a − ca).
 */
const counterKeysOf = (me: string) =>
  ({
    all: "all",
    unassigned: "unassigned",
    a: `a:${me}`,
    c: `c:${me}`,
    ca: `ca:${me}`,
    cu: `cu:${me}`,
    r: `r:${me}`,
  }) as const;
type Counters = Record<keyof ReturnType<typeof counterKeysOf>, CountsByStatus>;

/** Every counter the actor's counts are made of, by status, in one query by primary key. */
async function readCounters(db: Db, actor: Actor): Promise<Counters> {
  const keys = counterKeysOf(actor.id);
  const rows = await runPrepared(
    db
      .select({
        scope: ticketCounts.scope,
        status: ticketCounts.status,
        n: sql<number>`sum(${ticketCounts.n})::int`,
      })
      .from(ticketCounts)
      .where(inArray(ticketCounts.scope, Object.values(keys)))
      .groupBy(ticketCounts.scope, ticketCounts.status),
  );
  const of = Object.fromEntries(Object.keys(keys).map((key) => [key, noTickets()])) as Counters;
  const keyOf = new Map(Object.entries(keys).map(([key, value]) => [value as string, key as keyof Counters]));
  for (const row of rows) of[keyOf.get(row.scope)!][row.status] = Number(row.n);
  return of;
}

const combine = (parts: Array<[CountsByStatus, 1 | -1]>) => {
  const total = noTickets();
  for (const [counts, sign] of parts)
    for (const status of Object.keys(total) as TicketStatus[]) total[status] += sign * counts[status];
  return total;
};

/** The tickets the actor sees, by status, from disjoint counters exactly as visibilityBranches draws them. */
function visibleOf(actor: Actor, of: Counters): CountsByStatus {
  if (actor.role === null) return noTickets();
  if (actor.role === "admin") return of.all;
  if (actor.role === "technician")
    return combine([
      [of.a, 1],
      [of.unassigned, 1],
      [of.c, 1],
      [of.ca, -1],
      [of.cu, -1],
    ]);
  return combine([
    [of.c, 1],
    [of.a, 1],
    [of.ca, -1],
  ]);
}

/**
 * A list's count from the counters, when its only filters are a tab and a status (what the counters are
 * kept by): the same number countTicketsUpTo reads from the tickets, without reading up to cap + 1 index
 * entries a branch on every first page.
 */
export async function countListFromCounters(
  db: Db,
  actor: Actor,
  { scope, status, cap }: { scope: TicketScope; status?: TicketStatus; cap: number },
): Promise<{ count: number; capped: boolean }> {
  if (actor.role === null) return { count: 0, capped: false };
  const of = await readCounters(db, actor);
  const byStatus =
    scope === "visible"
      ? visibleOf(actor, of)
      : scope === "created"
        ? of.c
        : scope === "mine"
          ? of.a
          : actor.role === "user"
            ? of.cu
            : of.unassigned;
  const total = status ? byStatus[status] : sumOf(byStatus);
  return total > cap ? { count: cap, capped: true } : { count: total, capped: false };
}

export async function countTicketsFromCounters(
  db: Db,
  actor: Actor,
  scope: SummaryScope,
): Promise<Omit<TicketSummary, "overdue" | "dueSoon">> {
  const of = await readCounters(db, actor);
  let inScope: CountsByStatus;
  let assignedToMe: number;
  let unassigned: number;
  if (actor.role === null) {
    inScope = noTickets();
    assignedToMe = 0;
    unassigned = 0;
  } else if (scope === "created") {
    inScope = of.c;
    assignedToMe = sumOf(of.ca);
    unassigned = sumOf(of.cu);
  } else {
    inScope = visibleOf(actor, of);
    assignedToMe = sumOf(of.a);
    unassigned = actor.role === "user" ? sumOf(of.cu) : sumOf(of.unassigned);
  }
  return {
    total: sumOf(inScope),
    open: inScope.Open,
    inProgress: inScope["In Progress"],
    resolved: inScope.Resolved,
    closed: inScope.Closed,
    assignedToMe,
    unassigned,
    resolvedByMe: sumOf(of.r),
  };
}

/**
 * Overdue and due-soon depend on the time, so no counter can hold them: counted in `where` through
 * tickets_sla_due_idx, reading only running targets due before the end of the window.
 */
export async function countDueTickets(db: Db, where: SQL, due: DueWindow) {
  const soon = new Date(due.now.getTime() + due.dueSoonMinutes * 60_000).toISOString();
  const [row] = await db
    .select({
      overdue: sql<number>`(count(*) filter (where ${dueFilterWhere("overdue", due)}))::int`,
      dueSoon: sql<number>`(count(*) filter (where ${dueFilterWhere("due_soon", due)}))::int`,
    })
    .from(tickets)
    .where(and(where, sql`${tickets.slaDueAt} <= ${soon}::timestamptz`));
  return { overdue: Number(row?.overdue ?? 0), dueSoon: Number(row?.dueSoon ?? 0) };
}
