import type { Attachment } from "#shared/attachments/attachment.schemas.ts";
import type { AttachmentRow } from "../../db/schema/index.ts";

export function toAttachmentDto(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    isImage: row.isImage,
    url: `/api/attachments/${row.id}`,
    previewUrl: row.isImage ? `/api/attachments/${row.id}/preview` : null,
  };
}
