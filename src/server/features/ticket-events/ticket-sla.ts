import { isDeepStrictEqual } from "node:util";
import type { Db } from "#server/db/client.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import type { EventValues } from "#server/features/ticket-records/ticket-activity.queries.ts";
import { type Actor, can } from "#shared/permissions.ts";
import {
  dueTimesOf,
  isSlaRunning,
  slaDueAtOf,
  type TicketDueTimes,
} from "#shared/service-levels/ticket-sla.ts";
import type { TicketPriority } from "#shared/tickets/ticket.schemas.ts";
import { findTicketSlaRow, type TicketSlaValues, updateTicketSla } from "./ticket-sla.queries.ts";

/** The due times of a ticket raised now, from the policy and calendar as they are in this transaction. */
export async function dueTimesForTicket(
  tx: Db,
  priority: TicketPriority,
  createdAt: Date,
): Promise<TicketDueTimes & { slaDueAt: Date | null }> {
  const [policy, calendar] = await Promise.all([
    readSetting(tx, "sla-policies"),
    readSetting(tx, "business-calendar"),
  ]);
  const due = dueTimesOf(policy, calendar, priority, createdAt);
  return {
    ...due,
    slaDueAt: slaDueAtOf({ status: "Open", firstRespondedAt: null, resolvedAt: null, ...due }),
  };
}

interface SlaChange {
  /** The priority changed: due times are computed again from createdAt with the new policy. */
  priorityChanged?: boolean;
  /** A first response happened (a public staff comment, an assignment). Only the first one counts. */
  responded?: boolean;
  /** Who responded, when a comment: the ticket's own creator commenting is no response, and changes nothing. */
  responder?: string;
}

/**
 * What a ticket event changes of the ticket's service levels, or null when it changes nothing they depend
 * on (decision 019): an assignment is the first response, as is a public comment by staff on a ticket they
 * did not raise; a status change may stop or restart the clock; a new priority moves the due times. Internal
 * notes, feedback, escalations and the automatic close change none of it.
 */
export function slaChangeOf(event: EventValues, actor: Actor | undefined): SlaChange | null {
  switch (event.type) {
    case "assigned":
      return { responded: true };
    case "reassigned":
      return { responded: event.toAssigneeId != null };
    case "status_changed":
      return {};
    case "edited":
      return event.changes?.some((change) => change.field === "priority") ? { priorityChanged: true } : null;
    case "commented":
      return actor && can.seeServiceLevels(actor) ? { responded: true, responder: actor.id } : null;
    default:
      return null;
  }
}

const isLater = (at: Date | null, now: Date) => at !== null && at.getTime() > now.getTime();

/**
 * Brings a ticket's service-level columns in line with what just happened to it, inside the caller's
 * transaction (after its update, under its row lock): the first response, resolvedAt (set when the ticket
 * stops at Resolved or Closed, cleared when it runs again), due times after a priority change, and
 * slaDueAt. A recomputed warn or due time still ahead clears its sent stamp, so the escalation job warns
 * or escalates again on the new time.
 */
export async function syncTicketSla(tx: Db, ticketId: string, now: Date, change: SlaChange = {}) {
  const row = await findTicketSlaRow(tx, ticketId);
  if (!row) return;
  const { status, createdBy, priority, createdAt, ...before } = row;
  if (change.responder !== undefined && change.responder === createdBy) return;
  const next = { ...before };
  if (change.priorityChanged) {
    const due = await dueTimesForTicket(tx, priority, createdAt);
    next.firstResponseDueAt = due.firstResponseDueAt;
    next.firstResponseWarnAt = due.firstResponseWarnAt;
    next.resolutionDueAt = due.resolutionDueAt;
    next.resolutionWarnAt = due.resolutionWarnAt;
    if (isLater(due.firstResponseWarnAt, now)) next.firstResponseWarnedAt = null;
    if (isLater(due.firstResponseDueAt, now)) next.firstResponseBreachedAt = null;
    if (isLater(due.resolutionWarnAt, now)) next.resolutionWarnedAt = null;
    if (isLater(due.resolutionDueAt, now)) next.resolutionBreachedAt = null;
  }
  if (change.responded && next.firstRespondedAt === null) next.firstRespondedAt = now;
  if (isSlaRunning(status)) next.resolvedAt = null;
  else next.resolvedAt ??= now;
  next.slaDueAt = slaDueAtOf({ status, ...next });
  const changed: TicketSlaValues = Object.fromEntries(
    Object.entries(next).filter(
      ([key, value]) => !isDeepStrictEqual(value, before[key as keyof typeof before]),
    ),
  );
  if (Object.keys(changed).length > 0) await updateTicketSla(tx, ticketId, changed);
}
