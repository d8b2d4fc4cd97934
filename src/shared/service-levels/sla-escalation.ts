// What the escalation job says about a service-level target (decision 020): the timeline entry and the
// notification share these words, so the ticket page and the bell tell the same thing.

import type { SpanParts } from "./format-span.ts";

/** The two targets an SLA policy sets per priority. */
export const slaTargets = ["first_response", "resolution"] as const;
export type SlaTarget = (typeof slaTargets)[number];

export const slaTargetLabels: Record<SlaTarget, string> = {
  first_response: "First response",
  resolution: "Resolution",
};

/** The timeline events the escalation job records; staff only (the creator is never told). */
export const slaEventTypes = ["sla_warning", "sla_breached"] as const;
export type SlaEventType = (typeof slaEventTypes)[number];
export const isSlaEventType = (type: string): type is SlaEventType =>
  (slaEventTypes as readonly string[]).includes(type);

const minuteMs = 60_000;
const hourMinutes = 60;
const dayMinutes = 24 * hourMinutes;

/**
 * A short wall-clock duration, rounded up to the minute so that "due in 0m" never appears while time is
 * left: "12m", "1h 5m", "3h", "2d 4h".
 */
export function shortDuration(ms: number): string {
  const { days, hours, minutes } = shortDurationParts(ms);
  if (days > 0) return `${days}d${hours ? ` ${hours}h` : ""}`;
  if (hours > 0) return `${hours}h${minutes ? ` ${minutes}m` : ""}`;
  return `${minutes}m`;
}

/**
 * shortDuration's parts, for the client to word in its language: minutes rounded up (at least 1); from a
 * day on, the minutes are left out (0).
 */
export function shortDurationParts(ms: number): SpanParts {
  const total = Math.max(1, Math.ceil(ms / minuteMs));
  if (total < hourMinutes) return { days: 0, hours: 0, minutes: total };
  if (total < dayMinutes)
    return { days: 0, hours: Math.floor(total / hourMinutes), minutes: total % hourMinutes };
  return {
    days: Math.floor(total / dayMinutes),
    hours: Math.floor((total % dayMinutes) / hourMinutes),
    minutes: 0,
  };
}

/**
 * "First response due in 12m" (a warning, counted from when it was sent) or "Resolution target missed".
 * `dueAt` null (a warning recorded without a due time) leaves the time out.
 */
export function slaEventText(
  type: SlaEventType,
  target: SlaTarget,
  { dueAt, at }: { dueAt: Date | null; at: Date },
): string {
  const label = slaTargetLabels[target];
  if (type === "sla_breached") return `${label} target missed`;
  if (!dueAt) return `${label} due soon`;
  return `${label} due in ${shortDuration(dueAt.getTime() - at.getTime())}`;
}
