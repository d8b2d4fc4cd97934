import { and, asc, desc, eq, notInArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "#server/db/client.ts";
import { teams, ticketComments, ticketEvents, ticketFeedback, users } from "#server/db/schema/index.ts";
import { newCommentId, newEventId } from "#server/ids.ts";
import { staffOnlyEventTypes } from "#shared/tickets/ticket-activity.schemas.ts";

export type EventValues = Omit<typeof ticketEvents.$inferInsert, "id">;

export async function insertTicketEvent(db: Db, values: EventValues): Promise<string> {
  const createdAt = values.createdAt ?? new Date();
  const id = newEventId(createdAt.getTime());
  await db.insert(ticketEvents).values({ id, ...values, createdAt });
  return id;
}

export async function insertComment(
  db: Db,
  {
    createdAt,
    ...values
  }: { ticketId: string; authorId: string; message: string; isInternal: boolean; createdAt: Date },
) {
  const [row] = await db
    .insert(ticketComments)
    .values({ id: newCommentId(createdAt.getTime()), ...values, createdAt })
    .returning();
  return row!;
}

export async function upsertFeedback(db: Db, values: typeof ticketFeedback.$inferInsert) {
  const [row] = await db
    .insert(ticketFeedback)
    .values(values)
    .onConflictDoUpdate({
      target: ticketFeedback.ticketId,
      set: {
        rating: values.rating,
        comment: values.comment,
        submittedBy: values.submittedBy,
        submittedAt: values.submittedAt,
      },
    })
    .returning();
  return row!;
}

export async function findFeedback(db: Db, ticketId: string) {
  const [row] = await db.select().from(ticketFeedback).where(eq(ticketFeedback.ticketId, ticketId));
  return row;
}

/** A team's name as it is now, for an "auto_assigned" event's texts (decision 073); null once gone. */
export async function findTeamName(db: Db, teamId: string): Promise<string | null> {
  const [row] = await db.select({ name: teams.name }).from(teams).where(eq(teams.id, teamId));
  return row?.name ?? null;
}

const author = alias(users, "author");
const actor = alias(users, "actor");
const fromAssignee = alias(users, "from_assignee");
const toAssignee = alias(users, "to_assignee");

function selectCommentsWithAuthor(db: Db) {
  return db
    .select({ comment: ticketComments, authorName: author.name })
    .from(ticketComments)
    .leftJoin(author, eq(author.id, ticketComments.authorId));
}

/** `withInternal` only for staff: a user's query never reads an internal note (decision 011). */
export function findComments(db: Db, ticketId: string, { withInternal }: { withInternal: boolean }) {
  return selectCommentsWithAuthor(db)
    .where(
      and(
        eq(ticketComments.ticketId, ticketId),
        withInternal ? undefined : eq(ticketComments.isInternal, false),
      ),
    )
    .orderBy(asc(ticketComments.createdAt), asc(ticketComments.id));
}

export async function findCommentById(db: Db, commentId: string) {
  const [row] = await selectCommentsWithAuthor(db).where(eq(ticketComments.id, commentId));
  return row;
}

/** `withInternal` only for staff: a user's timeline has no internal-note nor escalation events. */
export function findEvents(db: Db, ticketId: string, { withInternal }: { withInternal: boolean }) {
  return db
    .select({
      event: ticketEvents,
      actorName: actor.name,
      message: ticketComments.message,
      fromAssigneeName: fromAssignee.name,
      toAssigneeName: toAssignee.name,
      teamName: teams.name,
    })
    .from(ticketEvents)
    .leftJoin(actor, eq(actor.id, ticketEvents.actorId))
    .leftJoin(fromAssignee, eq(fromAssignee.id, ticketEvents.fromAssigneeId))
    .leftJoin(toAssignee, eq(toAssignee.id, ticketEvents.toAssigneeId))
    .leftJoin(ticketComments, eq(ticketComments.id, ticketEvents.commentId))
    .leftJoin(teams, eq(teams.id, ticketEvents.teamId))
    .where(
      and(
        eq(ticketEvents.ticketId, ticketId),
        withInternal ? undefined : notInArray(ticketEvents.type, [...staffOnlyEventTypes]),
      ),
    )
    .orderBy(asc(ticketEvents.createdAt), asc(ticketEvents.id));
}

/** The escalation job's entries: a due time passing is not someone changing the ticket (decision 072). */
const notChanges = ["sla_warning", "sla_breached"] as const;

/**
 * Whether someone else changed the ticket after the timeline entry `seenEventId` (decision 072): `known`
 * is false when that entry is not one of the ticket's the reader may see; `unseenId` is the newest entry
 * after it by anyone but `actorId` (an automatic closing counts; the escalation job's warnings do not),
 * null when there is none. In the timeline's order: time, then id.
 */
export async function findChangeAfter(
  db: Db,
  ticketId: string,
  seenEventId: string,
  { withInternal, actorId }: { withInternal: boolean; actorId: string },
): Promise<{ known: boolean; unseenId: string | null }> {
  const visible = withInternal ? undefined : notInArray(ticketEvents.type, [...staffOnlyEventTypes]);
  const [seen] = await db
    .select({ id: ticketEvents.id })
    .from(ticketEvents)
    .where(and(eq(ticketEvents.id, seenEventId), eq(ticketEvents.ticketId, ticketId), visible));
  if (!seen) return { known: false, unseenId: null };
  const [newer] = await db
    .select({ id: ticketEvents.id })
    .from(ticketEvents)
    .where(
      and(
        eq(ticketEvents.ticketId, ticketId),
        sql`(${ticketEvents.createdAt}, ${ticketEvents.id}) > (select s.created_at, s.id from ticket_events s where s.id = ${seenEventId})`,
        sql`${ticketEvents.actorId} is distinct from ${actorId}`,
        notInArray(ticketEvents.type, [...notChanges]),
        visible,
      ),
    )
    .orderBy(desc(ticketEvents.createdAt), desc(ticketEvents.id))
    .limit(1);
  return { known: true, unseenId: newer?.id ?? null };
}
