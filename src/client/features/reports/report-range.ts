import { msg } from "@lingui/core/macro";
import {
  daysInRange,
  type ReportGrouping,
  type ReportQuery,
  reportRangeDaysMax,
} from "#shared/reports/report.schemas.ts";

export const rangePresets = [
  { value: "7", label: msg`Last 7 days`, days: 7 },
  { value: "30", label: msg`Last 30 days`, days: 30 },
  { value: "90", label: msg`Last 90 days`, days: 90 },
] as const;
export type RangeChoice = (typeof rangePresets)[number]["value"] | "custom";

const dayMs = 86_400_000;
/** "YYYY-MM-DD" of a day in the browser's calendar. */
export const localDate = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;

/** The last `days` days up to today, both ends included. */
export function lastDays(days: number, today = new Date()): { from: string; to: string } {
  return { from: localDate(new Date(today.getTime() - (days - 1) * dayMs)), to: localDate(today) };
}

/**
 * The range the page shows, read from its address (?range=7|30|90 or ?range=custom&from=…&to=…, and
 * &group=week): an address can be shared or bookmarked. Anything unreadable falls back to 30 days.
 */
export function readRange(
  params: URLSearchParams,
  today = new Date(),
): { choice: RangeChoice; query: ReportQuery } {
  const group: ReportGrouping = params.get("group") === "week" ? "week" : "day";
  const range = params.get("range");
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  if (range === "custom" && isUsableRange(from, to)) return { choice: "custom", query: { from, to, group } };
  const preset = rangePresets.find((p) => p.value === range) ?? rangePresets[1];
  return { choice: preset.value, query: { ...lastDays(preset.days, today), group } };
}

const datePattern = /^\d{4}-\d{2}-\d{2}$/;
export function isUsableRange(from: string, to: string): boolean {
  if (!datePattern.test(from) || !datePattern.test(to) || from > to) return false;
  return daysInRange(from, to) <= reportRangeDaysMax;
}
