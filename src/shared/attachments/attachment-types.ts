/**
 * The attachment type allowlist (decision 012). A file is accepted when its CONTENT is one of these
 * kinds and its name ends in one of that kind's extensions; the declared Content-Type is never trusted.
 * The server enforces it on the bytes as they stream in; the browser mirrors the extension part.
 */
export type FileKind = "png" | "jpeg" | "gif" | "webp" | "pdf" | "zip" | "text";

interface KindRule {
  /** Extension (lower case, no dot) → the Content-Type the file is served with. */
  extensions: Record<string, string>;
  isImage: boolean;
}

const officeZip = {
  // Office Open XML and OpenDocument files are zip archives; they are only ever downloaded.
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
};

export const fileKinds: Record<FileKind, KindRule> = {
  png: { extensions: { png: "image/png" }, isImage: true },
  jpeg: { extensions: { jpg: "image/jpeg", jpeg: "image/jpeg" }, isImage: true },
  gif: { extensions: { gif: "image/gif" }, isImage: true },
  webp: { extensions: { webp: "image/webp" }, isImage: true },
  pdf: { extensions: { pdf: "application/pdf" }, isImage: false },
  zip: { extensions: { zip: "application/zip", ...officeZip }, isImage: false },
  text: {
    extensions: {
      txt: "text/plain; charset=utf-8",
      log: "text/plain; charset=utf-8",
      csv: "text/csv; charset=utf-8",
      md: "text/plain; charset=utf-8",
    },
    isImage: false,
  },
};

export const allowedExtensions = Object.values(fileKinds).flatMap((kind) => Object.keys(kind.extensions));
/** For <input type="file" accept>: a hint only, the server decides. */
export const acceptAttribute = allowedExtensions.map((extension) => `.${extension}`).join(",");
export const allowedTypesDescription =
  "images (PNG, JPEG, GIF, WebP), PDF, text (.txt, .log, .csv, .md), zip and Office documents";

/** Raster images: the only files a help article shows (inline, through the preview route). */
const imageExtensions = Object.values(fileKinds).flatMap((kind) =>
  kind.isImage ? Object.keys(kind.extensions) : [],
);
export const imageAcceptAttribute = imageExtensions.map((extension) => `.${extension}`).join(",");
export const imageTypesDescription = "PNG, JPEG, GIF or WebP images";

export const extensionOf = (fileName: string) => {
  const dot = fileName.lastIndexOf(".");
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : "";
};

/** The kind a file's name promises, or null when the extension is not on the list. */
export function kindForFileName(fileName: string): FileKind | null {
  const extension = extensionOf(fileName);
  for (const [kind, rule] of Object.entries(fileKinds) as [FileKind, KindRule][]) {
    if (extension in rule.extensions) return kind;
  }
  return null;
}

/** Whether the name promises a raster image (the server still checks the content says the same). */
export function isImageFileName(fileName: string): boolean {
  const kind = kindForFileName(fileName);
  return kind !== null && fileKinds[kind].isImage;
}

/** How many leading bytes detectKind needs to decide (fewer only when the whole file is shorter). */
export const sniffLength = 16;

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The binary kind the first bytes show, "text" when they show none (the caller then checks the whole
 * content is UTF-8 text), or null for a binary format not on the list (an .exe, an ELF, …).
 */
export function detectKind(head: Uint8Array): FileKind | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a"))) return "gif";
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)) return "webp";
  if (startsWith(head, ascii("%PDF-"))) return "pdf";
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return "zip";
  return looksLikeTextStart(head) ? "text" : null;
}

// Tab, line feed, form feed and carriage return are the only control characters a text file needs.
const isControl = (byte: number) =>
  byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d;

/** No NUL or other control bytes: what the first bytes of a text file look like. */
function looksLikeTextStart(head: Uint8Array) {
  return head.every((byte) => !isControl(byte) && byte !== 0x7f);
}

/** Control characters a text attachment must not hold (checked over the whole content on the server). */
export const hasControlBytes = (bytes: Uint8Array) => bytes.some((byte) => isControl(byte) || byte === 0x7f);

/**
 * Markup a browser could run as a page or image (HTML, SVG, XML): refused even inside a .txt, although
 * text is always served as text/plain with nosniff, so that no attachment ever holds a script.
 */
export function looksLikeMarkup(text: string): boolean {
  return /^\s*<(?:!doctype|html|head|body|script|svg|\?xml|iframe|object)\b/i.test(
    text.replace(/^\uFEFF/, ""),
  );
}
