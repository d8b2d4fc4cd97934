/**
 * The new text of an e-mail reply: what the person wrote above the quoted mail. Cuts at the first line
 * that starts a quotation ("On … wrote:", Outlook's "-----Original Message-----" or "From: … Sent: …"
 * block, a signature's "-- " line) and drops ">" quoted lines, so that the notification we sent (and the
 * unsubscribe link in its footer) never ends up in a comment.
 */
const attributionLine = [
  /^On\b.{0,300}\bwrote:\s*$/i,
  /^Le\b.{0,300}\ba écrit\s*:\s*$/i,
  /^Am\b.{0,300}\bschrieb\b.{0,200}:\s*$/i,
  /^El\b.{0,300}\bescribió:\s*$/i,
  /^Op\b.{0,300}\bschreef\b.{0,200}:\s*$/i,
];
const separatorLine = [
  /^-{2,}\s*Original Message\s*-{2,}\s*$/i,
  /^-{2,}\s*Forwarded message\s*-{2,}\s*$/i,
  /^_{10,}\s*$/,
  // A signature starts at "-- " (RFC 3676): it is not part of what the person says about the ticket.
  /^-- $/,
];
const headerBlockStart = /^\*?From:\*?\s+\S/i;
const headerBlockNext = /^\*?(Sent|Date|To|Subject):\*?\s/i;

function isQuotationStart(lines: string[], index: number): boolean {
  const line = lines[index]!;
  const trimmed = line.trim();
  if (separatorLine.some((pattern) => pattern.test(line))) return true;
  if (attributionLine.some((pattern) => pattern.test(trimmed))) return true;
  // Mail programs wrap a long attribution over two lines: "On Mon, 3 Nov 2025 at 10:02, Helpdesk" / "<x@y> wrote:".
  const next = lines[index + 1]?.trim();
  if (/^On\s/i.test(trimmed) && next !== undefined && /\bwrote:\s*$/i.test(next)) return true;
  // Outlook quotes without ">": a "From:" line followed by "Sent:"/"Date:"/"To:" starts the old mail.
  if (headerBlockStart.test(trimmed)) {
    const following = lines.slice(index + 1, index + 4).map((l) => l.trim());
    return following.some((l) => headerBlockNext.test(l));
  }
  return false;
}

export function replyTextOf(body: string): string {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  const end = lines.findIndex((_line, index) => isQuotationStart(lines, index));
  const own = (end === -1 ? lines : lines.slice(0, end)).filter((line) => !/^\s*>/.test(line));
  return own
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
