import { z } from "zod";

export const autoCloseDaysMin = 1;
export const autoCloseDaysMax = 365;
const daysMessage = `Days must be a whole number from ${autoCloseDaysMin} to ${autoCloseDaysMax}`;

/**
 * Auto-close (decision 021): a Resolved ticket without activity for `days` days becomes Closed.
 * Days are calendar days, not business days: the creator is the one who waits, and "in 7 days" must mean
 * what it says to them (docs/decisions/021-auto-close.md).
 */
export const autoCloseSettingsSchema = z.object({
  enabled: z.boolean({ error: "Enabled must be true or false" }),
  days: z
    .number({ error: daysMessage })
    .int(daysMessage)
    .min(autoCloseDaysMin, daysMessage)
    .max(autoCloseDaysMax, daysMessage),
});
export type AutoCloseSettings = z.infer<typeof autoCloseSettingsSchema>;

export const defaultAutoCloseSettings: AutoCloseSettings = { enabled: true, days: 7 };

const dayMs = 24 * 60 * 60_000;

/**
 * When a ticket closes automatically: `days` after its last activity, for a Resolved ticket while
 * auto-close is on; null otherwise. A ticket already past that time (the job runs every few minutes) closes
 * "now", never in the past.
 */
export function autoCloseAtOf(
  ticket: { status: string; lastActivityAt: Date },
  settings: AutoCloseSettings,
  now: Date,
): Date | null {
  if (!settings.enabled || ticket.status !== "Resolved") return null;
  const due = ticket.lastActivityAt.getTime() + settings.days * dayMs;
  return new Date(Math.max(due, now.getTime()));
}

/** The last activity before which a Resolved ticket is due to close at `now`. */
export const autoCloseCutoff = (settings: AutoCloseSettings, now: Date): Date =>
  new Date(now.getTime() - settings.days * dayMs);

/** The timeline's and the notification's words for an automatic close. */
export const autoClosedText = (days: number) =>
  `Closed automatically after ${days} ${days === 1 ? "day" : "days"} without activity`;
