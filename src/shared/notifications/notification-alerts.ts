// Zod-free on purpose: the live-stream code that decides on alerts loads with the app shell.
// Constants for notifications and the alerts they raise (docs/features.md, "Notifications").

import type { Notification } from "./notification.schemas.ts";

/** A notification counts as new for 30 s after it was created; only new ones alert. */
export const newNotificationWindowMs = 30_000;
/** When the live stream fails, the list is polled every 2 s until the stream is back. */
export const pollingFallbackMs = 2_000;
/** Fetches are retried up to 2 times, 2 s × attempt apart, for network, connection or QUIC problems. */
export const fetchRetries = 2;
export const fetchRetryDelayMs = (attempt: number) => 2_000 * attempt;

export const technicianAlert = {
  /** The alert sound plays at full volume for up to 15 s. */
  soundMaxMs: 15_000,
  volume: 1,
  /** If the sound cannot play: a beep of at most 2 s. */
  fallbackBeepMaxMs: 2_000,
  /** One retry, 1 s after a failure to play. */
  retryDelayMs: 1_000,
  retries: 1,
  /** Red toast, top centre, 10 s. */
  toastMs: 10_000,
  newTicketText: "NEW TICKET CREATED - 15 second alert for technician",
  newCommentText: "NEW COMMENT ON TICKET - 15 second alert for technician",
} as const;

export const userAlert = {
  beep: { durationMs: 200, type: "square" as OscillatorType, frequency: 880, gain: 0.1 },
  toastText: "New notification received",
} as const;

/** /test-notifications default beep: 200 ms, 800 Hz sine, gain 0.1. */
export const testBeep = {
  durationMs: 200,
  type: "sine" as OscillatorType,
  frequency: 800,
  gain: 0.1,
} as const;

type AlertFacts = Pick<Notification, "type" | "message">;

/** Only new_ticket and ticket_comment notifications (or messages saying so) alert technicians. */
export function isTechnicianAlert({ type, message }: AlertFacts): boolean {
  if (type === "new_ticket" || type === "ticket_comment") return true;
  const text = message.toLowerCase();
  return text.includes("ticket created") || text.includes("commented on ticket");
}

/** The red toast's text for a technician alert. */
export function technicianAlertText(notification: AlertFacts): string {
  const isComment =
    notification.type === "ticket_comment" ||
    notification.message.toLowerCase().includes("commented on ticket");
  return isComment ? technicianAlert.newCommentText : technicianAlert.newTicketText;
}

/** Duplicate alerts are suppressed by a key built from the notifications' types and messages. */
export function alertKey(notifications: readonly AlertFacts[]): string {
  return notifications.map((n) => `${n.type}:${n.message}`).join("|");
}

/** Whether a notification is still "new" (created within the last 30 s) at `now`. */
export function isNewNotification(timestamp: string, now: number): boolean {
  const age = now - new Date(timestamp).getTime();
  return age >= 0 ? age <= newNotificationWindowMs : true;
}

/** A failed fetch is retried only when its error speaks of the network, a connection or QUIC. */
export function isRetryableFetchError(message: string): boolean {
  return /network|connection|quic/i.test(message);
}

/** What the notification list says when it cannot load. */
export function notificationListErrorText(error: {
  code?: string;
  status?: number;
  message: string;
}): string {
  if (
    error.code === "forbidden" ||
    error.code === "unauthenticated" ||
    error.status === 401 ||
    error.status === 403
  )
    return "Permission denied. Please check your authentication.";
  if (error.code === "unavailable" || error.status === 503)
    return "Service temporarily unavailable. Please try again.";
  if (error.status === 0 || /network|connection/i.test(error.message))
    return "Network connection error. Please check your internet connection.";
  return error.message;
}
