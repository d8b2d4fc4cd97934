import { z } from "zod";
import type { TicketFacts } from "#shared/permissions.ts";
import { personIdSchema } from "#shared/users/user.schemas.ts";
import type { TicketStatus } from "./ticket.schemas.ts";

/** `null` sends the ticket back to the queue (unassigned). */
export const assignTicketInputSchema = z.object({
  assigneeId: personIdSchema("Assignee", "Assignee must be a person's id or null").nullable(),
});
export type AssignTicketInput = z.infer<typeof assignTicketInputSchema>;

/** Why this assignment would change nothing (may the actor make it at all: can.assignTo, can.returnToQueue), or null. */
export function assignmentRefusal(ticket: TicketFacts, assigneeId: string | null): string | null {
  if (assigneeId !== ticket.assignedTo) return null;
  return assigneeId === null
    ? "This ticket is already in the queue."
    : "This ticket is already assigned to them.";
}

/**
 * The status after an assignment, keeping decision 006 (In Progress needs an assignee): an Open ticket
 * given to a technician is being worked on, as with Assign to Me, and an In Progress ticket sent back to
 * the queue is Open again so that Assign to Me can take it. Resolved stays Resolved either way.
 */
export function statusAfterAssignment(status: TicketStatus, assigneeId: string | null): TicketStatus {
  if (assigneeId === null) return status === "In Progress" ? "Open" : status;
  return status === "Open" ? "In Progress" : status;
}

/** Who a ticket can be given to: id and name only (staff see it; e-mails stay with user management). */
export const technicianSchema = z.object({ id: z.string(), name: z.string() });
export type Technician = z.infer<typeof technicianSchema>;
