import { isDeepStrictEqual } from "node:util";
import type { Db } from "#server/db/client.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import type { EventValues } from "#server/features/ticket-records/ticket-activity.queries.ts";
import { type Actor, can } from "#shared/permissions.ts";
import { addBusinessMinutes, businessMinutesBetween } from "#shared/service-levels/business-hours.ts";
import {
  dueTimesOf,
  isSlaRunning,
  slaDueAtOf,
  type TicketDueTimes,
} from "#shared/service-levels/ticket-sla.ts";
import type { TicketPriority } from "#shared/tickets/ticket.schemas.ts";
import {
  findTicketSlaRow,
  type TicketSlaColumns,
  type TicketSlaValues,
  updateTicketSla,
} from "./ticket-sla.queries.ts";

/**
 * The due times of a ticket raised at `createdAt`, from the policy and calendar as they are in this
 * transaction; the resolution's moved on by `pausedMinutes`, the business time its ended holds took
 * (decision 070).
 */
export async function dueTimesForTicket(
  tx: Db,
  priority: TicketPriority,
  createdAt: Date,
  pausedMinutes = 0,
): Promise<TicketDueTimes & { slaDueAt: Date | null }> {
  const [policy, calendar] = await Promise.all([
    readSetting(tx, "sla-policies"),
    readSetting(tx, "business-calendar"),
  ]);
  const due = dueTimesOf(policy, calendar, priority, createdAt);
  const later = (at: Date | null) =>
    at && pausedMinutes > 0 ? addBusinessMinutes(calendar, at, pausedMinutes) : at;
  const moved = {
    ...due,
    resolutionDueAt: later(due.resolutionDueAt),
    resolutionWarnAt: later(due.resolutionWarnAt),
  };
  return {
    ...moved,
    slaDueAt: slaDueAtOf({
      status: "Open",
      firstRespondedAt: null,
      resolvedAt: null,
      onHoldSince: null,
      ...moved,
    }),
  };
}

interface SlaChange {
  /** The priority changed: due times are computed again from createdAt with the new policy. */
  priorityChanged?: boolean;
  /** A first response happened (a public staff comment, an assignment). Only the first one counts. */
  responded?: boolean;
  /** Who responded, when a comment: the ticket's own creator commenting is no response, and changes nothing. */
  responder?: string;
  /**
   * A hold that began at this time ended (decision 070): the resolution's due and warn times move on by the
   * business time it held. (A hold that begins needs nothing more: slaDueAt leaves the paused target out.)
   */
  heldSince?: Date;
}

/**
 * What a ticket event changes of the ticket's service levels, or null when it changes nothing they depend
 * on (decision 019): an assignment by a person is the first response (a team's automatic one is not,
 * decision 073), as is a public comment by staff on a ticket they did not raise; a status change may stop or restart the clock; a new priority moves the due times. Internal
 * notes, feedback, escalations and the automatic close change none of it.
 */
export function slaChangeOf(
  event: EventValues & { heldSince?: Date },
  actor: Actor | undefined,
): SlaChange | null {
  switch (event.type) {
    case "assigned":
      return { responded: true };
    case "reassigned":
      return { responded: event.toAssigneeId != null };
    case "status_changed":
    case "auto_resolved":
    // A merged duplicate is Closed (decision 074): its clock stops as a Close stops it. The target's columns
    // stay: the replies moved into it answered another ticket's requester.
    case "merged":
      return {};
    // A team's automatic assignment (decision 073) is no response: nobody has looked at the ticket yet. It
    // may move the status (Open → In Progress), which keeps the clock running.
    case "auto_assigned":
      return {};
    case "edited":
      return event.changes?.some((change) => change.field === "priority") ? { priorityChanged: true } : null;
    case "commented":
      return actor && can.seeServiceLevels(actor) ? { responded: true, responder: actor.id } : null;
    case "put_on_hold":
      return {};
    case "taken_off_hold":
      return event.heldSince ? { heldSince: event.heldSince } : {};
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
  const { status, createdBy, priority, createdAt, onHoldSince, ...before } = row;
  if (change.responder !== undefined && change.responder === createdBy) return;
  const next = { ...before };
  if (change.heldSince) await resumeAfterHold(tx, next, change.heldSince, now);
  if (change.priorityChanged) {
    const due = await dueTimesForTicket(tx, priority, createdAt, next.slaPausedMinutes);
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
  next.slaDueAt = slaDueAtOf({ status, onHoldSince, ...next });
  const changed: TicketSlaValues = Object.fromEntries(
    Object.entries(next).filter(
      ([key, value]) => !isDeepStrictEqual(value, before[key as keyof typeof before]),
    ),
  );
  if (Object.keys(changed).length > 0) await updateTicketSla(tx, ticketId, changed);
}

/**
 * A hold that began at `since` ended at `now`: the resolution's due and warn times move on by exactly the
 * business time between (decision 070), and the ticket keeps the sum for a later priority change. A moved
 * time still ahead clears its sent stamp; one warned or missed before the hold stays past, and stamped.
 */
async function resumeAfterHold(tx: Db, next: TicketSlaColumns, since: Date, now: Date) {
  const calendar = await readSetting(tx, "business-calendar");
  const held = businessMinutesBetween(calendar, since, now);
  if (held <= 0) return;
  const later = (at: Date | null) => (at ? addBusinessMinutes(calendar, at, held) : at);
  next.resolutionDueAt = later(next.resolutionDueAt);
  next.resolutionWarnAt = later(next.resolutionWarnAt);
  next.slaPausedMinutes += held;
  if (isLater(next.resolutionWarnAt, now)) next.resolutionWarnedAt = null;
  if (isLater(next.resolutionDueAt, now)) next.resolutionBreachedAt = null;
}
