import type { Notification } from "#shared/notifications/notification.schemas.ts";
import type { NotificationRow } from "../../db/schema/index.ts";

export function toNotificationDto(row: NotificationRow): Notification {
  return {
    notificationId: String(row.id),
    uid: row.userId,
    type: row.type,
    message: row.message,
    ticketId: row.ticketId,
    broadcast: row.broadcast,
    read: row.readAt !== null,
    timestamp: row.createdAt.toISOString(),
  };
}
