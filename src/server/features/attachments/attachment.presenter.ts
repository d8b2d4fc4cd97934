import type { AttachmentRow } from "#server/db/schema/index.ts";
import { type Attachment, attachmentPreviewPath } from "#shared/attachments/attachment.schemas.ts";

export function toAttachmentDto(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    isImage: row.isImage,
    url: `/api/attachments/${row.id}`,
    previewUrl: row.isImage ? attachmentPreviewPath(row.id) : null,
  };
}
