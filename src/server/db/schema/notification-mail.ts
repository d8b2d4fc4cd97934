import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { defaultEmailNotificationTypes } from "#shared/notifications/notification.schemas.ts";
import { users } from "./users.ts";

/** A person's notification choices; no row means the defaults (defaultEmailNotificationTypes, sounds on). */
export const notificationSettings = pgTable("notification_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  emailTypes: text("email_types")
    .array()
    .notNull()
    .default(sql.raw(`'{${defaultEmailNotificationTypes.join(",")}}'::text[]`)),
  soundsMuted: boolean("sounds_muted").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

export const mailOutboxStatuses = ["pending", "sent", "failed"] as const;

/**
 * Mail waiting to be sent, written in the same transaction as the change it reports; the dispatcher
 * (mail/mail-dispatcher.ts) sends it after commit and retries with backoff.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    link: text("link"),
    /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    kind: text("kind").notNull(),
    // No foreign key on purpose: the notifications table comes from the notify-server branch, and read
    // notifications are pruned after the retention period while the record of the mail should stay.
    notificationId: bigint("notification_id", { mode: "bigint" }),
    /**
     * The Message-ID the mail goes out with, for mail about a ticket: a reply that names it in In-Reply-To or
     * References is a reply on that ticket (decision 083). No foreign key: the record outlives the ticket's.
     */
    messageId: text("message_id"),
    ticketId: text("ticket_id"),
    /** About something staff-only (an internal note, a service-level alert): a reply to it is a note too. */
    isInternal: boolean("is_internal").notNull().default(false),
    status: text("status", { enum: mailOutboxStatuses }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The instance (app_instances.id) sending it now; null when nobody is. Its death frees the mail. */
    claimedBy: text("claimed_by"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    check("mail_outbox_status_check", sql`${t.status} in ('pending', 'sent', 'failed')`),
    index("mail_outbox_due_idx").on(t.status, t.nextAttemptAt),
    index("mail_outbox_message_id_idx").on(t.messageId).where(sql`${t.messageId} is not null`),
  ],
);

export type MailOutboxRow = typeof mailOutbox.$inferSelect;
