import type { TicketStatus } from "./ticket.schemas.ts";

/** Spec §4: In Progress and Resolved if not already, Closed at any time; nothing once Closed. */
export function statusTargets(current: TicketStatus): TicketStatus[] {
  if (current === "Closed") return [];
  const targets: TicketStatus[] = ["In Progress", "Resolved", "Closed"];
  return targets.filter((status) => status !== current);
}

export const changeableStatuses = ["In Progress", "Resolved", "Closed"] as const;
