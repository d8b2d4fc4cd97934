import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { type NotificationParams, notificationTypes } from "#shared/notifications/notification.schemas.ts";
import { ticketEvents } from "./ticket-activity.ts";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

export const notificationTypeEnum = pgEnum("notification_type", notificationTypes);

/**
 * Who a notification may be addressed to as a whole (decision 068): every active technician, or the active
 * technicians of one team (`team:<id>`, decision 069).
 */
export const notificationAudiences = ["technicians"] as const;
export type NotificationAudience = (typeof notificationAudiences)[number] | `team:${string}`;
export const teamAudience = (teamId: string): NotificationAudience => `team:${teamId}`;

// Addressed either to one person (user_id) or to an audience (decision 068): a broadcast "to technicians" is
// one row, whatever the number of technicians; each reader's read state is kept apart (notification_reads,
// notification_audience_members), and a technician who joins later does not see what was sent before.
export const notifications = pgTable(
  "notifications",
  {
    // Also the live stream's event id: identity values only grow, so Last-Event-ID replay is `id > $last`.
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    audience: text("audience").$type<NotificationAudience>(),
    // Who caused it, when it is addressed to an audience: they are one of the audience but are not told.
    exceptUserId: text("except_user_id"),
    type: notificationTypeEnum("type").notNull(),
    message: text("message").notNull(),
    // What the message is made of, for the app to word it in the reader's language (decision 059); null on
    // rows written before it, and on test notifications (their message is the person's own text).
    params: jsonb("params").$type<NotificationParams>(),
    ticketId: text("ticket_id").references(() => tickets.id, { onDelete: "cascade" }),
    // The timeline row that caused it: the push payload names the event, never 1,000 notification ids.
    eventId: text("event_id").references(() => ticketEvents.id, { onDelete: "cascade" }),
    broadcast: boolean("broadcast").notNull().default(false),
    readAt: timestamp("read_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // Ascending on purpose: scanned backwards it serves "newest first" lists; forwards it serves replay.
    index("notifications_user_idx").on(t.userId, t.id),
    index("notifications_user_unread_idx").on(t.userId, t.id).where(sql`${t.readAt} is null`),
    index("notifications_user_read_idx").on(t.userId, t.id).where(sql`${t.readAt} is not null`),
    index("notifications_event_idx").on(t.eventId),
    // Carries except_user_id too (INCLUDE, in the migration): a reader's count is an index-only scan.
    index("notifications_audience_idx").on(t.audience, t.id).where(sql`${t.audience} is not null`),
    check("notifications_one_addressee_check", sql`(${t.userId} is null) <> (${t.audience} is null)`),
  ],
);

/**
 * A person who belongs to an audience, and where they stand in it: they see its notifications with an id
 * above `afterId` (those sent since they joined), and every one up to `readUpToId` is read (Mark All as
 * Read moves it). Kept by triggers on users and team_members (drizzle/0035_notification_audiences.sql,
 * 0037_teams.sql): a row per audience while the person is an active technician (and, for a team's, a member).
 */
export const notificationAudienceMembers = pgTable(
  "notification_audience_members",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    audience: text("audience").$type<NotificationAudience>().notNull(),
    afterId: bigint("after_id", { mode: "number" }).notNull(),
    readUpToId: bigint("read_up_to_id", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.audience] }),
    index("notification_audience_members_audience_idx").on(t.audience),
  ],
);

/** One reader's read mark on one audience notification above their readUpToId (Mark as read). */
export const notificationReads = pgTable(
  "notification_reads",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    notificationId: bigint("notification_id", { mode: "number" })
      .notNull()
      .references(() => notifications.id, { onDelete: "cascade" }),
    readAt: timestamp("read_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.notificationId] }),
    index("notification_reads_notification_idx").on(t.notificationId),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
