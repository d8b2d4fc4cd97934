import { and, eq, getTableColumns, isNull, lt } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "#server/db/client.ts";
import { type TicketRow, teams, tickets, users } from "#server/db/schema/index.ts";
import type { TicketFacts } from "#shared/permissions.ts";

export type TicketFields = Omit<TicketRow, "search">;
export type TicketWithNames = TicketFields & {
  createdByName: string | null;
  assignedToName: string | null;
  teamName: string | null;
};

// Every column but the search vector, which only the database needs.
const { search: _search, ...ticketColumns } = getTableColumns(tickets);

const creator = alias(users, "creator");
const assignee = alias(users, "assignee");

/**
 * The tickets with their creator's and assignee's names and their team's (flatten each row): joins by
 * primary key, so a page of 25 reads its names with it, in the same statement (decisions 044, 066).
 */
export function selectTicketsWithNames(db: Db) {
  return db
    .select({
      ticket: ticketColumns,
      createdByName: creator.name,
      assignedToName: assignee.name,
      teamName: teams.name,
    })
    .from(tickets)
    .leftJoin(creator, eq(creator.id, tickets.createdBy))
    .leftJoin(assignee, eq(assignee.id, tickets.assignedTo))
    .leftJoin(teams, eq(teams.id, tickets.teamId));
}

export const flatten = (row: {
  ticket: TicketFields;
  createdByName: string | null;
  assignedToName: string | null;
  teamName: string | null;
}): TicketWithNames => ({
  ...row.ticket,
  createdByName: row.createdByName,
  assignedToName: row.assignedToName,
  teamName: row.teamName,
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

/**
 * The ticket's team (decision 069), under the caller's row lock. Not activity: the last activity (and
 * the auto-close date) stays, since a requester is not shown the team.
 */
export async function updateTicketTeam(db: Db, id: string, teamId: string | null) {
  await db.update(tickets).set({ teamId }).where(eq(tickets.id, id));
}

/**
 * The ticket's tags (decision 071), under the caller's row lock, sorted. Not activity, as a team move is
 * not: a requester is not shown tags.
 */
export async function updateTicketTags(db: Db, id: string, tags: readonly string[]) {
  await db
    .update(tickets)
    .set({ tags: [...tags].sort() })
    .where(eq(tickets.id, id));
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

/** A ticket's hold (decision 070), under the caller's row lock: both null ends it. */
export async function updateTicketHold(
  db: Db,
  id: string,
  values: Pick<TicketRow, "onHoldSince" | "holdUntil"> & Partial<Pick<TicketRow, "updatedAt">>,
) {
  await db.update(tickets).set(values).where(eq(tickets.id, id));
}
