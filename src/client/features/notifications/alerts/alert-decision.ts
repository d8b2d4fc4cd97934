import type { Notification } from "#shared/notifications/notification.schemas.ts";
import {
  alertKey,
  isNewNotification,
  isTechnicianAlert,
  newNotificationWindowMs,
} from "#shared/notifications/notification-alerts.ts";
import type { Role } from "#shared/users/roles.ts";

export type AlertKind = "technician" | "user";

/** Technicians get the loud alert for new tickets and comments; everything else is the user alert. */
export const alertKindFor = (notification: Pick<Notification, "type" | "message">, role: Role | null) =>
  role === "technician" && isTechnicianAlert(notification) ? "technician" : "user";

/**
 * Decides which arriving notifications alert: only new ones (created within 30 s), each notification
 * once, and never the same type and message twice within that window.
 */
export function createAlertGate(now: () => number = Date.now) {
  const seenIds = new Set<string>();
  const keyTimes = new Map<string, number>();

  return function shouldAlert(notification: Notification): boolean {
    if (seenIds.has(notification.notificationId)) return false;
    seenIds.add(notification.notificationId);
    const at = now();
    if (!isNewNotification(notification.timestamp, at)) return false;
    for (const [key, time] of keyTimes) {
      if (at - time > newNotificationWindowMs) keyTimes.delete(key);
    }
    const key = alertKey([notification]);
    if (keyTimes.has(key)) return false;
    keyTimes.set(key, at);
    return true;
  };
}
