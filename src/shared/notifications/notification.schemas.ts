import { z } from "zod";
import { storableText } from "../text/storable-text.ts";

/**
 * One type per trigger (spec §3 names new_ticket and ticket_comment; the others are ours).
 * `test` is what /debug-notifications creates for the person using it.
 */
export const notificationTypes = [
  "new_ticket",
  "ticket_comment",
  "ticket_status",
  "ticket_assigned",
  "ticket_feedback",
  "internal_note",
  "mentioned",
  "ticket_edited",
  "sla_warning",
  "sla_breached",
  "ticket_auto_closed",
  "test",
] as const;
export type NotificationType = (typeof notificationTypes)[number];

/** What each type is called where a person chooses which types also reach them by e-mail. */
export const notificationTypeLabels: Record<NotificationType, string> = {
  new_ticket: "New tickets (technicians)",
  ticket_comment: "Comments on my tickets",
  ticket_status: "Status changes on my tickets",
  ticket_assigned: "My ticket was assigned",
  ticket_feedback: "Feedback on tickets I handled",
  internal_note: "Internal notes on tickets I handle",
  mentioned: "Someone mentioned me (staff)",
  ticket_edited: "Corrections to my tickets' details",
  sla_warning: "A service-level target is due soon (staff)",
  sla_breached: "A service-level target was missed (staff)",
  ticket_auto_closed: "My resolved tickets closed automatically",
  test: "Test notifications",
};

/** The types a person may receive by e-mail, and those on by default for a new account. */
export const emailableNotificationTypes = [
  "new_ticket",
  "ticket_comment",
  "ticket_status",
  "ticket_assigned",
  "ticket_feedback",
  "internal_note",
  "mentioned",
  "ticket_edited",
  "sla_warning",
  "sla_breached",
  "ticket_auto_closed",
] as const satisfies readonly NotificationType[];
export type EmailableNotificationType = (typeof emailableNotificationTypes)[number];
export const defaultEmailNotificationTypes: EmailableNotificationType[] = [
  "ticket_comment",
  "ticket_status",
  "ticket_assigned",
  "ticket_feedback",
  "internal_note",
  "mentioned",
  "ticket_edited",
  "sla_warning",
  "sla_breached",
  "ticket_auto_closed",
];

/**
 * A notification as its recipient sees it. `uid` is the recipient (every row has exactly one: a broadcast
 * "to technicians" is stored once per technician, each with its own read state; `broadcast` says it was one).
 * `notificationId` is also the live stream's event id: ids only grow, so `Last-Event-ID` replays what was missed.
 */
export const notificationSchema = z.object({
  notificationId: z.string(),
  uid: z.string(),
  type: z.enum(notificationTypes),
  message: z.string(),
  ticketId: z.string().nullable(),
  broadcast: z.boolean(),
  read: z.boolean(),
  timestamp: z.iso.datetime(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationFilters = ["all", "unread", "read"] as const;
export type NotificationFilter = (typeof notificationFilters)[number];
export const notificationPageSize = 25;

/** GET /api/notifications: the caller's own notifications, newest first, keyset-paginated. */
export const listNotificationsQuerySchema = z.object({
  filter: z.enum(notificationFilters).default("all"),
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(notificationPageSize),
});
export type ListNotificationsQuery = z.infer<typeof listNotificationsQuerySchema>;

export const notificationPageSchema = z.object({
  items: z.array(notificationSchema),
  nextCursor: z.string().nullable(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

/** GET /api/notifications/counts: the tab counts of /notifications and the bell's badge (unread). */
export const notificationCountsSchema = z.object({
  all: z.number().int(),
  unread: z.number().int(),
  read: z.number().int(),
});
export type NotificationCounts = z.infer<typeof notificationCountsSchema>;

/** Spec §5: creating a notification requires a user id and a message, with exactly these errors. */
export const createNotificationInputSchema = z.object({
  uid: storableText(
    z
      .string({ error: "User ID is required" })
      .trim()
      .min(1, "User ID is required")
      .max(100, "User ID is too long"),
    "User ID",
  ),
  message: storableText(
    z
      .string({ error: "Message is required" })
      .trim()
      .min(1, "Message is required")
      .max(500, "Message must be at most 500 characters"),
    "Message",
  ),
  type: z.enum(notificationTypes, { error: "Type is not a notification type" }).default("test"),
});
export type CreateNotificationInput = z.infer<typeof createNotificationInputSchema>;

export const notificationIdSchema = z.string().regex(/^[1-9]\d{0,18}$/, "Not a notification id");

/**
 * Where a live stream resumes (Last-Event-ID, ?lastEventId=): a notification id, or 0 when the person had
 * none as the stream opened, so that everything of theirs since is replayed.
 */
export const streamPositionSchema = z.string().regex(/^(0|[1-9]\d{0,18})$/, "Not a stream position");

/** POST /api/notifications/read-all answers how many of the caller's notifications it marked. */
export const markAllReadResultSchema = z.object({ updated: z.number().int() });

/** GET/PUT /api/me/notification-settings. */
export const notificationSettingsSchema = z.object({
  emailTypes: z.array(z.enum(emailableNotificationTypes)),
  soundsMuted: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** POST /api/notifications/unsubscribe: the signed token of a mail's unsubscribe link; no sign-in needed. */
export const unsubscribeInputSchema = z.object({
  token: z.string().min(1, "The unsubscribe link is incomplete").max(500),
});
export const unsubscribeResultSchema = z.object({
  email: z.string(),
  type: z.enum(emailableNotificationTypes),
});
export type UnsubscribeResult = z.infer<typeof unsubscribeResultSchema>;

/**
 * The live stream (GET /api/notifications/stream, Server-Sent Events):
 * - `notification`: id = notificationId, data = a Notification (only ever the recipient's own);
 * - `ticket`: data = { ticketId }, sent to every stream whose person may see that ticket when it changed
 *   (status, assignment, comment, feedback) so open pages and lists refresh; no id, no content;
 *   an internal note wakes staff streams only;
 * - `ready`: data = { lastEventId } once connected (after any replay);
 * - a `: ping` comment every 25 s keeps proxies from closing an idle stream.
 */
export const streamEventNames = ["notification", "ticket", "ready"] as const;
export type StreamEventName = (typeof streamEventNames)[number];
export const ticketChangedEventSchema = z.object({ ticketId: z.string() });
export type TicketChangedEvent = z.infer<typeof ticketChangedEventSchema>;
export const heartbeatIntervalMs = 25_000;
