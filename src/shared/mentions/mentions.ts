/**
 * A mention is stored in the comment's plain text as `@[Display Name](userId)`: the staff autocomplete
 * inserts it, so the server never guesses who "@alex" is (two Alexes, renamed people), and the text stays
 * readable in e-mails and exports. Pages render it as a highlighted "@Display Name".
 */
const mentionPattern = /@\[([^[\]\n]{1,80})\]\(([A-Za-z0-9_-]{1,64})\)/g;

/** The most mentions one message notifies; more are plain text (a pasted list must not page everyone). */
export const maxMentionsPerMessage = 20;

export interface Mention {
  userId: string;
  name: string;
}

/** The text of a token for `person`; brackets in a name would end the token early, so they become spaces. */
export function mentionToken(person: Mention): string {
  const name = person.name.replace(/[[\]\n]/g, " ").trim() || "someone";
  return `@[${name.slice(0, 80)}](${person.userId})`;
}

/** The people a message mentions, each once, in order of first mention, at most maxMentionsPerMessage. */
export function parseMentions(message: string): Mention[] {
  const seen = new Map<string, Mention>();
  for (const match of message.matchAll(mentionPattern)) {
    const [, name, userId] = match;
    if (!seen.has(userId!)) seen.set(userId!, { userId: userId!, name: name!.trim() });
    if (seen.size === maxMentionsPerMessage) break;
  }
  return [...seen.values()];
}

/** Text with every token shown as "@Name": notification previews, e-mails, a user's own @text. */
export function mentionsToPlainText(message: string): string {
  return message.replace(mentionPattern, (_token, name: string) => `@${name.trim()}`);
}

export type MessagePart = { kind: "text"; text: string } | ({ kind: "mention" } & Mention);

/** The message cut into text and mentions, for a page to highlight the names. */
export function splitMentions(message: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let last = 0;
  for (const match of message.matchAll(mentionPattern)) {
    const index = match.index ?? 0;
    if (index > last) parts.push({ kind: "text", text: message.slice(last, index) });
    parts.push({ kind: "mention", name: match[1]!.trim(), userId: match[2]! });
    last = index + match[0].length;
  }
  if (last < message.length) parts.push({ kind: "text", text: message.slice(last) });
  return parts;
}
