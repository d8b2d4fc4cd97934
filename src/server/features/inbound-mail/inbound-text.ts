import type { ParsedMail } from "mailparser";

const titleMaxLength = 200;
const descriptionMaxLength = 5000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const controlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const loneSurrogates = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Text as the ticket rules can store it (storable-text.ts): no control characters, valid Unicode. */
export const storable = (text: string) =>
  text.replace(controlCharacters, "").replace(loneSurrogates, "\uFFFD");

export const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Subject → title: one line, without Re:/Fwd: prefixes, at most 200 characters (the form's rule). */
export function titleFromSubject(subject: string): string {
  const line = storable(subject)
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^((re|fw|fwd|aw|wg|tr|sv)\s*:\s*)+/i, "")
    .trim();
  return cut(line || "(no subject)", titleMaxLength);
}

/** Body → description: the whole text (a forwarded problem is the point), cut to fit with its notes. */
export function descriptionFrom(body: string, notes: string[]): string {
  const tail = notes.length > 0 ? `\n\n${notes.join("\n")}` : "";
  const text = storable(body).replace(/\r\n?/g, "\n").trim() || "(The e-mail had no text.)";
  const room = descriptionMaxLength - tail.length;
  const cutNote = "\n\n[The rest of the e-mail was cut: a description holds at most 5000 characters.]";
  return (text.length > room ? `${text.slice(0, room - cutNote.length).trimEnd()}${cutNote}` : text) + tail;
}

const typeExtensions: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "text/plain": "txt",
  "application/pdf": "pdf",
};

/** A file name the attachments service accepts: no path, no control characters, at most 200 characters. */
export function fileNameOf(attachment: ParsedMail["attachments"][number], index: number): string {
  const given = storable(attachment.filename ?? "")
    .replace(/[/\\]/g, "_")
    .trim();
  if (given) return given.length > 200 ? given.slice(-200) : given;
  const extension = typeExtensions[attachment.contentType.toLowerCase()] ?? "bin";
  return `attachment-${index + 1}.${extension}`;
}

export const bodyTextOf = (parsed: ParsedMail) => (parsed.text ?? "").trim();
