import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * What happened to each message the inbound SMTP listener accepted (decision 028).
 * `processing` is a claim: the one delivery that inserted (or re-claimed a stale) row does the work, so
 * the same Message-ID from the same sender delivered twice raises one ticket.
 */
export const inboundMailOutcomes = [
  "processing",
  "ticket_created",
  "comment_added",
  "ignored_auto_reply",
  "refused",
] as const;
export type InboundMailOutcome = (typeof inboundMailOutcomes)[number];

export const inboundMessages = pgTable(
  "inbound_messages",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    /** The Message-ID header, or a hash of the raw message when it has none. */
    messageId: text("message_id").notNull(),
    /** The From address, lower-cased: who the message is treated as coming from. */
    fromAddress: text("from_address").notNull(),
    /** The recipient it was handled as: the helpdesk address or a reply address. */
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    outcome: text("outcome").$type<InboundMailOutcome>().notNull(),
    /** Why, in words an operator reads: the refusal, the skipped attachments, the auto-reply header. */
    detail: text("detail"),
    // No foreign keys: the record of what arrived stays even if the ticket or the person goes.
    ticketId: text("ticket_id"),
    commentId: text("comment_id"),
    userId: text("user_id"),
    /** While `processing`: the instance (app_instances.id) doing it; its death gives the message back. */
    claimedBy: text("claimed_by"),
    /**
     * Refused in the SMTP answer (decision 057): recorded for the admins' page, but the sending server was
     * told no, so a later delivery of the same message is judged again (it may take the row over).
     */
    refusedInAnswer: boolean("refused_in_answer").notNull().default(false),
    receivedAt: timestamp("received_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    check(
      "inbound_messages_outcome_check",
      sql`${t.outcome} in ('processing', 'ticket_created', 'comment_added', 'ignored_auto_reply', 'refused')`,
    ),
    uniqueIndex("inbound_messages_message_from_idx").on(t.messageId, t.fromAddress),
    index("inbound_messages_received_idx").on(t.receivedAt),
  ],
);
