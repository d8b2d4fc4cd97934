import { z } from "zod";
import { slaTargets } from "#shared/service-levels/sla-escalation.ts";
import { autoAssignmentModes } from "#shared/teams/team-assignment.ts";
import { storableText } from "#shared/text/storable-text.ts";
import { ticketStatuses } from "#shared/tickets/ticket.schemas.ts";

/**
 * One type per trigger (new_ticket and ticket_comment come from the app this one replaces; others are ours).
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
  "ticket_hold_lifted",
  "ticket_auto_resolved",
  "ticket_team",
  "rule_notice",
  "known_issue",
  "webhook_disabled",
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
  ticket_hold_lifted: "A ticket I handle is no longer on hold (staff)",
  ticket_auto_resolved: "My tickets on hold resolved automatically",
  ticket_team: "A ticket moved to my team (technicians)",
  rule_notice: "An automation rule asks me to look at a ticket (staff)",
  // Decision 077: in the app only (its e-mail would link to a ticket the follower may not open).
  known_issue: "Updates on known issues I follow",
  webhook_disabled: "A webhook was switched off after failed deliveries (admins)",
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
  "ticket_hold_lifted",
  "ticket_auto_resolved",
  "ticket_team",
  "rule_notice",
  "webhook_disabled",
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
  "ticket_hold_lifted",
  "ticket_auto_resolved",
  "rule_notice",
  "webhook_disabled",
];

const status = z.enum(ticketStatuses);
/** A person's name as it was when the notification was written; null when unknown ("Someone"). */
const person = z.string().nullable();
/** The ticket's title as it was then, whole: the reader's screen shortens it (shortTicketTitle). */
const title = z.string();
/** The start of a comment or note, as the English message quotes it (100 characters, mentions as names). */
const preview = z.string();

/**
 * What a notification's text is made of (decision 059): its kind and the values it names, so that the app
 * words it in the reader's language and writes its dates in the reader's format. `message` keeps the same
 * text in English for the API, e-mail and the technician alert. Names, titles and previews are data and
 * stay as written; statuses and the service-level target are the API's values.
 */
export const notificationParamsSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("ticket_created"), title, department: z.string(), floor: z.string() }),
  z.object({ kind: z.literal("commented"), title, actor: person, preview }),
  z.object({ kind: z.literal("internal_note"), title, actor: person, preview }),
  z.object({ kind: z.literal("mentioned"), title, actor: person, preview, isInternal: z.boolean() }),
  z.object({
    kind: z.literal("status_changed"),
    title,
    actor: person,
    from: status,
    to: status,
    /** For the creator of a ticket that reached Resolved: when it closes by itself (auto-close on). */
    autoCloseAt: z.iso.datetime().optional(),
  }),
  z.object({ kind: z.literal("assigned_to_self"), title, actor: person }),
  /** `status`: the ticket's new status when the assignment changed it, else null. */
  z.object({
    kind: z.literal("reassigned"),
    title,
    actor: person,
    assignee: person,
    status: status.nullable(),
  }),
  z.object({ kind: z.literal("returned_to_queue"), title, actor: person, status: status.nullable() }),
  /**
   * A team gave a new ticket to a member (decision 073): `team` as it was called then (null once gone), `mode`
   * how it chose, `status` the ticket's new status when the assignment changed it.
   */
  z.object({
    kind: z.literal("auto_assigned"),
    title,
    assignee: person,
    team: z.string().nullable(),
    mode: z.enum(autoAssignmentModes),
    status: status.nullable(),
  }),
  z.object({
    kind: z.literal("edited"),
    title,
    actor: person,
    /**
     * Each changed field: `field` as in ticketChangeSchema (a custom field's `cf:<id>` with its `label`);
     * the description carries no values (the ticket shows the new text).
     */
    changes: z.array(
      z.object({
        field: z.string(),
        label: z.string().optional(),
        from: z.string().optional(),
        to: z.string().optional(),
      }),
    ),
  }),
  z.object({
    kind: z.literal("feedback"),
    title,
    actor: person,
    rating: z.number().int().min(1).max(5),
    comment: preview.nullable(),
  }),
  /** `dueAt` null: a warning recorded without a due time. */
  z.object({
    kind: z.literal("sla_warning"),
    title,
    target: z.enum(slaTargets),
    dueAt: z.iso.datetime().nullable(),
  }),
  z.object({ kind: z.literal("sla_breached"), title, target: z.enum(slaTargets) }),
  z.object({ kind: z.literal("auto_closed"), title, idleDays: z.number().int() }),
  /** Decision 070: a hold lifted by the requester's reply (`actor`: the requester) or at its date. */
  z.object({ kind: z.literal("hold_lifted"), title, actor: person, reason: z.enum(["reply", "date"]) }),
  z.object({
    kind: z.literal("auto_resolved"),
    title,
    businessDays: z.number().int(),
    /** For the creator: when the now Resolved ticket closes by itself (auto-close on). */
    autoCloseAt: z.iso.datetime().optional(),
  }),
  /** `team`: the team the ticket moved to (its name then), told to that team (decision 069). */
  z.object({ kind: z.literal("team_changed"), title, actor: person, team: z.string() }),
  /** Decision 071: tags added and removed. Sent to nobody; the text exists for completeness. */
  z.object({
    kind: z.literal("tags_changed"),
    title,
    actor: person,
    added: z.array(z.string()),
    removed: z.array(z.string()),
  }),
  /**
   * Decision 074: the ticket was merged into `target` (its id), told to its requester; it is now Closed, and
   * the conversation goes on in the target.
   */
  z.object({ kind: z.literal("merged"), title, actor: person, target: z.string() }),
  /** A link made or removed, or a duplicate merged in (`other`: the other ticket's id). Sent to nobody. */
  z.object({
    kind: z.literal("ticket_linked"),
    title,
    actor: person,
    other: z.string(),
    change: z.enum(["linked", "unlinked", "merged_in"]),
  }),
  /** Decision 076: an automation rule (`rule`, its name then) tells the people and teams it names. */
  z.object({ kind: z.literal("rule_notice"), title, rule: z.string() }),
  /**
   * Decision 077: a major incident declared or ended (`change`), staff only and sent to nobody; and an update
   * on (or the resolution of) a known issue the reader follows: `title` is the incident's headline as it was
   * then (the ticket's own title stays private), `preview` the update's text.
   */
  z.object({
    kind: z.literal("incident_changed"),
    title,
    actor: person,
    change: z.enum(["declared", "ended"]),
  }),
  /**
   * Decision 080: the app switched a webhook endpoint off after `failures` deliveries failed in a row
   * (`error`: the last one's), told to every administrator.
   */
  z.object({
    kind: z.literal("webhook_disabled"),
    webhookId: z.string(),
    url: z.string(),
    failures: z.number().int(),
    error: z.string().nullable(),
  }),
  z.object({
    kind: z.literal("known_issue"),
    title,
    incidentId: z.string(),
    preview,
    resolved: z.boolean(),
  }),
]);
export type NotificationParams = z.infer<typeof notificationParamsSchema>;
export type NotificationKind = NotificationParams["kind"];

/**
 * A notification as its recipient sees it. `uid` is the recipient (every row has exactly one: a broadcast
 * "to technicians" is stored once per technician, each with its own read state; `broadcast` says it was one).
 * `notificationId` is also the live stream's event id: ids only grow, so `Last-Event-ID` replays what was missed.
 */
export const notificationSchema = z.object({
  notificationId: z.string(),
  uid: z.string(),
  type: z.enum(notificationTypes),
  /** The text in English, as e-mails and older clients show it. */
  message: z.string(),
  /** What the text is made of, for the app to word it in the reader's language; null on older rows and tests. */
  params: notificationParamsSchema.nullable(),
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

/** Creating a notification requires a user id and a message, with exactly these errors. */
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
 * - `presence`: data = a TicketPresence (src/shared/presence/presence.schemas.ts), to staff with that ticket
 *   open whenever who is on it changes (decision 072); no id, never replayed;
 * - a `: ping` comment every 25 s keeps proxies from closing an idle stream.
 */
export const streamEventNames = ["notification", "ticket", "ready", "presence"] as const;
export type StreamEventName = (typeof streamEventNames)[number];
export const ticketChangedEventSchema = z.object({ ticketId: z.string() });
export type TicketChangedEvent = z.infer<typeof ticketChangedEventSchema>;
export const heartbeatIntervalMs = 25_000;
