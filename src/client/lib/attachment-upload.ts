import type { ClipboardEvent } from "react";
import type { Attachment } from "#shared/attachments/attachment.schemas.ts";
import { apiFetch } from "./api-client.ts";

// Shared by every form that takes files (a new ticket, a comment, a help article's images): one upload
// call and one way to read files from a paste.

/**
 * Uploads one file ahead of what it will belong to (a ticket, comment or article): the answer's id goes in
 * attachmentIds, or its previewUrl into an article's Markdown.
 */
export function uploadAttachment(file: File, signal?: AbortSignal) {
  return apiFetch<Attachment>(`/api/attachments?fileName=${encodeURIComponent(file.name)}`, {
    method: "POST",
    file,
    signal,
  });
}

/** A pasted screenshot has a generic name ("image.png"): give it one that says what and when. */
export function withScreenshotName(file: File): File {
  if (file.name && file.name !== "image.png") return file;
  const stamp = new Date().toISOString().slice(0, 19).replace(/[T:]/g, "-");
  return new File([file], `screenshot-${stamp}.png`, { type: file.type });
}

/** Files from a paste (a screenshot on the clipboard); none when the clipboard holds text to paste instead. */
export function filesFromPaste(data: DataTransfer | null): File[] {
  if (!data || data.files.length === 0 || data.types.includes("text/plain")) return [];
  return [...data.files];
}

/** An onPaste handler: pasted files go to `onFiles` instead of the box; pasted text is typed as usual. */
export const handlePastedFiles = (onFiles: (files: File[]) => void) => (event: ClipboardEvent) => {
  const files = filesFromPaste(event.clipboardData);
  if (files.length === 0) return;
  event.preventDefault();
  onFiles(files);
};
