import { plural, t } from "@lingui/core/macro";
import { i18n } from "./i18n.ts";
import { shownTimeZone } from "./time-zone.ts";

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** Set by whoever draws the page: the browser's own zone, or the one the server drew it in (time-zone.ts). */
export { setTimeZone } from "./time-zone.ts";

/** "Nov 21, 2025, 5:33 AM" in English, "21.11.2025, 05:33" in German: the active language's way (decision 038). */
export function formatDateTime(iso: string) {
  const locale = i18n.locale || "en";
  const timeZone = shownTimeZone();
  const key = `${locale} ${timeZone ?? ""}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone });
    dateTimeFormats.set(key, format);
  }
  return format.format(new Date(iso));
}

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/**
 * How long ago, for notifications: "Just now" under a minute (and for a timestamp slightly ahead of this
 * clock), "5 min ago", "3 hours ago", "2 days ago", then the date itself after a week; in the active language.
 */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const age = now - new Date(iso).getTime();
  if (age < minute) return t`Just now`;
  if (age < hour) {
    const minutes = Math.floor(age / minute);
    return t`${minutes} min ago`;
  }
  if (age < day) {
    const hours = Math.floor(age / hour);
    return plural(hours, { one: "# hour ago", other: "# hours ago" });
  }
  if (age < 7 * day) {
    const days = Math.floor(age / day);
    return plural(days, { one: "# day ago", other: "# days ago" });
  }
  return formatDateTime(iso);
}

/**
 * "1.5 MB", "12 KB", "1 byte" in the active language ("1,5 MB" in German); the same steps as the shared
 * formatFileSize, which the server's messages use.
 */
export function formatFileSize(bytes: number): string {
  const number = (value: number) => i18n.number(value, { maximumFractionDigits: 1, useGrouping: false });
  if (bytes >= 1024 * 1024) {
    const megabytes = number(bytes / (1024 * 1024));
    return t`${megabytes} MB`;
  }
  if (bytes >= 1024) {
    const kilobytes = number(Math.round(bytes / 1024));
    return t`${kilobytes} KB`;
  }
  return plural(bytes, { one: "# byte", other: "# bytes" });
}
