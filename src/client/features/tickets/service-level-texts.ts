import { plural, t } from "@lingui/core/macro";
import { type SpanParts, spanParts } from "#shared/service-levels/format-span.ts";
import {
  type SlaEventType,
  type SlaTarget,
  shortDurationParts,
} from "#shared/service-levels/sla-escalation.ts";

// The service-level and auto-close sentences of the ticket page in the active language. The server words
// the same events in English (#shared/service-levels: slaEventText, autoClosedText, formatSpan) for its
// notifications and e-mails; the numbers come from the same shared functions, so both tell the same time.

/** "2h 14m", "3d", "35m" ("2 Std. 14 Min." in German). */
function partsText({ days, hours, minutes }: SpanParts): string {
  if (days > 0) return hours > 0 ? t`${days}d ${hours}h` : t`${days}d`;
  if (hours > 0) return minutes > 0 ? t`${hours}h ${minutes}m` : t`${hours}h`;
  return t`${minutes}m`;
}

/** A countdown's span: formatSpan's words, "under a minute" included. */
export function spanText(ms: number): string {
  const parts = spanParts(ms);
  if (parts.days === 0 && parts.hours === 0 && parts.minutes === 0) return t`under a minute`;
  return partsText(parts);
}

/** slaEventText's sentence: "First response due in 12m", "Resolution target missed". */
export function slaEventSentence(
  type: SlaEventType,
  target: SlaTarget,
  { dueAt, at }: { dueAt: Date | null; at: Date },
): string {
  const isFirstResponse = target === "first_response";
  if (type === "sla_breached")
    return isFirstResponse ? t`First response target missed` : t`Resolution target missed`;
  if (!dueAt) return isFirstResponse ? t`First response due soon` : t`Resolution due soon`;
  const duration = partsText(shortDurationParts(dueAt.getTime() - at.getTime()));
  return isFirstResponse ? t`First response due in ${duration}` : t`Resolution due in ${duration}`;
}

/** autoClosedText's sentence: "Closed automatically after 7 days without activity". */
export const autoClosedSentence = (days: number) =>
  plural(days, {
    one: "Closed automatically after # day without activity",
    other: "Closed automatically after # days without activity",
  });

/** autoResolvedText's sentence: "Resolved automatically after 5 business days waiting for the requester's reply". */
export const autoResolvedSentence = (days: number) =>
  plural(days, {
    one: "Resolved automatically after # business day waiting for the requester's reply",
    other: "Resolved automatically after # business days waiting for the requester's reply",
  });
