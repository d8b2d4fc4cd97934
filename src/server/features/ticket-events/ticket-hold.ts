import type { Db } from "#server/db/client.ts";
import { updateTicketHold } from "#server/features/ticket-records/ticket.queries.ts";
import type { HoldEndReason } from "#shared/tickets/ticket-hold.ts";
import type { RecordEvent } from "./ticket-transaction.ts";

/**
 * Ends a ticket's hold inside the caller's ticket transaction (the row locked, decision 053), whatever ended
 * it (decision 070): staff, the requester's reply, the lift date, or a status change, which must end it
 * first (the table's check refuses a held ticket that is not In Progress). The "taken_off_hold" event's SLA
 * step moves the resolution's due times on by the business time held, and tells the assignee when the
 * requester's reply or the date lifted it. Does nothing to a ticket that is not on hold; says whether it
 * ended one.
 */
export async function endHold(
  tx: Db,
  recordEvent: RecordEvent,
  ticket: { id: string; onHoldSince: Date | null },
  { reason, actorId, at }: { reason: HoldEndReason; actorId: string | null; at: Date },
): Promise<boolean> {
  if (!ticket.onHoldSince) return false;
  await updateTicketHold(tx, ticket.id, { onHoldSince: null, holdUntil: null });
  await recordEvent({
    ticketId: ticket.id,
    type: "taken_off_hold",
    actorId,
    holdEnd: reason,
    heldSince: ticket.onHoldSince,
    createdAt: at,
  });
  return true;
}
