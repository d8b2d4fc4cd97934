import type { TicketStatus } from "./ticket.schemas.ts";

/** The statuses a technician or administrator may set; Open is only ever the starting status. */
export const changeableStatuses = ["In Progress", "Resolved", "Closed"] as const;
export type ChangeableStatus = (typeof changeableStatuses)[number];

/** Spec §4: In Progress and Resolved if not already, Closed at any time; nothing once Closed. */
export function statusTargets(current: TicketStatus): ChangeableStatus[] {
  if (current === "Closed") return [];
  return changeableStatuses.filter((status) => status !== current);
}
