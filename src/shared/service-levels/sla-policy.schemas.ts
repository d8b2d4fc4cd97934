import { z } from "zod";
import type { TicketPriority } from "#shared/tickets/ticket-priority.ts";

/** A year of business time at 24 hours a day: longer than any help desk promises, short enough to compute. */
export const slaTargetMinutesMax = 525_600;
/** A week of wall time: a "due soon" window longer than that would flag nearly everything. */
export const dueSoonMinutesMax = 10_080;

export const slaTargetKinds = ["firstResponse", "resolution"] as const;
export type SlaTargetKind = (typeof slaTargetKinds)[number];
export const slaTargetLabels: Record<SlaTargetKind, string> = {
  firstResponse: "first response",
  resolution: "resolution",
};

function targetMinutesSchema(label: string) {
  const message = `${label} target must be a whole number of minutes from 1 to ${slaTargetMinutesMax}, or empty for no target`;
  return z
    .number({ error: message })
    .int(message)
    .min(1, message)
    .max(slaTargetMinutesMax, message)
    .nullable();
}

function prioritySchema(priority: TicketPriority) {
  return z.object(
    {
      firstResponseMinutes: targetMinutesSchema(`${priority}: first response`),
      resolutionMinutes: targetMinutesSchema(`${priority}: resolution`),
    },
    { error: `${priority}: targets must list a first response and a resolution target` },
  );
}
export type SlaTargets = z.infer<ReturnType<typeof prioritySchema>>;

const dueSoonMessage = `Due soon window must be a whole number of minutes from 1 to ${dueSoonMinutesMax}`;

/**
 * Service levels (decision 019): per priority, a first-response and a resolution target
 * in business minutes of the business calendar (null = no target), and how close to its due time a
 * running target counts as "due soon" on lists and dashboards (wall-clock minutes).
 */
export const slaPolicySchema = z.object({
  targets: z.object(
    {
      Low: prioritySchema("Low"),
      Medium: prioritySchema("Medium"),
      High: prioritySchema("High"),
    },
    { error: "Targets must list Low, Medium and High" },
  ),
  dueSoonMinutes: z
    .number({ error: dueSoonMessage })
    .int(dueSoonMessage)
    .min(1, dueSoonMessage)
    .max(dueSoonMinutesMax, dueSoonMessage),
});
export type SlaPolicy = z.infer<typeof slaPolicySchema>;

/**
 * Until an admin sets the organisation's own (business time: 8 hours are one working day of the default
 * calendar): High 1 h / 8 h (a day), Medium 4 h / 24 h (three days), Low 8 h / 40 h (a week); due soon
 * in the last hour.
 */
export const defaultSlaPolicy: SlaPolicy = {
  targets: {
    High: { firstResponseMinutes: 60, resolutionMinutes: 480 },
    Medium: { firstResponseMinutes: 240, resolutionMinutes: 1440 },
    Low: { firstResponseMinutes: 480, resolutionMinutes: 2400 },
  },
  dueSoonMinutes: 60,
};
