// CSV as spreadsheet programs read it (RFC 4180, decision 024): pure, so the rule is tested on its own.

/** Excel and LibreOffice read a file as UTF-8 only when it starts with a byte order mark. */
export const csvByteOrderMark = "\uFEFF";

/** RFC 4180 ends every record, the last one too, with CRLF. */
export const csvLineEnd = "\r\n";

/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection"): = + - @, and tab
 * and carriage return, which some programs skip before looking at the next character. Any leading "-" is
 * escaped, a plain negative number like "-1" too: one rule with no exceptions to get wrong, at the price
 * of a visible apostrophe on a negative number (our exports hold text, not figures).
 */
const formulaStart = /^[=+\-@\t\r]/;

/** Needs quotes under RFC 4180: a separator, a quote or a line break inside the cell. */
const needsQuotes = /[",\r\n]/;

/** One cell: formula-escaped with a leading apostrophe, then quoted (quotes doubled) when it must be. */
export function csvCell(value: string | null | undefined): string {
  const text = value ?? "";
  const safe = formulaStart.test(text) ? `'${text}` : text;
  return needsQuotes.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One record, CRLF-terminated. */
export function csvRow(cells: ReadonlyArray<string | null | undefined>): string {
  return cells.map(csvCell).join(",") + csvLineEnd;
}
