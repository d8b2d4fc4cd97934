import type { Attachment } from "#shared/attachments/attachment.schemas.ts";
import { apiFetch } from "../../lib/api-client.ts";

/** Uploads one file ahead of the ticket or comment it will belong to; the answer's id goes in attachmentIds. */
export function uploadAttachment(file: File, signal?: AbortSignal) {
  return apiFetch<Attachment>(`/api/attachments?fileName=${encodeURIComponent(file.name)}`, {
    method: "POST",
    file,
    signal,
  });
}
