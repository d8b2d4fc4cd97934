import type {
  CreateNotificationInput,
  ListNotificationsQuery,
  Notification,
  NotificationCounts,
  NotificationPage,
} from "#shared/notifications/notification.schemas.ts";
import { notificationIdSchema } from "#shared/notifications/notification.schemas.ts";
import type { ServiceContext } from "../../context.ts";
import { forbidden, notFound, validationFailed } from "../../errors.ts";
import { findUserById } from "../users/user.queries.ts";
import { toNotificationDto } from "./notification.presenter.ts";
import {
  countNotifications,
  findNotificationsPage,
  insertNotifications,
  setAllNotificationsRead,
  setNotificationRead,
} from "./notification.queries.ts";

/** The caller's own notifications only (spec §7: where uid equals the user id), newest first. */
export async function listNotificationsFor(
  ctx: ServiceContext,
  query: ListNotificationsQuery,
): Promise<NotificationPage> {
  const rows = await findNotificationsPage(ctx.db, {
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
  return countNotifications(ctx.db, ctx.actor.id);
}

/** Another person's notification does not exist for the caller: 404, like a ticket they may not see. */
export async function markAsRead(ctx: ServiceContext, notificationId: string): Promise<Notification> {
  const id = Number(notificationId);
  const row = Number.isSafeInteger(id)
    ? await setNotificationRead(ctx.db, ctx.actor.id, id, new Date())
    : undefined;
  if (!row) throw notFound("Notification", notificationId);
  return toNotificationDto(row);
}

/** Mark All as Read touches the caller's rows only: a broadcast stays unread for the other technicians. */
export async function markAllAsRead(ctx: ServiceContext): Promise<{ updated: number }> {
  return { updated: await setAllNotificationsRead(ctx.db, ctx.actor.id, new Date()) };
}

/** /debug-notifications: a person creates notifications for themselves; an administrator for anyone. */
export async function createNotification(
  ctx: ServiceContext,
  input: CreateNotificationInput,
): Promise<Notification> {
  if (input.uid !== ctx.actor.id) {
    if (ctx.actor.role !== "admin") throw forbidden("You can only create notifications for yourself");
    if (!(await findUserById(ctx.db, input.uid))) throw notFound("User", input.uid);
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
