import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { articles } from "./articles.ts";
import { ticketComments } from "./ticket-activity.ts";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

/** pg hands bytea back as a Buffer, PGlite as a Uint8Array: both become a Buffer (no copy). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * uploading: bytes still streaming in (never shown; deleted on failure, or by the cleanup if the process
 * died mid-upload). pending: complete, waiting to be linked by its uploader. linked: part of a ticket, or
 * an image of a help article.
 */
export const attachmentStatuses = ["uploading", "pending", "linked"] as const;
export const attachmentStatusEnum = pgEnum("attachment_status", attachmentStatuses);

export const attachments = pgTable(
  "attachments",
  {
    id: text("id").primaryKey(),
    // Null until linked: a new ticket's files are uploaded before the ticket exists.
    ticketId: text("ticket_id").references(() => tickets.id, { onDelete: "cascade" }),
    commentId: text("comment_id").references(() => ticketComments.id, { onDelete: "cascade" }),
    // An article's image instead (decision 030): served with the article's visibility, never a ticket's.
    articleId: integer("article_id").references(() => articles.id, { onDelete: "cascade" }),
    uploadedBy: text("uploaded_by")
      .notNull()
      .references(() => users.id),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    isImage: boolean("is_image").notNull().default(false),
    size: bigint("size", { mode: "number" }).notNull().default(0),
    sha256: text("sha256").notNull().default(""),
    // Copied from the internal note it belongs to when linked; every user-facing query filters on it.
    isInternal: boolean("is_internal").notNull().default(false),
    status: attachmentStatusEnum("status").notNull().default("uploading"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index("attachments_ticket_idx").on(t.ticketId, t.createdAt),
    index("attachments_unlinked_idx").on(t.status, t.createdAt).where(sql`${t.status} <> 'linked'`),
    index("attachments_article_idx").on(t.articleId).where(sql`${t.articleId} is not null`),
    // A linked file belongs to exactly one thing: a ticket (and maybe its comment) or an article.
    check(
      "attachments_linked_has_owner",
      sql`${t.status} <> 'linked' or (${t.ticketId} is not null and ${t.articleId} is null) or (${t.articleId} is not null and ${t.ticketId} is null and ${t.commentId} is null)`,
    ),
  ],
);

/** The file's bytes in order, about 256 KB a row, so that no one read or write holds a whole file. */
export const attachmentChunks = pgTable(
  "attachment_chunks",
  {
    attachmentId: text("attachment_id")
      .notNull()
      .references(() => attachments.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    data: bytea("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.attachmentId, t.seq] })],
);

export type AttachmentRow = typeof attachments.$inferSelect;
