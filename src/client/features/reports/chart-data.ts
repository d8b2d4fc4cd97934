import { t as tc } from "@lingui/core/macro";
import { csvByteOrderMark, csvRow } from "#shared/csv/csv.ts";

export interface ChartSeries {
  label: string;
  values: number[];
  color: string;
  /** Shown in the table and the CSV only (e.g. how many ratings an average rests on). */
  tableOnly?: boolean;
}

/** What one chart draws and what its table view and CSV list: one row per label, one column per series. */
export interface ChartData {
  /** The first column's header, e.g. "Day" or "Category". */
  category: string;
  labels: string[];
  series: ChartSeries[];
  kind: "line" | "bar";
  /** Whole numbers (counts): the axis steps by 1, 2, 5, 10… */
  isCount?: boolean;
  /** How a value reads in the table, the CSV and the axis (e.g. "1 h 30 min"). */
  format?: (value: number) => string;
}

export const chartColors = {
  indigo: "#4f46e5",
  emerald: "#059669",
  amber: "#d97706",
  slate: "#64748b",
  rose: "#e11d48",
} as const;

export const formatValue = (data: ChartData, value: number) =>
  data.format ? data.format(value) : value.toLocaleString("en");

/** True when there is nothing to draw: no rows, or every figure zero. */
export const isEmptyChart = (data: ChartData) =>
  data.labels.length === 0 || data.series.every((series) => series.values.every((value) => value === 0));

/** The table view's rows as text, the first cell the label. */
export function tableRows(data: ChartData): string[][] {
  return data.labels.map((label, i) => [
    label,
    ...data.series.map((s) => formatValue(data, s.values[i] ?? 0)),
  ]);
}

/**
 * The CSV download: UTF-8 with a byte order mark, each cell formula-escaped by the shared csvRow (a
 * department or technician called "=HYPERLINK(…)" stays text). Figures are written raw, not formatted.
 */
export function chartCsv(data: ChartData): string {
  const header = csvRow([data.category, ...data.series.map((s) => s.label)]);
  const rows = data.labels.map((label, i) =>
    csvRow([label, ...data.series.map((s) => String(s.values[i] ?? 0))]),
  );
  return csvByteOrderMark + header + rows.join("");
}

/** "report-tickets-opened-2026-03-01-to-2026-03-30" style file names. */
export const fileNameFor = (title: string, from: string, to: string) =>
  `report-${title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}-${from}-to-${to}`;

export function downloadBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** Seconds as people say them: "45 min", "3 h 20 min", "2 d 4 h". */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return tc`${minutes} min`;
  if (minutes < 24 * 60) {
    const rest = minutes % 60;
    const whole = Math.floor(minutes / 60);
    return rest ? tc`${whole} h ${rest} min` : tc`${whole} h`;
  }
  const hours = Math.round(seconds / 3600);
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return rest ? tc`${days} d ${rest} h` : tc`${days} d`;
}
