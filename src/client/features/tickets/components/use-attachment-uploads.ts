import { plural, t } from "@lingui/core/macro";
import { useCallback, useRef, useState } from "react";
import { uploadAttachment, withScreenshotName } from "#client/lib/attachment-upload.ts";
import { maxAttachmentsPerItem } from "#shared/attachments/attachment.schemas.ts";
import { kindForFileName } from "#shared/attachments/attachment-types.ts";

export interface UploadItem {
  key: number;
  fileName: string;
  size: number;
  state: "uploading" | "done" | "failed";
  attachmentId?: string;
  error?: string;
}

// The kinds of attachmentTypes (#shared/attachments/attachment-types.ts), as allowedTypesDescription says them.
const allowedTypesText = () =>
  t`You can attach images (PNG, JPEG, GIF, WebP), PDF, text (.txt, .log, .csv, .md), zip and Office documents.`;

/**
 * Files chosen, dropped or pasted into a form: each uploads at once (so sending the form only links
 * them), shows its progress and any refusal, and can be removed before sending.
 */
export function useAttachmentUploads() {
  const [items, setItems] = useState<UploadItem[]>([]);
  const nextKey = useRef(0);

  // Read outside a state updater: an updater may run twice, and an upload must not start twice.
  const current = useRef(items);
  current.current = items;
  const add = useCallback((files: Iterable<File>) => {
    const update = (key: number, change: Partial<UploadItem>) =>
      setItems((all) => all.map((item) => (item.key === key ? { ...item, ...change } : item)));
    const kept = { current: current.current.filter((item) => item.state !== "failed").length };
    const added: UploadItem[] = [...files].map(withScreenshotName).map((file) => {
      const key = nextKey.current++;
      const base = { key, fileName: file.name, size: file.size };
      if (kept.current >= maxAttachmentsPerItem)
        return {
          ...base,
          state: "failed",
          error: plural(maxAttachmentsPerItem, {
            one: "Attach at most # file at once.",
            other: "Attach at most # files at once.",
          }),
        };
      // The server decides on the content; this only spares an upload that would surely be refused.
      if (!kindForFileName(file.name)) return { ...base, state: "failed", error: allowedTypesText() };
      kept.current++;
      uploadAttachment(file).then(
        (attachment) => update(key, { state: "done", attachmentId: attachment.id }),
        (error: unknown) =>
          update(key, { state: "failed", error: error instanceof Error ? error.message : t`Upload failed` }),
      );
      return { ...base, state: "uploading" };
    });
    setItems((all) => [...all, ...added]);
  }, []);

  const remove = (key: number) => setItems((all) => all.filter((item) => item.key !== key));
  const clear = () => setItems([]);
  const attachmentIds = items.flatMap((item) => (item.attachmentId ? [item.attachmentId] : []));
  const isUploading = items.some((item) => item.state === "uploading");
  return { items, add, remove, clear, attachmentIds, isUploading };
}
