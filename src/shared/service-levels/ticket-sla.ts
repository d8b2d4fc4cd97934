import { z } from "zod";
import type { TicketPriority } from "#shared/tickets/ticket-priority.ts";
import type { TicketStatus } from "#shared/tickets/ticket-statuses.ts";
import type { BusinessCalendar } from "./business-calendar.schemas.ts";
import { addBusinessMinutes } from "./business-hours.ts";
import type { SlaPolicy } from "./sla-policy.schemas.ts";

// Service levels on one ticket (decision 019): the due times stored on the ticket, which target is still
// running, and the state a person sees. Pure, so the server stores and presents the same rule it tests.

/** A warning goes out when this share of a target's business time has passed. */
export const slaWarnShare = 0.8;

export interface TicketDueTimes {
  firstResponseDueAt: Date | null;
  firstResponseWarnAt: Date | null;
  resolutionDueAt: Date | null;
  resolutionWarnAt: Date | null;
}

/**
 * The due and warn times of a ticket of `priority` raised at `createdAt`, counted in business minutes of
 * `calendar` with the targets of `policy` (null where the policy sets no target).
 */
export function dueTimesOf(
  policy: SlaPolicy,
  calendar: BusinessCalendar,
  priority: TicketPriority,
  createdAt: Date,
): TicketDueTimes {
  const targets = policy.targets[priority];
  const at = (minutes: number | null, share = 1) =>
    minutes === null ? null : addBusinessMinutes(calendar, createdAt, minutes * share);
  return {
    firstResponseDueAt: at(targets.firstResponseMinutes),
    firstResponseWarnAt: at(targets.firstResponseMinutes, slaWarnShare),
    resolutionDueAt: at(targets.resolutionMinutes),
    resolutionWarnAt: at(targets.resolutionMinutes, slaWarnShare),
  };
}

/** The SLA facts of a stored ticket. */
export interface TicketSlaFacts {
  status: TicketStatus;
  firstResponseDueAt: Date | null;
  firstRespondedAt: Date | null;
  resolutionDueAt: Date | null;
  resolvedAt: Date | null;
  /**
   * Decision 070: while the ticket waits on its requester the resolution clock stands still; its due and
   * warn times are moved on by the held business time when the hold ends.
   */
  onHoldSince: Date | null;
}

/** Targets run only while someone still owes the requester something. */
export const isSlaRunning = (status: TicketStatus) => status === "Open" || status === "In Progress";

/**
 * The due time lists sort and filter on: the earlier of the targets not met yet while the ticket is Open
 * or In Progress; null when it is Resolved or Closed or nothing is owed.
 */
export function slaDueAtOf(ticket: TicketSlaFacts): Date | null {
  if (!isSlaRunning(ticket.status)) return null;
  const pending = [
    ticket.firstRespondedAt === null ? ticket.firstResponseDueAt : null,
    ticket.resolvedAt === null && ticket.onHoldSince === null ? ticket.resolutionDueAt : null,
  ].filter((due): due is Date => due !== null);
  if (pending.length === 0) return null;
  return new Date(Math.min(...pending.map((due) => due.getTime())));
}

/** `paused`: the resolution target while the ticket is on hold (decision 070). */
export const slaStates = ["none", "running", "due_soon", "overdue", "met", "met_late", "paused"] as const;
export type SlaState = (typeof slaStates)[number];

/**
 * One target as a person sees it at `now`: no target, met (on time or late), or still running (and due
 * soon within `dueSoonMinutes` of wall time, or overdue).
 */
export function slaStateOf(
  target: { dueAt: Date | null; metAt: Date | null },
  now: Date,
  dueSoonMinutes: number,
): SlaState {
  const { dueAt, metAt } = target;
  if (dueAt === null) return "none";
  if (metAt !== null) return metAt.getTime() <= dueAt.getTime() ? "met" : "met_late";
  const left = dueAt.getTime() - now.getTime();
  if (left <= 0) return "overdue";
  if (left <= dueSoonMinutes * 60_000) return "due_soon";
  return "running";
}

export const slaTargetViewSchema = z.object({
  dueAt: z.iso.datetime().nullable(),
  metAt: z.iso.datetime().nullable(),
  state: z.enum(slaStates),
});
export type SlaTargetView = z.infer<typeof slaTargetViewSchema>;

/** What the ticket DTO carries for staff; `serverNow` lets the browser count down on the server's clock. */
export const ticketSlaSchema = z.object({
  firstResponse: slaTargetViewSchema,
  resolution: slaTargetViewSchema,
  serverNow: z.iso.datetime(),
});
export type TicketSla = z.infer<typeof ticketSlaSchema>;

/** The SLA of a ticket at `now`, as the DTO carries it. */
export function ticketSlaOf(ticket: TicketSlaFacts, now: Date, dueSoonMinutes: number): TicketSla {
  // Resolved or Closed without a first response on record: the resolution answered the requester.
  const stoppedAt = isSlaRunning(ticket.status) ? null : (ticket.resolvedAt ?? now);
  const view = (dueAt: Date | null, metAt: Date | null): SlaTargetView => ({
    dueAt: dueAt?.toISOString() ?? null,
    metAt: metAt?.toISOString() ?? null,
    state: slaStateOf({ dueAt, metAt }, now, dueSoonMinutes),
  });
  const resolution = view(ticket.resolutionDueAt, ticket.resolvedAt ?? stoppedAt);
  // On hold, the stored due time is where the clock stood; it moves on when the hold ends.
  const isPaused = ticket.onHoldSince !== null && resolution.state !== "none" && resolution.metAt === null;
  return {
    firstResponse: view(ticket.firstResponseDueAt, ticket.firstRespondedAt ?? stoppedAt),
    resolution: isPaused ? { ...resolution, state: "paused" } : resolution,
    serverNow: now.toISOString(),
  };
}

export { formatSpan } from "./format-span.ts";
