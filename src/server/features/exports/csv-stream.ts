import { csvByteOrderMark, csvRow } from "#shared/csv/csv.ts";

/** Rows read this many at a time: memory holds one page, whatever the export's size. */
export const csvPageSize = 1_000;

/** A CSV download: its file name and its text, produced a page at a time as the response drains. */
export interface CsvExport {
  filename: string;
  chunks: AsyncGenerator<string, void, undefined>;
}

interface CsvStreamOptions<Row> {
  header: readonly string[];
  /** The page after `last` (the first page when undefined), at most `limit` rows, in keyset order. */
  readPage: (last: Row | undefined, limit: number) => Promise<Row[]>;
  toCells: (row: Row) => ReadonlyArray<string | null>;
  pageSize?: number;
}

/**
 * Reads the first page before the answer starts, so that a failing query is still a proper error answer
 * (once the first byte is sent, a failure can only cut the download short). Then the BOM and header row,
 * and each page as its own chunk: the next page is read only when the response asks for more.
 */
export async function csvStream<Row>({
  header,
  readPage,
  toCells,
  pageSize = csvPageSize,
}: CsvStreamOptions<Row>): Promise<CsvExport["chunks"]> {
  const first = await readPage(undefined, pageSize);
  return (async function* pages() {
    yield csvByteOrderMark + csvRow(header);
    let page = first;
    while (page.length > 0) {
      yield page.map((row) => csvRow(toCells(row))).join("");
      if (page.length < pageSize) return;
      page = await readPage(page.at(-1), pageSize);
    }
  })();
}

/** tickets-2026-11-23.csv: the day of the export, in UTC like every time in the file. */
export const csvFilename = (subject: string, now: Date) => `${subject}-${now.toISOString().slice(0, 10)}.csv`;
