/** A span in whole days, hours and minutes (minutes rounded down): what a countdown shows. */
export interface SpanParts {
  days: number;
  hours: number;
  minutes: number;
}

/** The parts of a wall-clock span for a countdown; the client words them in its language. */
export function spanParts(ms: number): SpanParts {
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  return {
    days: Math.floor(minutes / 1440),
    hours: Math.floor((minutes % 1440) / 60),
    minutes: minutes % 60,
  };
}

/** "2h 14m", "3d 4h", "35m", "under a minute": a wall-clock span for a countdown. */
export function formatSpan(ms: number): string {
  const { days, hours, minutes } = spanParts(ms);
  if (days === 0 && hours === 0 && minutes === 0) return "under a minute";
  if (days > 0) return hours > 0 ? `${days}d ${hours}h` : `${days}d`;
  if (hours > 0) return minutes > 0 ? `${hours}h ${minutes}m` : `${hours}h`;
  return `${minutes}m`;
}
