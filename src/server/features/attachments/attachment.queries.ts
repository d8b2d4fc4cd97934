import { and, asc, eq, gt, inArray, lt, ne, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { articles, attachmentChunks, attachments, tickets } from "#server/db/schema/index.ts";

export async function insertAttachment(db: Db, values: typeof attachments.$inferInsert) {
  await db.insert(attachments).values(values);
}

export async function insertChunk(db: Db, attachmentId: string, seq: number, data: Buffer) {
  await db.insert(attachmentChunks).values({ attachmentId, seq, data });
}

export async function completeUpload(
  db: Db,
  id: string,
  values: { size: number; sha256: string; contentType: string; isImage: boolean },
) {
  const [row] = await db
    .update(attachments)
    .set({ ...values, status: "pending" })
    .where(and(eq(attachments.id, id), eq(attachments.status, "uploading")))
    .returning();
  return row;
}

/** Its chunks go with it (on delete cascade). */
export async function deleteAttachment(db: Db, id: string) {
  await db.delete(attachments).where(eq(attachments.id, id));
}

export async function countUnlinkedOf(db: Db, userId: string) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(attachments)
    .where(and(eq(attachments.uploadedBy, userId), ne(attachments.status, "linked")));
  return row?.count ?? 0;
}

/**
 * Links the uploader's own pending files to a ticket (and comment) in the caller's transaction. Returns
 * how many it linked: fewer than asked means one was not theirs, not pending, or already used.
 */
export async function linkPendingAttachments(
  db: Db,
  ids: string[],
  {
    uploadedBy,
    ticketId,
    commentId,
    isInternal,
  }: { uploadedBy: string; ticketId: string; commentId: string | null; isInternal: boolean },
) {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(attachments)
    .set({ ticketId, commentId, isInternal, status: "linked" })
    .where(
      and(
        inArray(attachments.id, ids),
        eq(attachments.uploadedBy, uploadedBy),
        eq(attachments.status, "pending"),
      ),
    )
    .returning({ id: attachments.id });
  return rows.length;
}

/** Links the uploader's own pending images to an article in the caller's transaction; returns how many. */
export async function linkPendingImagesToArticle(
  db: Db,
  ids: string[],
  { uploadedBy, articleId }: { uploadedBy: string; articleId: number },
) {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(attachments)
    .set({ articleId, status: "linked" })
    .where(
      and(
        inArray(attachments.id, ids),
        eq(attachments.uploadedBy, uploadedBy),
        eq(attachments.status, "pending"),
        eq(attachments.isImage, true),
      ),
    )
    .returning({ id: attachments.id });
  return rows.length;
}

/** A linked attachment with the facts of its ticket or its article (for the visibility rule). */
export async function findLinkedAttachment(db: Db, id: string) {
  const [row] = await db
    .select({
      attachment: attachments,
      ticket: { createdBy: tickets.createdBy, assignedTo: tickets.assignedTo, status: tickets.status },
      article: { status: articles.status, visibility: articles.visibility },
    })
    .from(attachments)
    .leftJoin(tickets, eq(tickets.id, attachments.ticketId))
    .leftJoin(articles, eq(articles.id, attachments.articleId))
    .where(and(eq(attachments.id, id), eq(attachments.status, "linked")));
  return row;
}

/** `withInternal` only for staff: a user's query never reads an internal note's file (decision 011). */
export function findTicketAttachments(db: Db, ticketId: string, { withInternal }: { withInternal: boolean }) {
  return db
    .select()
    .from(attachments)
    .where(
      and(
        eq(attachments.ticketId, ticketId),
        eq(attachments.status, "linked"),
        withInternal ? undefined : eq(attachments.isInternal, false),
      ),
    )
    .orderBy(asc(attachments.createdAt), asc(attachments.id));
}

export function findCommentAttachments(db: Db, commentId: string) {
  return db
    .select()
    .from(attachments)
    .where(and(eq(attachments.commentId, commentId), eq(attachments.status, "linked")))
    .orderBy(asc(attachments.createdAt), asc(attachments.id));
}

/** The next chunk after `afterSeq`: one row read at a time, so a download never holds the file. */
export async function findNextChunk(db: Db, attachmentId: string, afterSeq: number) {
  const [row] = await db
    .select({ seq: attachmentChunks.seq, data: attachmentChunks.data })
    .from(attachmentChunks)
    .where(and(eq(attachmentChunks.attachmentId, attachmentId), gt(attachmentChunks.seq, afterSeq)))
    .orderBy(asc(attachmentChunks.seq))
    .limit(1);
  return row;
}

/** Unlinked uploads older than the cutoff (never linked within a day, or left by a crash mid-upload). */
/**
 * Deletes uploads never linked, created before the cutoff, a batch at a time; SKIP LOCKED lets several
 * instances clean at once without both acting on one row. Returns how many it deleted.
 */
export async function deleteUnlinkedBefore(db: Db, cutoff: Date, batchSize = 500) {
  let deleted = 0;
  for (;;) {
    const batch = db
      .select({ id: attachments.id })
      .from(attachments)
      .where(and(ne(attachments.status, "linked"), lt(attachments.createdAt, cutoff)))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    const rows = await db
      .delete(attachments)
      .where(inArray(attachments.id, batch))
      .returning({ id: attachments.id });
    deleted += rows.length;
    if (rows.length < batchSize) return deleted;
  }
}
