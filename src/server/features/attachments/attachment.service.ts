import { Readable } from "node:stream";
import type { ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import type { AttachmentRow } from "#server/db/schema/index.ts";
import { notFound, validationFailed } from "#server/errors.ts";
import { type AttachmentOwner, can } from "#shared/permissions.ts";
import {
  findLinkedAttachment,
  findNextChunk,
  linkPendingAttachments,
  linkPendingImagesToArticle,
} from "./attachment.queries.ts";

/**
 * A linked file the actor may see, with a stream of its bytes read one chunk row at a time. A file of a
 * ticket they may not see, of an internal note when they are a user, or an image of an article they may
 * not read does not exist for them (404).
 */
export interface OpenedAttachment {
  attachment: Pick<AttachmentRow, "fileName" | "contentType" | "size" | "isImage" | "sha256">;
  content: Readable;
}

export async function openAttachment(ctx: ServiceContext, attachmentId: string): Promise<OpenedAttachment> {
  const found = await findLinkedAttachment(ctx.db, attachmentId);
  const owner: AttachmentOwner | null = found?.ticket
    ? { ticket: found.ticket }
    : found?.article
      ? { article: found.article }
      : null;
  if (!found || !owner || !can.viewAttachment(ctx.actor, owner, found.attachment))
    throw notFound("Attachment", attachmentId);
  return { attachment: found.attachment, content: streamChunks(ctx.db, attachmentId) };
}

function streamChunks(db: Db, attachmentId: string): Readable {
  return Readable.from(
    (async function* () {
      let seq = -1;
      for (;;) {
        const chunk = await findNextChunk(db, attachmentId, seq);
        if (!chunk) return;
        seq = chunk.seq;
        yield chunk.data;
      }
    })(),
    { objectMode: false },
  );
}

/**
 * Inside the transaction that writes the ticket, comment or note: links the caller's own pending uploads.
 * Any id that is not theirs, not finished or already used refuses the whole write (the caller's
 * transaction rolls back, so the comment is not saved without its files).
 */
export async function linkAttachments(
  tx: Db,
  ids: string[] | undefined,
  target: { uploadedBy: string; ticketId: string; commentId: string | null; isInternal: boolean },
) {
  if (!ids || ids.length === 0) return;
  const linked = await linkPendingAttachments(tx, ids, target);
  if (linked !== ids.length)
    throw validationFailed(
      "attachmentIds: One of the files is not an upload of yours waiting to be sent (it may have expired). Attach it again.",
    );
}

/**
 * Inside the transaction that saves an article: the images its Markdown shows that are the saver's own
 * pending uploads become the article's. Unlike a comment's attachmentIds, the text may name any address
 * (an image copied from another article, someone else's upload): those are left alone, never refused, and
 * are served only by their own rule.
 */
export async function linkArticleImages(
  tx: Db,
  ids: string[],
  target: { uploadedBy: string; articleId: number },
) {
  await linkPendingImagesToArticle(tx, ids, target);
}
