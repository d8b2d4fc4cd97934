import { and, asc, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  incidentSubscribers,
  incidentUpdates,
  ticketLinks,
  tickets,
  users,
} from "#server/db/schema/index.ts";
import { newIncidentUpdateId } from "#server/ids.ts";

// Decision 077: a major incident's rows. An affected ticket's link is a ticket_links row of kind 'incident'
// whose ticket_id is the affected ticket and linked_ticket_id the incident.

/** The major incident affecting a ticket, if one does: its public face's facts. */
export async function findIncidentAffecting(db: Db, ticketId: string) {
  const [row] = await db
    .select({
      linkId: ticketLinks.id,
      ticketId: tickets.id,
      headline: tickets.incidentHeadline,
      declaredAt: tickets.incidentDeclaredAt,
      status: tickets.status,
    })
    .from(ticketLinks)
    .innerJoin(tickets, eq(tickets.id, ticketLinks.linkedTicketId))
    .where(and(eq(ticketLinks.ticketId, ticketId), eq(ticketLinks.kind, "incident")));
  return row;
}

/** The tickets an incident affects, in id order (the lock order), with what the permission rules read. */
export function findAffectedTickets(db: Db, incidentId: string) {
  return db
    .select({
      linkId: ticketLinks.id,
      id: tickets.id,
      title: tickets.title,
      status: tickets.status,
      createdBy: tickets.createdBy,
      assignedTo: tickets.assignedTo,
    })
    .from(ticketLinks)
    .innerJoin(tickets, eq(tickets.id, ticketLinks.ticketId))
    .where(and(eq(ticketLinks.linkedTicketId, incidentId), eq(ticketLinks.kind, "incident")))
    .orderBy(asc(tickets.id));
}

/** Whether `userId` raised a ticket the incident affects. */
export async function isAffectedRequester(db: Db, incidentId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: tickets.id })
    .from(ticketLinks)
    .innerJoin(tickets, eq(tickets.id, ticketLinks.ticketId))
    .where(
      and(
        eq(ticketLinks.linkedTicketId, incidentId),
        eq(ticketLinks.kind, "incident"),
        eq(tickets.createdBy, userId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Declares (headline and time) or ends (both null) a major incident, under the caller's row lock. */
export async function setIncidentHeadline(
  db: Db,
  ticketId: string,
  values: { headline: string; declaredAt: Date } | null,
  at: Date,
) {
  await db
    .update(tickets)
    .set({
      incidentHeadline: values?.headline ?? null,
      incidentDeclaredAt: values?.declaredAt ?? null,
      updatedAt: at,
    })
    .where(eq(tickets.id, ticketId));
}

/** The open major incidents (Open or In Progress), newest declared first. */
export function findOpenIncidents(db: Db, limit: number) {
  return db
    .select({
      ticketId: tickets.id,
      headline: tickets.incidentHeadline,
      status: tickets.status,
      declaredAt: tickets.incidentDeclaredAt,
    })
    .from(tickets)
    .where(and(isNotNull(tickets.incidentHeadline), inArray(tickets.status, ["Open", "In Progress"])))
    .orderBy(desc(tickets.incidentDeclaredAt), desc(tickets.id))
    .limit(limit);
}

export async function insertIncidentUpdate(
  db: Db,
  values: { incidentId: string; body: string; authorId: string; createdAt: Date },
) {
  const [row] = await db
    .insert(incidentUpdates)
    .values({ id: newIncidentUpdateId(values.createdAt.getTime()), ...values })
    .returning();
  return row!;
}

/** An incident's public updates, newest first, with their authors' names. */
export function findIncidentUpdates(db: Db, incidentId: string) {
  return db
    .select({
      id: incidentUpdates.id,
      body: incidentUpdates.body,
      authorName: users.name,
      createdAt: incidentUpdates.createdAt,
    })
    .from(incidentUpdates)
    .leftJoin(users, eq(users.id, incidentUpdates.authorId))
    .where(eq(incidentUpdates.incidentId, incidentId))
    .orderBy(desc(incidentUpdates.createdAt), desc(incidentUpdates.id));
}

export async function findLastIncidentUpdate(db: Db, incidentId: string) {
  const [row] = await findIncidentUpdates(db, incidentId).limit(1);
  return row;
}

export async function insertSubscriber(db: Db, incidentId: string, userId: string, at: Date) {
  await db.insert(incidentSubscribers).values({ incidentId, userId, createdAt: at }).onConflictDoNothing();
}

export async function deleteSubscriber(db: Db, incidentId: string, userId: string) {
  await db
    .delete(incidentSubscribers)
    .where(and(eq(incidentSubscribers.incidentId, incidentId), eq(incidentSubscribers.userId, userId)));
}

/** Of the known issues `incidentIds`, those `userId` follows. */
export async function findFollowedIncidentIds(db: Db, userId: string, incidentIds: readonly string[]) {
  if (incidentIds.length === 0) return new Set<string>();
  const rows = await db
    .select({ incidentId: incidentSubscribers.incidentId })
    .from(incidentSubscribers)
    .where(
      and(eq(incidentSubscribers.userId, userId), inArray(incidentSubscribers.incidentId, [...incidentIds])),
    );
  return new Set(rows.map((row) => row.incidentId));
}

/** The active people who follow a known issue. */
export async function findActiveSubscriberIds(db: Db, incidentId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: incidentSubscribers.userId })
    .from(incidentSubscribers)
    .innerJoin(users, eq(users.id, incidentSubscribers.userId))
    .where(and(eq(incidentSubscribers.incidentId, incidentId), sql`${users.status} = 'Active'`));
  return rows.map((row) => row.userId);
}
