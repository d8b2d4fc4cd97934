import { type RefObject, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { uploadAttachment, withScreenshotName } from "#client/lib/attachment-upload.ts";
import { insertAt } from "#client/lib/text-insertion.ts";
import { attachmentPreviewPath } from "#shared/attachments/attachment.schemas.ts";
import { imageTypesDescription, isImageFileName } from "#shared/attachments/attachment-types.ts";

/** Markdown that must not break out of an image's [alt text]. */
const altTextOf = (fileName: string) =>
  fileName.replace(/\.[^.]+$/, "").replace(/[[\]\\]/g, (character) => `\\${character}`);

/**
 * Images chosen, dropped or pasted into an article's text: each is uploaded at once (the pre-upload route,
 * checked on its content) while a placeholder holds its place at the cursor; the placeholder then becomes
 * `![name](/api/attachments/<id>/preview)`, which saving the article links to it (decision 030).
 */
export function useArticleImages({
  textareaRef,
  updateBody,
}: {
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  /** Changes the text from its latest value (an upload finishes after the author typed on). */
  updateBody: (update: (body: string) => string) => void;
}) {
  const [uploading, setUploading] = useState(0);
  const [errors, setErrors] = useState<string[]>([]);
  const placeholders = useRef(new Set<string>());

  const placeholderFor = (fileName: string) => {
    let placeholder = `![Uploading ${altTextOf(fileName)}…]()`;
    for (let n = 2; placeholders.current.has(placeholder); n++) {
      placeholder = `![Uploading ${altTextOf(fileName)} (${n})…]()`;
    }
    placeholders.current.add(placeholder);
    return placeholder;
  };

  const insert = (files: Iterable<File>) => {
    const refused: string[] = [];
    const accepted = [...files].map(withScreenshotName).filter((file) => {
      // The server checks the content; this spares an upload an article could never show.
      if (isImageFileName(file.name)) return true;
      refused.push(`${file.name} is not an image: an article can show ${imageTypesDescription}.`);
      return false;
    });
    setErrors(refused);
    if (accepted.length === 0) return;

    const started = accepted.map((file) => ({ file, placeholder: placeholderFor(file.name) }));
    const element = textareaRef.current;
    const text = started.map((upload) => upload.placeholder).join("\n");
    let caret = 0;
    // Synchronously, so the caret can be put after the placeholders in the re-rendered box.
    flushSync(() =>
      updateBody((body) => {
        const next = insertAt(body, text, element?.selectionStart ?? body.length, element?.selectionEnd);
        caret = next.caret;
        return next.value;
      }),
    );
    element?.focus();
    element?.setSelectionRange(caret, caret);

    setUploading((count) => count + started.length);
    for (const { file, placeholder } of started) {
      const finish = (replacement: string) => {
        placeholders.current.delete(placeholder);
        // The author may be typing on: keep their cursor where it was, moved by the text swapped before it.
        const box = textareaRef.current;
        const selection =
          box && document.activeElement === box ? [box.selectionStart, box.selectionEnd] : null;
        let shift = 0;
        flushSync(() => {
          updateBody((body) => {
            const at = body.indexOf(placeholder);
            if (at < 0) return body;
            shift = selection && at < selection[0]! ? replacement.length - placeholder.length : 0;
            return body.slice(0, at) + replacement + body.slice(at + placeholder.length);
          });
          setUploading((count) => count - 1);
        });
        if (box && selection) box.setSelectionRange(selection[0]! + shift, selection[1]! + shift);
      };
      uploadAttachment(file).then(
        (attachment) =>
          finish(
            `![${altTextOf(file.name)}](${attachment.previewUrl ?? attachmentPreviewPath(attachment.id)})`,
          ),
        (error: unknown) => {
          finish("");
          setErrors((all) => [
            ...all,
            error instanceof Error ? error.message : `${file.name}: upload failed`,
          ]);
        },
      );
    }
  };

  return { insert, errors, isUploading: uploading > 0, uploading };
}
