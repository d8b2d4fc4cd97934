import { and, eq, getTableColumns, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.ts";
import { type TicketRow, tickets, users } from "../../db/schema/index.ts";

type TicketFields = Omit<TicketRow, "search">;
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

export async function findTicketById(db: Db, id: string): Promise<TicketWithNames | undefined> {
  const [row] = await selectTicketsWithNames(db).where(eq(tickets.id, id));
  return row && flatten(row);
}

export interface Keyset {
  createdAt: Date;
  id: string;
}

interface PageQuery {
  branches: SQL[];
  filters?: SQL;
  after?: Keyset;
  limit: number;
}

/** The ids of one page, newest first: a page from each visibility branch, merged. */
export function ticketPageIdsQuery({ branches, filters, after, limit }: PageQuery): SQL {
  const afterWhere = after
    ? sql`(${tickets.createdAt}, ${tickets.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id})`
    : undefined;
  const pages = branches.map(
    (branch) =>
      sql`(select ${tickets.id} as id, ${tickets.createdAt} as created_at from ${tickets} where ${and(branch, filters, afterWhere)} order by ${tickets.createdAt} desc, ${tickets.id} desc limit ${limit})`,
  );
  return sql`select id from (${sql.join(pages, sql` union all `)}) page order by created_at desc, id desc limit ${limit}`;
}

/**
 * Newest first, keyset pagination on (createdAt, id): never OFFSET. Each visibility branch reads at most
 * a page through its own index; the merged ids are then joined to names in a second, primary-key query.
 */
export async function findTicketsPage(db: Db, query: PageQuery): Promise<TicketWithNames[]> {
  if (query.branches.length === 0) return [];
  const result = await db.execute<{ id: string }>(ticketPageIdsQuery(query));
  const ids = (result as unknown as { rows: Array<{ id: string }> }).rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const rows = (await selectTicketsWithNames(db).where(inArray(tickets.id, ids))).map(flatten);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)!);
}

export async function countTickets(db: Db, where: SQL, actorId: string) {
  const counted = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
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
    })
    .from(tickets)
    .where(where);
  return row!;
}

/**
 * Locks the ticket row for the rest of the transaction and returns the facts rules decide on, so that
 * a concurrent change (a Close, an assignment) cannot slip between the check and the write.
 */
export async function lockTicket(db: Db, id: string) {
  const [row] = await db
    .select({ status: tickets.status, createdBy: tickets.createdBy, assignedTo: tickets.assignedTo })
    .from(tickets)
    .where(eq(tickets.id, id))
    .for("update");
  return row;
}

/** The whole ticket, locked for the rest of the transaction: an edit compares against what is there now. */
export async function lockTicketDetails(db: Db, id: string): Promise<TicketFields | undefined> {
  const [row] = await db.select(ticketColumns).from(tickets).where(eq(tickets.id, id)).for("update");
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
