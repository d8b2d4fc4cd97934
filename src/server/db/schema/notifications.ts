import { sql } from "drizzle-orm";
import { bigint, boolean, index, jsonb, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { type NotificationParams, notificationTypes } from "#shared/notifications/notification.schemas.ts";
import { ticketEvents } from "./ticket-activity.ts";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

export const notificationTypeEnum = pgEnum("notification_type", notificationTypes);

// One row per recipient: a broadcast "to technicians" is fanned out at write time, so each technician has
// their own read state and a technician who joins later inherits nothing.
export const notifications = pgTable(
  "notifications",
  {
    // Also the live stream's event id: identity values only grow, so Last-Event-ID replay is `id > $last`.
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
