const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** "Nov 21, 2025, 5:33 AM" in the reader's locale. */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"} ago`;

/**
 * How long ago, for notifications: "Just now" under a minute (and for a timestamp slightly ahead of this
 * clock), "5 min ago", "3 hours ago", "2 days ago", then the date itself after a week.
 */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const age = now - new Date(iso).getTime();
  if (age < minute) return "Just now";
  if (age < hour) return `${Math.floor(age / minute)} min ago`;
  if (age < day) return plural(Math.floor(age / hour), "hour");
  if (age < 7 * day) return plural(Math.floor(age / day), "day");
  return formatDateTime(iso);
}
