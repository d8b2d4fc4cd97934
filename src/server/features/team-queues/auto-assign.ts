import type { Db } from "#server/db/client.ts";
import type { RecordEvent } from "#server/features/ticket-events/ticket-transaction.ts";
import { lockTicket, updateTicketAssignee } from "#server/features/ticket-records/ticket.queries.ts";
import { chooseAssignee } from "#shared/teams/team-assignment.ts";
import { statusAfterAssignment } from "#shared/tickets/ticket-assignment.ts";
import {
  countOpenTicketsOf,
  findAssignableMembers,
  lockTeam,
  updateLastAssigned,
} from "./team-queue.queries.ts";

export { lockTeam } from "./team-queue.queries.ts";

/**
 * Gives a ticket that has just come into a team to one of its members, as the team's mode says (decision
 * 073), inside the caller's transaction: the creating one (ticket.service.ts's createTicket) or one that
 * moves a ticket into a team. Off, or nobody who may get it (every member away or inactive), leaves the
 * ticket in the team's unassigned queue; so does a ticket that has an assignee, is Closed or is in another
 * team by now.
 *
 * Lock order (decision 053, extended): the ticket's row first — the caller holds it, or the ticket is new —
 * then the team's row, taken here. A caller that writes counted ticket columns before this (a team change
 * moves the team's counters) takes the team's row first with lockTeam, right after the ticket's, so that it
 * never holds counter rows while it waits for the team.
 *
 * Recorded like a staff assignment (the timeline, the assignee and the creator told, the webhook), through
 * recordEvent, as "auto_assigned" with no actor; it is not a first response (ticket-sla.ts). Returns the
 * chosen member's id, or null.
 */
export async function autoAssignInTeam(
  tx: Db,
  recordEvent: RecordEvent,
  { ticketId, teamId, now }: { ticketId: string; teamId: string; now: Date },
): Promise<string | null> {
  const team = await lockTeam(tx, teamId);
  if (!team || team.assignment === "off") return null;
  const ticket = await lockTicket(tx, ticketId);
  if (!ticket || ticket.teamId !== teamId || ticket.assignedTo !== null || ticket.status === "Closed") {
    return null;
  }
  const members = await findAssignableMembers(tx, teamId);
  const openCounts = team.assignment === "least_open" ? await countOpenTicketsOf(tx, members) : undefined;
  const chosen = chooseAssignee(team.assignment, members, team.lastAssignedTo, openCounts);
  if (chosen === null) return null;
  const status = statusAfterAssignment(ticket.status, chosen);
  // A millisecond after what brought the ticket into the team (its creation, a move), recorded at `now` in
  // the same transaction: the timeline orders by time, then by id, and must show this second.
  const at = new Date(now.getTime() + 1);
  await updateTicketAssignee(tx, ticketId, { assignedTo: chosen, status, updatedAt: at });
  await updateLastAssigned(tx, teamId, chosen);
  await recordEvent({
    ticketId,
    type: "auto_assigned",
    actorId: null,
    fromStatus: ticket.status,
    toStatus: status,
    fromAssigneeId: null,
    toAssigneeId: chosen,
    teamId,
    assignmentMode: team.assignment,
    createdAt: at,
  });
  return chosen;
}
