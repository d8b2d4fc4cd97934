import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { type NotificationRow, notificationSettings, notifications, users } from "#server/db/schema/index.ts";
import type {
  EmailableNotificationType,
  NotificationFilter,
  NotificationParams,
  NotificationType,
} from "#shared/notifications/notification.schemas.ts";
import { wantsMail } from "./notification-mail.queries.ts";

type NotificationValues = Omit<typeof notifications.$inferInsert, "id">;

export async function insertNotifications(db: Db, values: NotificationValues[]): Promise<NotificationRow[]> {
  if (values.length === 0) return [];
  return db.insert(notifications).values(values).returning();
}

/**
 * A broadcast "to technicians" fanned out in one statement: one row per technician who is active now, each
 * with its own read state, built by PostgreSQL from the technicians (no row crosses the wire). Returns, of
 * those rows, the ones whose technician wants it by e-mail (`mailType`, wantsMail): usually none, as new-ticket
 * e-mails are a choice; nothing when `mailType` is null (mail is off).
 */
export async function insertBroadcastToTechnicians(
  db: Db,
  values: {
    type: NotificationType;
    message: string;
    params: NotificationParams;
    ticketId: string;
    eventId: string;
    createdAt: Date;
    exceptUserId: string | null;
    mailType: EmailableNotificationType | null;
  },
): Promise<Array<{ id: string; userId: string }>> {
  const result = await db.execute<{ id: string | number; user_id: string }>(sql`
    with inserted as (
      insert into ${notifications} (user_id, type, message, params, ticket_id, event_id, broadcast, created_at)
      select ${users.id}, ${values.type}::notification_type, ${values.message},
             ${JSON.stringify(values.params)}::jsonb, ${values.ticketId},
             ${values.eventId}, true, ${values.createdAt.toISOString()}::timestamptz
      from ${users}
      where ${users.role} = 'technician' and ${users.status} = 'Active'
        and ${users.id} is distinct from ${values.exceptUserId}
      returning id, user_id)
    select i.id, i.user_id
    from inserted i
    ${
      values.mailType === null
        ? sql`where false`
        : sql`join ${users} u on u.id = i.user_id
              left join ${notificationSettings} s on s.user_id = i.user_id
              where ${wantsMail(values.mailType, sql`u`, sql`s`)}`
    }
    order by i.id`);
  const rows = (result as unknown as { rows: Array<{ id: string | number; user_id: string }> }).rows;
  return rows.map((row) => ({ id: String(row.id), userId: row.user_id }));
}

const filterWhere: Record<NotificationFilter, SQL | undefined> = {
  all: undefined,
  unread: isNull(notifications.readAt),
  read: isNotNull(notifications.readAt),
};

/** Newest first, keyset on id (never OFFSET); each filter has a partial index in this order. */
export function findNotificationsPage(
  db: Db,
  query: { userId: string; filter: NotificationFilter; beforeId?: number; limit: number },
) {
  return db
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
}

/** Two index-only counts (all; unread from the partial index); read is their difference. */
export async function countNotifications(db: Db, userId: string) {
  const [row] = await db
    .select({
      all: sql<number>`(select count(*) from ${notifications} where ${notifications.userId} = ${userId})::int`,
      unread: sql<number>`(select count(*) from ${notifications} where ${notifications.userId} = ${userId} and ${notifications.readAt} is null)::int`,
    })
    .from(sql`(select 1) as one`);
  const { all, unread } = row!;
  return { all, unread, read: all - unread };
}

/** Marks one of the person's own notifications read (an already read one keeps its first read time). */
export async function setNotificationRead(db: Db, userId: string, id: number, at: Date) {
  const [row] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${at.toISOString()}::timestamptz)` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning();
  return row;
}

export async function setAllNotificationsRead(db: Db, userId: string, at: Date): Promise<number> {
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

/** The rows of one ticket event meant for the given people (those with a stream on this instance). */
export function findNotificationsOfEvent(db: Db, eventId: string, userIds: readonly string[]) {
  return db
    .select()
    .from(notifications)
    .where(and(eq(notifications.eventId, eventId), userIn(userIds)))
    .orderBy(asc(notifications.id));
}

export function findNotificationsByIds(db: Db, ids: number[], userIds: readonly string[]) {
  return db
    .select()
    .from(notifications)
    .where(and(inArray(notifications.id, ids), userIn(userIds)))
    .orderBy(asc(notifications.id));
}

/** Replay after a dropped stream: the person's rows after the last one they received, oldest first. */
export function findNotificationsAfter(db: Db, userId: string, afterId: number, limit: number) {
  return db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), gt(notifications.id, afterId)))
    .orderBy(asc(notifications.id))
    .limit(limit);
}

export async function findLatestNotificationId(db: Db, userId: string): Promise<number | null> {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id))
    .limit(1);
  return row?.id ?? null;
}
