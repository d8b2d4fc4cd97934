import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";

/** ATT + uppercase base-36 timestamp + random suffix, like ticket and comment ids. */
export const attachmentIdPattern = /^ATT[0-9A-Z]{6,12}[0-9A-Z]{8}$/;
export const attachmentIdSchema = z.string().regex(attachmentIdPattern, "Not an attachment id");

/** Where a raster image is served inline: thumbnails, and the images of help articles. */
export const attachmentPreviewPath = (id: string) => `/api/attachments/${id}/preview`;

/** The attachment id of a preview address exactly as attachmentPreviewPath writes it; null for any other. */
export function attachmentIdOfPreviewPath(path: string): string | null {
  const id = /^\/api\/attachments\/([0-9A-Z]+)\/preview$/.exec(path)?.[1];
  return id !== undefined && attachmentIdPattern.test(id) ? id : null;
}

/** Files on one new ticket, comment or internal note. */
export const maxAttachmentsPerItem = 10;
/** ATTACHMENT_MAX_BYTES's default: 10 MB per file. */
export const defaultAttachmentMaxBytes = 10 * 1024 * 1024;
export const fileNameMaxLength = 200;

/** What POST /api/tickets and POST /api/tickets/:id/comments take: ids of the caller's own uploads. */
export const attachmentIdsSchema = z
  .array(attachmentIdSchema, { error: "attachmentIds must be a list of attachment ids" })
  .max(maxAttachmentsPerItem, `Attach at most ${maxAttachmentsPerItem} files at once`)
  .refine((ids) => new Set(ids).size === ids.length, "The same file is attached twice");

/** POST /api/attachments?fileName=…: the body is the file itself (raw bytes). */
export const uploadAttachmentQuerySchema = z.object({
  fileName: storableText(
    z
      .string({ error: "fileName is required" })
      .trim()
      .min(1, "fileName is required")
      .max(fileNameMaxLength, `The file name must be at most ${fileNameMaxLength} characters`)
      .refine((name) => !/[/\\]/.test(name), "The file name must not contain / or \\"),
    "File name",
  ),
});
export type UploadAttachmentQuery = z.infer<typeof uploadAttachmentQuerySchema>;

export const attachmentSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  isImage: z.boolean(),
  /** Downloads the file (always Content-Disposition: attachment). */
  url: z.string(),
  /** Raster images only: the same bytes served inline for a thumbnail; null for everything else. */
  previewUrl: z.string().nullable(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** "2.4 MB", "812 KB", "15 bytes": sizes as people read them (messages and the page). */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return bytes === 1 ? "1 byte" : `${bytes} bytes`;
}
