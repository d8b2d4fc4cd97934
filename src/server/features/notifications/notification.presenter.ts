import {
  type Notification,
  type NotificationParams,
  notificationParamsSchema,
} from "#shared/notifications/notification.schemas.ts";
import type { ReaderNotification } from "./notification-audience.queries.ts";

/**
 * A row's params when they are a kind this version knows; otherwise null, and the reader sees `message`
 * (a row written by a newer instance during a rolling restart must not make the list fail).
 */
function knownParams(params: NotificationParams | null): NotificationParams | null {
  if (params === null) return null;
  const parsed = notificationParamsSchema.safeParse(params);
  return parsed.success ? parsed.data : null;
}

/** A notification as its reader sees it: `uid` is the reader, also on a row addressed to an audience. */
export function toNotificationDto(row: ReaderNotification): Notification {
  return {
    notificationId: String(row.id),
    uid: row.userId,
    type: row.type,
    message: row.message,
    params: knownParams(row.params),
    ticketId: row.ticketId,
    broadcast: row.broadcast,
    read: row.readAt !== null,
    timestamp: row.createdAt.toISOString(),
  };
}
