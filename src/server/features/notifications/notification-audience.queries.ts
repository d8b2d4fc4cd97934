import { and, eq, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  type NotificationAudience,
  type NotificationRow,
  notificationAudienceMembers,
  notificationReads,
  notifications,
} from "#server/db/schema/index.ts";
import type { NotificationFilter } from "#shared/notifications/notification.schemas.ts";

/**
 * A notification as one reader sees it: `userId` is the reader, `readAt` their own read state. A row
 * addressed to the person is that already; an audience's row (decision 068) is made so for each reader.
 */
export type ReaderNotification = Omit<NotificationRow, "userId"> & { userId: string };

export function readerOf(row: NotificationRow): ReaderNotification {
  return row as ReaderNotification;
}

/** An audience's row for one of its members, unread (what the push sends when it is new). */
export function audienceRowFor(row: NotificationRow, readerId: string): ReaderNotification {
  return { ...row, userId: readerId, readAt: null };
}

const members = notificationAudienceMembers;

/** Of `userIds`, the members of `audience` who may see its notification `id` (they had joined by then). */
export async function findAudienceMembersAmong(
  db: Db,
  audience: NotificationAudience,
  id: number,
  userIds: readonly string[],
): Promise<string[]> {
  const rows = await db
    .select({ userId: members.userId })
    .from(members)
    .where(
      and(
        eq(members.audience, audience),
        lt(members.afterId, id),
        sql`${members.userId} = any(${sql.param(userIds)}::text[])`,
      ),
    );
  return rows.map((row) => row.userId);
}
const n = notifications;

/** Whether anyone is in the audience (a team with no active technician in it has no one). */
export async function hasAudienceMembers(db: Db, audience: NotificationAudience): Promise<boolean> {
  const [row] = await db
    .select({ userId: members.userId })
    .from(members)
    .where(eq(members.audience, audience))
    .limit(1);
  return row !== undefined;
}

/** Raw rows (db.execute) as the query builder would give them: each driver types a few columns its own way. */
interface RawRow {
  id: string | number;
  type: NotificationRow["type"];
  message: string;
  params: NotificationRow["params"] | string | null;
  ticket_id: string | null;
  event_id: string | null;
  audience: NotificationRow["audience"];
  except_user_id: string | null;
  created_at: string | Date;
  read_at: string | Date | null;
}
const dateOf = (value: string | Date) => (value instanceof Date ? value : new Date(value));

function rowOf(raw: RawRow, readerId: string): ReaderNotification {
  return {
    id: Number(raw.id),
    userId: readerId,
    audience: raw.audience,
    exceptUserId: raw.except_user_id,
    type: raw.type,
    message: raw.message,
    params: typeof raw.params === "string" ? JSON.parse(raw.params) : raw.params,
    ticketId: raw.ticket_id,
    eventId: raw.event_id,
    broadcast: true,
    readAt: raw.read_at === null ? null : dateOf(raw.read_at),
    createdAt: dateOf(raw.created_at),
  };
}

const rowsOf = (result: unknown, readerId: string) =>
  (result as { rows: RawRow[] }).rows.map((raw) => rowOf(raw, readerId));

/**
 * Each audience the reader belongs to, joined (LATERAL) to its notifications they may see: sent since they
 * joined, not caused by themselves. Per audience the rows come through notifications_audience_idx in id
 * order from the member's own bounds, so a page reads no more than it shows.
 */
function visibleRows(readerId: string, { where, order, limit }: { where?: SQL; order: SQL; limit: number }) {
  return sql`
    select v.* from ${members} m
    cross join lateral (
      select ${n.id}, ${n.type}, ${n.message}, ${n.params}, ${n.ticketId}, ${n.eventId}, ${n.audience},
             ${n.exceptUserId}, ${n.createdAt},
             case when ${n.id} <= m.read_up_to_id then ${n.createdAt}
                  else (select r.read_at from ${notificationReads} r
                        where r.user_id = ${readerId} and r.notification_id = ${n.id}) end as read_at
      from ${n}
      where ${n.audience} = m.audience and ${n.id} > m.after_id
        and ${n.exceptUserId} is distinct from ${readerId}
        ${where ? sql`and ${where}` : sql``}
      order by ${n.id} ${order}
      limit ${limit}) v
    where m.user_id = ${readerId}
    order by v.id ${order}
    limit ${limit}`;
}

const isReadByMark = sql`${n.id} <= m.read_up_to_id`;
const hasReadMark = (readerId: string) =>
  sql`exists (select 1 from ${notificationReads} r where r.user_id = ${readerId} and r.notification_id = ${n.id})`;

const audienceFilter = (readerId: string): Record<NotificationFilter, SQL | undefined> => ({
  all: undefined,
  unread: sql`${n.id} > m.read_up_to_id and not ${hasReadMark(readerId)}`,
  read: sql`(${isReadByMark} or ${hasReadMark(readerId)})`,
});

/** The reader's audience notifications, newest first, keyset on id: the other half of their list. */
export async function findAudienceNotificationsPage(
  db: Db,
  query: { userId: string; filter: NotificationFilter; beforeId?: number; limit: number },
): Promise<ReaderNotification[]> {
  const filter = audienceFilter(query.userId)[query.filter];
  const before = query.beforeId === undefined ? undefined : sql`${n.id} < ${query.beforeId}`;
  const where = filter && before ? sql`${filter} and ${before}` : (filter ?? before);
  return rowsOf(
    await db.execute(visibleRows(query.userId, { where, order: sql.raw("desc"), limit: query.limit })),
    query.userId,
  );
}

/** Replay after a dropped stream: the reader's audience notifications after `afterId`, oldest first. */
export async function findAudienceNotificationsAfter(
  db: Db,
  userId: string,
  afterId: number,
  limit: number,
): Promise<ReaderNotification[]> {
  return rowsOf(
    await db.execute(visibleRows(userId, { where: sql`${n.id} > ${afterId}`, order: sql.raw("asc"), limit })),
    userId,
  );
}

/**
 * How many of the audiences' notifications the reader may see, and how many of those are unread: index
 * scans from their own bounds (notifications_audience_idx carries except_user_id), and their read marks.
 */
export async function countAudienceNotifications(db: Db, userId: string) {
  const result = await db.execute<{ all: number | string; unread: number | string }>(sql`
    select coalesce(sum(c.all_count), 0)::int as all, coalesce(sum(c.unread_count), 0)::int as unread
    from ${members} m
    cross join lateral (
      select count(*) as all_count,
             count(*) filter (where ${n.id} > m.read_up_to_id and not ${hasReadMark(userId)}) as unread_count
      from ${n}
      where ${n.audience} = m.audience and ${n.id} > m.after_id and ${n.exceptUserId} is distinct from ${userId}) c
    where m.user_id = ${userId}`);
  const row = (result as unknown as { rows: Array<{ all: number | string; unread: number | string }> })
    .rows[0];
  return { all: Number(row?.all ?? 0), unread: Number(row?.unread ?? 0) };
}

/**
 * Marks one audience notification read for the reader, if they may see it: a read mark of their own, the
 * first one kept. Answers with it as they see it, or nothing when it is not theirs to see.
 */
export async function setAudienceNotificationRead(
  db: Db,
  userId: string,
  id: number,
  at: Date,
): Promise<ReaderNotification | undefined> {
  await db.execute(sql`
    insert into ${notificationReads} (user_id, notification_id, read_at)
    select ${userId}, ${n.id}, ${at.toISOString()}::timestamptz
    from ${n} join ${members} m on m.user_id = ${userId} and m.audience = ${n.audience}
    where ${n.id} = ${id} and ${n.id} > m.read_up_to_id and ${n.exceptUserId} is distinct from ${userId}
    on conflict do nothing`);
  const [row] = rowsOf(
    await db.execute(visibleRows(userId, { where: sql`${n.id} = ${id}`, order: sql.raw("desc"), limit: 1 })),
    userId,
  );
  return row;
}

/**
 * Mark All as Read for the audiences: each of the reader's marks moves up to the audience's newest
 * notification (one row each, however many there were). Returns how many were unread.
 */
export async function setAllAudienceNotificationsRead(db: Db, userId: string): Promise<number> {
  const { unread } = await countAudienceNotifications(db, userId);
  // Moved even when nothing is unread (all read one by one): retention goes by the marks.
  await db.execute(sql`
    update ${members} m
    set read_up_to_id = greatest(m.read_up_to_id,
      coalesce((select max(${n.id}) from ${n} where ${n.audience} = m.audience), 0))
    where m.user_id = ${userId}`);
  await db.execute(
    sql`delete from ${notificationReads} r using ${members} m, ${n}
        where r.user_id = ${userId} and ${n.id} = r.notification_id
          and m.user_id = r.user_id and m.audience = ${n.audience} and r.notification_id <= m.read_up_to_id`,
  );
  return unread;
}

/** The newest notification id the reader may see among the audiences' (where a new stream stands). */
export async function findLatestAudienceNotificationId(db: Db, userId: string): Promise<number | null> {
  const [row] = rowsOf(await db.execute(visibleRows(userId, { order: sql.raw("desc"), limit: 1 })), userId);
  return row?.id ?? null;
}
