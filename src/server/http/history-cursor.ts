import { validationFailed } from "#server/errors.ts";

/** A page cursor of a history list (newest first): the last entry's time and id, opaque to the browser. */
export function encodeHistoryCursor({ createdAt, id }: { createdAt: Date; id: string }): string {
  return encodeCursorPair(createdAt.toISOString(), id);
}

export function decodeHistoryCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id] = decodeCursorPair(cursor);
  const createdAt = new Date(iso);
  if (Number.isNaN(createdAt.getTime())) throw validationFailed("cursor: Not a valid page cursor");
  return { createdAt, id };
}

export function encodeCursorPair(value: string, id: string): string {
  return Buffer.from(JSON.stringify([value, id])).toString("base64url");
}

/** The one answer for every malformed cursor: 400 "cursor: Not a valid page cursor". */
export function decodeCursorPair(cursor: string): [string, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && typeof parsed[0] === "string" && typeof parsed[1] === "string") {
      return [parsed[0], parsed[1]];
    }
  } catch {
    // Falls through to the one answer for every malformed cursor.
  }
  throw validationFailed("cursor: Not a valid page cursor");
}
