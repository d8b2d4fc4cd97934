import type { z } from "zod";

// PostgreSQL text cannot hold U+0000 (the insert fails), and the other C0 controls and DEL are never
// typed by a person: they come from pasted binary or from probing. Tab, line feed and carriage return
// stay allowed, since descriptions and comments have several lines.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this rule's job.
const controlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// A lone UTF-16 surrogate is not Unicode: the driver would silently store U+FFFD in its place.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored as it is, or null when it can. */
export function unstorableTextReason(text: string, label: string): string | null {
  if (controlCharacters.test(text)) return `${label} must not contain control characters`;
  if (loneSurrogate.test(text)) return `${label} must be valid Unicode text`;
  return null;
}

/** The rule every free-text field shares: refuses what PostgreSQL text cannot (or should not) store. */
export function storableText<T extends z.ZodType<string, unknown>>(schema: T, label: string) {
  return schema.superRefine((text, ctx) => {
    const reason = unstorableTextReason(text, label);
    if (reason) ctx.addIssue({ code: "custom", message: reason });
  });
}
