// Zod-free on purpose: the app's notification list imports it, and only types from the schemas.

/** How long a ticket's title may be where a notification names it (titles go up to 200 characters). */
export const notificationTitleLength = 60;

/**
 * A ticket's title as a notification names it (decision 059): on one line, and cut at a word with "…" when
 * longer than notificationTitleLength. The English message and the app's own wording both use it.
 */
export function shortTicketTitle(title: string): string {
  const line = title.replace(/\s+/g, " ").trim();
  if (line.length <= notificationTitleLength) return line;
  const cut = line.slice(0, notificationTitleLength - 1);
  const lastSpace = cut.lastIndexOf(" ");
  // A word is kept whole unless that would leave too little of the title.
  const head = lastSpace >= notificationTitleLength / 2 ? cut.slice(0, lastSpace) : cut;
  return `${head.trimEnd()}…`;
}
