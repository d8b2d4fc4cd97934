import { Trans, useLingui } from "@lingui/react/macro";
import { CircleAlert, CircleCheck, LoaderCircle, Paperclip, X } from "lucide-react";
import { cn } from "#client/components/ui/cn.ts";
import { FilePickerButton } from "#client/components/ui/file-picker-button.tsx";
import { formatFileSize } from "#client/lib/format.ts";
import { acceptAttribute } from "#shared/attachments/attachment-types.ts";
import type { useAttachmentUploads } from "./use-attachment-uploads.ts";

type Uploads = ReturnType<typeof useAttachmentUploads>;

/**
 * "Attach files" (the file picker), the hint about dropping and pasting, and each file's progress. The
 * picker is a button the app's code opens: without that code it chooses nothing.
 */
export function AttachmentPicker({ uploads }: { uploads: Uploads }) {
  const { t } = useLingui();
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <FilePickerButton
          label={t`Attach files`}
          icon={Paperclip}
          accept={acceptAttribute}
          onFiles={uploads.add}
        />
        <span className="text-xs text-slate-500">
          <Trans>or drop files here, or paste a screenshot</Trans>
        </span>
      </div>
      {/* A form posted without the app's code sends text only (decision 065): said, not silently dropped. */}
      <noscript>
        <p className="text-xs text-amber-800">
          <Trans>Files can be attached only with JavaScript on: this form sends its text alone.</Trans>
        </p>
      </noscript>
      {uploads.items.length > 0 ? (
        <ul className="flex flex-col gap-1.5" aria-label={t`Files to send`}>
          {uploads.items.map((item) => (
            <li
              key={item.key}
              className={cn(
                "flex items-start gap-2 rounded-lg border px-3 py-1.5 text-sm",
                item.state === "failed" ? "border-red-200 bg-red-50" : "border-slate-200 bg-white",
              )}
            >
              {item.state === "uploading" ? (
                <LoaderCircle
                  aria-label={t`Uploading`}
                  className="mt-0.5 size-4 shrink-0 animate-spin text-slate-400"
                />
              ) : item.state === "done" ? (
                <CircleCheck aria-label={t`Uploaded`} className="mt-0.5 size-4 shrink-0 text-emerald-600" />
              ) : (
                <CircleAlert aria-label={t`Not attached`} className="mt-0.5 size-4 shrink-0 text-red-600" />
              )}
              <div className="min-w-0 flex-1">
                <p className="flex gap-2">
                  <span className="truncate text-slate-800">{item.fileName}</span>
                  <span className="shrink-0 text-xs leading-5 text-slate-500">
                    {formatFileSize(item.size)}
                  </span>
                </p>
                {item.error ? <p className="text-xs text-red-700">{item.error}</p> : null}
              </div>
              <button
                type="button"
                className="rounded p-0.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
                aria-label={t`Remove ${item.fileName}`}
                onClick={() => uploads.remove(item.key)}
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
