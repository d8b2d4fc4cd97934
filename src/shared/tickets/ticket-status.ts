import { type Actor, can, type TicketFacts } from "#shared/permissions.ts";

/** The statuses a technician or administrator may set; Open is only ever the starting status. */
export const changeableStatuses = ["In Progress", "Resolved", "Closed"] as const;
export type ChangeableStatus = (typeof changeableStatuses)[number];

export const inProgressNeedsAssignee =
  "An unassigned ticket goes In Progress when a technician takes it (Assign to Me).";

/**
 * In Progress means someone works on the ticket, so it needs an assignee: a technician who sets it on an
 * unassigned ticket takes the ticket. Nobody else may, or the ticket would be stuck: Assign to Me
 * only takes Open tickets.
 */
export function takesTicket(actor: Actor, ticket: TicketFacts, target: ChangeableStatus): boolean {
  return target === "In Progress" && ticket.assignedTo === null && actor.role === "technician";
}

/** Why `actor` may not set `target` on this ticket (beyond may they change its status at all), or null. */
export function statusChangeRefusal(
  actor: Actor,
  ticket: TicketFacts,
  target: ChangeableStatus,
): string | null {
  if (ticket.status === target) return `This ticket is already ${target}.`;
  if (target === "In Progress" && ticket.assignedTo === null && !takesTicket(actor, ticket, target)) {
    return inProgressNeedsAssignee;
  }
  return null;
}

/**
 * In Progress and Resolved if not already, Closed at any time; nothing once Closed; and In Progress on
 * an unassigned ticket only for a technician, who takes it (docs/features.md, "Tickets"; decision 006).
 * The status buttons show these.
 */
export function statusTargets(actor: Actor, ticket: TicketFacts): ChangeableStatus[] {
  if (!can.changeStatus(actor, ticket)) return [];
  return changeableStatuses.filter((target) => statusChangeRefusal(actor, ticket, target) === null);
}
