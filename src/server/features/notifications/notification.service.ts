import type { ServiceContext } from "#server/context.ts";
import { forbidden, notFound, ruleViolation, validationFailed } from "#server/errors.ts";
import type {
  CreateNotificationInput,
  ListNotificationsQuery,
  Notification,
  NotificationCounts,
  NotificationPage,
} from "#shared/notifications/notification.schemas.ts";
import { notificationIdSchema } from "#shared/notifications/notification.schemas.ts";
import { toNotificationDto } from "./notification.presenter.ts";
import { insertNotifications } from "./notification.queries.ts";
import {
  countReaderNotifications,
  findReaderNotificationsPage,
  setAllReaderNotificationsRead,
  setReaderNotificationRead,
} from "./reader-notifications.queries.ts";

/**
 * The caller's notifications, newest first: those addressed to them and to an audience they belong to
 * (decision 068), each read or unread for them alone.
 */
export async function listNotificationsFor(
  ctx: ServiceContext,
  query: ListNotificationsQuery,
): Promise<NotificationPage> {
  const rows = await findReaderNotificationsPage(ctx.db, {
    userId: ctx.actor.id,
    filter: query.filter,
    beforeId: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toNotificationDto),
    nextCursor: rows.length > query.limit && last ? String(last.id) : null,
  };
}

export function countNotificationsFor(ctx: ServiceContext): Promise<NotificationCounts> {
  return countReaderNotifications(ctx.db, ctx.actor.id);
}

/** Another person's notification does not exist for the caller: 404, like a ticket they may not see. */
export async function markAsRead(ctx: ServiceContext, notificationId: string): Promise<Notification> {
  const id = Number(notificationId);
  const row = Number.isSafeInteger(id)
    ? await setReaderNotificationRead(ctx.db, ctx.actor.id, id, new Date())
    : undefined;
  if (!row) throw notFound("Notification", notificationId);
  return toNotificationDto(row);
}

/** Mark All as Read touches the caller's read state only: a broadcast stays unread for the other technicians. */
export async function markAllAsRead(ctx: ServiceContext): Promise<{ updated: number }> {
  return { updated: await setAllReaderNotificationsRead(ctx.db, ctx.actor.id, new Date()) };
}

/**
 * /debug-notifications: a person sends themselves a test notification, to check their bell, sounds and live
 * stream. Only themselves, administrators too: a message in someone else's bell reads as the app's own.
 * Only the test type: the others are the app's news about tickets, and one made by hand is news of none.
 */
export async function createNotification(
  ctx: ServiceContext,
  input: CreateNotificationInput,
): Promise<Notification> {
  if (input.uid !== ctx.actor.id) throw forbidden("You can only create notifications for yourself");
  if (input.type !== "test") {
    throw ruleViolation("Only test notifications can be created here; the others come from tickets.");
  }
  const [row] = await insertNotifications(ctx.db, [
    { userId: input.uid, type: input.type, message: input.message, broadcast: false },
  ]);
  ctx.dispatcher?.dispatch([{ kind: "notifications", ids: [row!.id] }]);
  return toNotificationDto(row!);
}

function decodeCursor(cursor: string): number {
  if (!notificationIdSchema.safeParse(cursor).success || !Number.isSafeInteger(Number(cursor)))
    throw validationFailed("cursor: Not a valid page cursor");
  return Number(cursor);
}
