import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  type NotificationAudience,
  type NotificationRow,
  notificationAudienceMembers,
  notificationSettings,
  notifications,
  users,
} from "#server/db/schema/index.ts";
import type {
  EmailableNotificationType,
  NotificationFilter,
  NotificationParams,
  NotificationType,
} from "#shared/notifications/notification.schemas.ts";
import { type ReaderNotification, readerOf } from "./notification-audience.queries.ts";
import { wantsMail } from "./notification-mail.queries.ts";

type NotificationValues = Omit<typeof notifications.$inferInsert, "id" | "audience" | "exceptUserId"> & {
  userId: string;
};

/** Rows addressed to one person each. */
export async function insertNotifications(
  db: Db,
  values: NotificationValues[],
): Promise<ReaderNotification[]> {
  if (values.length === 0) return [];
  return (await db.insert(notifications).values(values).returning()).map(readerOf);
}

/**
 * A notification to a whole audience ("to technicians"): one row, whatever the audience's size (decision
 * 066); each reader's read state is kept apart. Answers with its id and, when `mailType` is set, the members
 * who want it by e-mail (wantsMail; usually none, new-ticket e-mails are a choice), but the one who caused it.
 * One statement.
 */
export async function insertAudienceNotification(
  db: Db,
  values: {
    audience: NotificationAudience;
    type: NotificationType;
    message: string;
    params: NotificationParams;
    ticketId: string;
    eventId: string | null;
    createdAt: Date;
    exceptUserId: string | null;
    mailType: EmailableNotificationType | null;
  },
): Promise<{ id: string; mailTo: string[] }> {
  const result = await db.execute<{ id: string | number; user_id: string | null }>(sql`
    with inserted as (
      insert into ${notifications} (audience, except_user_id, type, message, params, ticket_id, event_id, broadcast, created_at)
      values (${values.audience}, ${values.exceptUserId}, ${values.type}::notification_type, ${values.message},
              ${JSON.stringify(values.params)}::jsonb, ${values.ticketId}, ${values.eventId}, true,
              ${values.createdAt.toISOString()}::timestamptz)
      returning id)
    select i.id, u.id as user_id
    from inserted i
    left join (${notificationAudienceMembers} m
               join ${users} u on u.id = m.user_id
               left join ${notificationSettings} s on s.user_id = u.id)
      on ${
        values.mailType === null
          ? sql`false`
          : sql`m.audience = ${values.audience} and u.id is distinct from ${values.exceptUserId}
                and ${wantsMail(values.mailType, sql`u`, sql`s`)}`
      }
    order by u.id`);
  const rows = (result as unknown as { rows: Array<{ id: string | number; user_id: string | null }> }).rows;
  return {
    id: String(rows[0]!.id),
    mailTo: rows.flatMap((row) => (row.user_id === null ? [] : [row.user_id])),
  };
}

const filterWhere: Record<NotificationFilter, SQL | undefined> = {
  all: undefined,
  unread: isNull(notifications.readAt),
  read: isNotNull(notifications.readAt),
};

/** The rows addressed to the person, newest first, keyset on id (never OFFSET); a partial index per filter. */
export async function findOwnNotificationsPage(
  db: Db,
  query: { userId: string; filter: NotificationFilter; beforeId?: number; limit: number },
): Promise<ReaderNotification[]> {
  const rows = await db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, query.userId),
        filterWhere[query.filter],
        query.beforeId === undefined ? undefined : lt(notifications.id, query.beforeId),
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(query.limit);
  return rows.map(readerOf);
}

/** Two index-only counts of the rows addressed to the person (all; unread from the partial index). */
export async function countOwnNotifications(db: Db, userId: string) {
  const [row] = await db
    .select({
      all: sql<number>`(select count(*) from ${notifications} where ${notifications.userId} = ${userId})::int`,
      unread: sql<number>`(select count(*) from ${notifications} where ${notifications.userId} = ${userId} and ${notifications.readAt} is null)::int`,
    })
    .from(sql`(select 1) as one`);
  return row!;
}

/** Marks one of the person's own rows read (an already read one keeps its first read time). */
export async function setOwnNotificationRead(db: Db, userId: string, id: number, at: Date) {
  const [row] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${at.toISOString()}::timestamptz)` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning();
  return row && readerOf(row);
}

export async function setAllOwnNotificationsRead(db: Db, userId: string, at: Date): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

// The people connected to an instance go as one array parameter: a list of a thousand parameters costs the
// app (drizzle builds each) and PostgreSQL (parses each) far more than the query itself.
const userIn = (userIds: readonly string[]) =>
  sql`${notifications.userId} = any(${sql.param(userIds)}::text[])`;

/**
 * The rows of one ticket event meant for the given people (those with a stream on this instance), and the
 * event's audience row, if it has one: who of the connected people it reaches is the stream hub's to say.
 */
export function findNotificationsOfEvent(
  db: Db,
  eventId: string,
  userIds: readonly string[],
): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.eventId, eventId),
        sql`(${userIn(userIds)} or ${notifications.audience} is not null)`,
      ),
    )
    .orderBy(asc(notifications.id));
}

export async function findNotificationsByIds(
  db: Db,
  ids: number[],
  userIds: readonly string[],
): Promise<ReaderNotification[]> {
  const rows = await db
    .select()
    .from(notifications)
    .where(and(inArray(notifications.id, ids), userIn(userIds)))
    .orderBy(asc(notifications.id));
  return rows.map(readerOf);
}

/** Replay after a dropped stream: the person's own rows after the last one they received, oldest first. */
export async function findOwnNotificationsAfter(
  db: Db,
  userId: string,
  afterId: number,
  limit: number,
): Promise<ReaderNotification[]> {
  const rows = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), gt(notifications.id, afterId)))
    .orderBy(asc(notifications.id))
    .limit(limit);
  return rows.map(readerOf);
}

export async function findLatestOwnNotificationId(db: Db, userId: string): Promise<number | null> {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id))
    .limit(1);
  return row?.id ?? null;
}
