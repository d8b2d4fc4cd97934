import { and, desc, eq, lt, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.ts";
import { type TicketRow, tickets, users } from "../../db/schema/index.ts";

export type TicketWithNames = TicketRow & { createdByName: string | null; assignedToName: string | null };

const creator = alias(users, "creator");
const assignee = alias(users, "assignee");

function selectTicketsWithNames(db: Db) {
  return db
    .select({
      ticket: tickets,
      createdByName: creator.name,
      assignedToName: assignee.name,
    })
    .from(tickets)
    .leftJoin(creator, eq(creator.id, tickets.createdBy))
    .leftJoin(assignee, eq(assignee.id, tickets.assignedTo));
}

const flatten = (row: {
  ticket: TicketRow;
  createdByName: string | null;
  assignedToName: string | null;
}) => ({
  ...row.ticket,
  createdByName: row.createdByName,
  assignedToName: row.assignedToName,
});

export async function insertTicket(db: Db, values: typeof tickets.$inferInsert): Promise<TicketRow> {
  const [row] = await db.insert(tickets).values(values).returning();
  return row!;
}

export async function findTicketById(db: Db, id: string): Promise<TicketWithNames | undefined> {
  const [row] = await selectTicketsWithNames(db).where(eq(tickets.id, id));
  return row && flatten(row);
}

export interface Keyset {
  createdAt: Date;
  id: string;
}

/** Newest first, keyset pagination on (createdAt, id): every page is an index range scan, never OFFSET. */
export async function findTicketsPage(
  db: Db,
  where: SQL,
  { after, limit }: { after?: Keyset; limit: number },
): Promise<TicketWithNames[]> {
  const afterWhere = after
    ? or(
        lt(tickets.createdAt, after.createdAt),
        and(eq(tickets.createdAt, after.createdAt), lt(tickets.id, after.id)),
      )
    : undefined;
  const rows = await selectTicketsWithNames(db)
    .where(and(where, afterWhere))
    .orderBy(desc(tickets.createdAt), desc(tickets.id))
    .limit(limit);
  return rows.map(flatten);
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
      resolvedByMe: counted(sql`${tickets.assignedTo} = ${actorId} and ${tickets.status} = 'Resolved'`),
    })
    .from(tickets)
    .where(where);
  return row!;
}
