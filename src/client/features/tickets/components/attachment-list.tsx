import { FileText } from "lucide-react";
import { formatFileSize } from "#client/lib/format.ts";
import type { Attachment } from "#shared/attachments/attachment.schemas.ts";

/**
 * Files of a ticket or comment. Images show as small thumbnails of the inline preview (loaded lazily
 * into a fixed box, so a 5 MB screenshot neither shifts the page nor loads before it is scrolled to);
 * a click opens the full image. Everything else is a download with its name and size.
 */
export function AttachmentList({ attachments, label }: { attachments: Attachment[]; label: string }) {
  if (attachments.length === 0) return null;
  const images = attachments.filter((file) => file.isImage && file.previewUrl);
  const others = attachments.filter((file) => !(file.isImage && file.previewUrl));
  return (
    <section className="mt-3 flex flex-col gap-2" aria-label={label}>
      {images.length > 0 ? (
        <ul className="flex flex-wrap gap-2">
          {images.map((file) => (
            <li key={file.id}>
              <a
                href={file.previewUrl!}
                target="_blank"
                rel="noopener"
                className="block overflow-hidden rounded-lg border border-slate-200 bg-slate-100 hover:border-indigo-300 focus-visible:outline-2 focus-visible:outline-indigo-600"
                title={`${file.fileName} (${formatFileSize(file.size)})`}
              >
                <img
                  src={file.previewUrl!}
                  alt={file.fileName}
                  loading="lazy"
                  decoding="async"
                  width={160}
                  height={120}
                  className="h-24 w-32 object-cover sm:h-30 sm:w-40"
                />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {others.length > 0 ? (
        <ul className="flex flex-col gap-1.5">
          {others.map((file) => (
            <li key={file.id}>
              <a
                href={file.url}
                download={file.fileName}
                className="inline-flex max-w-full items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-1.5 text-sm text-slate-700 hover:border-indigo-300 hover:text-indigo-700"
              >
                <FileText aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
                <span className="truncate">{file.fileName}</span>
                <span className="shrink-0 text-xs text-slate-500">{formatFileSize(file.size)}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
