/**
 * The new text of an e-mail reply: what the person wrote above the quoted mail. Cuts at the first line
 * that starts a quotation ("On … wrote:", Outlook's "-----Original Message-----" or "From: … Sent: …"
 * block, a signature's "-- " line) and drops ">" quoted lines, so that the notification we sent (and the
 * unsubscribe link in its footer) never ends up in a comment. The rule Outlook draws above its header
 * block (an `<hr>`, which the HTML-to-text conversion writes as a row of dashes, or a row of underscores
 * in its plain text) goes with the quotation.
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
// Outlook writes its header block in the reader's language: English, French, German, Spanish, Dutch.
const headerBlockStart = /^\*?(From|De|Von|Van)\s?:\*?\s+\S/i;
const headerBlockNext =
  /^\*?(Sent|Date|To|Subject|Envoyé|Objet|À|Gesendet|Datum|An|Betreff|Enviado|Fecha|Para|Asunto|Verzonden|Aan|Onderwerp)\s?:\*?\s/i;
/** A horizontal rule as text: `<hr>` through html-to-text (dashes), Outlook's plain text (underscores). */
const ruleLine = /^\s*(-{3,}|_{3,}|={3,})\s*$/;
/** "Key: value", the shape of a mail header line in any language (a word or two before the colon). */
const anyHeaderLine = /^\*?[\p{L}][\p{L}\- ]{0,24}:\*?\s+\S/u;

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
  // A long rule over a header block in a language not listed above ("Da: … / Inviato: … / A: …"): Outlook
  // always writes at least From, Sent, To and Subject, so three header lines are asked for.
  if (ruleLine.test(line) && trimmed.length >= 10) {
    const following = lines
      .slice(index + 1, index + 7)
      .map((l) => l.trim())
      .filter(Boolean);
    return following.length >= 3 && following.slice(0, 3).every((l) => anyHeaderLine.test(l));
  }
  return false;
}

/** The quotation's start moved up over the rule and blank lines right above it (Outlook's `<hr>`). */
function withRuleAbove(lines: string[], end: number): number {
  let start = end;
  while (start > 0 && (lines[start - 1]!.trim() === "" || ruleLine.test(lines[start - 1]!))) start--;
  return start;
}

export function replyTextOf(body: string): string {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  const found = lines.findIndex((_line, index) => isQuotationStart(lines, index));
  const end = found === -1 ? -1 : withRuleAbove(lines, found);
  const own = (end === -1 ? lines : lines.slice(0, end)).filter((line) => !/^\s*>/.test(line));
  return own
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
