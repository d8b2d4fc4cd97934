import type { Db } from "#server/db/client.ts";
import type { NotificationFilter } from "#shared/notifications/notification.schemas.ts";
import {
  countOwnNotifications,
  findLatestOwnNotificationId,
  findOwnNotificationsAfter,
  findOwnNotificationsPage,
  setAllOwnNotificationsRead,
  setOwnNotificationRead,
} from "./notification.queries.ts";
import {
  countAudienceNotifications,
  findAudienceNotificationsAfter,
  findAudienceNotificationsPage,
  findLatestAudienceNotificationId,
  type ReaderNotification,
  setAllAudienceNotificationsRead,
  setAudienceNotificationRead,
} from "./notification-audience.queries.ts";

// A person's notifications are those addressed to them and those addressed to an audience they belong to
// (decision 068), each read or unread for them alone. This is the one place that puts the two together;
// the list, the counts, Mark as read and the live stream's replay all read through it.

/** Two id-ordered reads of at most `limit` each, as one: the first `limit` in that order. */
function merged(
  own: ReaderNotification[],
  addressed: ReaderNotification[],
  order: "asc" | "desc",
  limit: number,
) {
  if (addressed.length === 0) return own;
  const sign = order === "asc" ? 1 : -1;
  return [...own, ...addressed].sort((a, b) => sign * (a.id - b.id)).slice(0, limit);
}

/** Newest first, keyset on id: a page of each kind, merged. */
export async function findReaderNotificationsPage(
  db: Db,
  query: { userId: string; filter: NotificationFilter; beforeId?: number; limit: number },
): Promise<ReaderNotification[]> {
  const [own, addressed] = await Promise.all([
    findOwnNotificationsPage(db, query),
    findAudienceNotificationsPage(db, query),
  ]);
  return merged(own, addressed, "desc", query.limit);
}

/** Replay after a dropped stream: what came after `afterId`, oldest first. */
export async function findReaderNotificationsAfter(
  db: Db,
  userId: string,
  afterId: number,
  limit: number,
): Promise<ReaderNotification[]> {
  const [own, addressed] = await Promise.all([
    findOwnNotificationsAfter(db, userId, afterId, limit),
    findAudienceNotificationsAfter(db, userId, afterId, limit),
  ]);
  return merged(own, addressed, "asc", limit);
}

/** Where a new stream stands: the newest notification id the person may see, or null when they have none. */
export async function findLatestReaderNotificationId(db: Db, userId: string): Promise<number | null> {
  const ids = await Promise.all([
    findLatestOwnNotificationId(db, userId),
    findLatestAudienceNotificationId(db, userId),
  ]);
  return ids.reduce<number | null>((latest, id) => (id === null ? latest : Math.max(latest ?? id, id)), null);
}

export async function countReaderNotifications(db: Db, userId: string) {
  const [own, addressed] = await Promise.all([
    countOwnNotifications(db, userId),
    countAudienceNotifications(db, userId),
  ]);
  const all = own.all + addressed.all;
  const unread = own.unread + addressed.unread;
  return { all, unread, read: all - unread };
}

/** Marks one read for the person, as they see it; nothing when it is not theirs to see. */
export async function setReaderNotificationRead(db: Db, userId: string, id: number, at: Date) {
  return (
    (await setOwnNotificationRead(db, userId, id, at)) ??
    (await setAudienceNotificationRead(db, userId, id, at))
  );
}

/** Mark All as Read: the person's rows and their marks in each audience; how many were unread. */
export async function setAllReaderNotificationsRead(db: Db, userId: string, at: Date): Promise<number> {
  return (
    (await setAllOwnNotificationsRead(db, userId, at)) + (await setAllAudienceNotificationsRead(db, userId))
  );
}
