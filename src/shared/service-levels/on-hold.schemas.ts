import { z } from "zod";
import type { BusinessCalendar } from "./business-calendar.schemas.ts";
import { addBusinessDays } from "./business-hours.ts";

export const holdBusinessDaysMin = 1;
export const holdBusinessDaysMax = 60;
const daysMessage = `Business days must be a whole number from ${holdBusinessDaysMin} to ${holdBusinessDaysMax}`;

/**
 * Admin settings › On hold (decision 070): a ticket that has waited on its requester for `businessDays`
 * working days of the business calendar is resolved, with a notice, when `autoResolve` is on. Off by
 * default: an installation that never turned it on resolves nothing by itself.
 */
export const onHoldSettingsSchema = z.object({
  autoResolve: z.boolean({ error: "Auto-resolve must be true or false" }),
  businessDays: z
    .number({ error: daysMessage })
    .int(daysMessage)
    .min(holdBusinessDaysMin, daysMessage)
    .max(holdBusinessDaysMax, daysMessage),
});
export type OnHoldSettings = z.infer<typeof onHoldSettingsSchema>;

export const defaultOnHoldSettings: OnHoldSettings = { autoResolve: false, businessDays: 5 };

/** When a ticket on hold since `onHoldSince` is resolved by itself; null while auto-resolve is off. */
export function holdAutoResolveAtOf(
  onHoldSince: Date,
  settings: OnHoldSettings,
  calendar: BusinessCalendar,
): Date | null {
  return settings.autoResolve ? addBusinessDays(calendar, onHoldSince, settings.businessDays) : null;
}

/** The timeline's and the notification's words for an automatic resolution of a ticket on hold. */
export const autoResolvedText = (days: number) =>
  `Resolved automatically after ${days} business ${days === 1 ? "day" : "days"} waiting for the requester's reply`;
