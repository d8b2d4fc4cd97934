import { randomUUID } from "node:crypto";
import { nowOf, type ServiceContext } from "#server/context.ts";
import { conflict, forbidden, ruleViolation } from "#server/errors.ts";
import { endHold } from "#server/features/ticket-events/ticket-hold.ts";
import {
  type HeldTicket,
  inTicketTransaction,
  type RecordEvent,
} from "#server/features/ticket-events/ticket-transaction.ts";
import {
  findAffectedTickets,
  findLastIncidentUpdate,
} from "#server/features/ticket-links/incident.queries.ts";
import { notifySubscribers } from "#server/features/ticket-links/known-issue-notice.ts";
import {
  findTicketById,
  lockTicket,
  updateTicketStatus,
} from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { currentTicketFor } from "#server/features/ticket-records/ticket-view.ts";
import { type Actor, can, type TicketFacts } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { ChangeStatusInput } from "#shared/tickets/ticket-activity.schemas.ts";
import { type ChangeableStatus, statusChangeRefusal, takesTicket } from "#shared/tickets/ticket-status.ts";
import type { TicketStatus } from "#shared/tickets/ticket-statuses.ts";
import { lostAssignRace } from "./assign-ticket.service.ts";
import { addCommentUnderLock } from "./ticket-activity.service.ts";
import { ensureTicketVersion, type IfMatch } from "./ticket-version.ts";

/** Throws why the actor may not give this ticket this status (can.changeStatus, statusChangeRefusal). */
function ensureMayChangeStatus(actor: Actor, ticket: TicketFacts, status: ChangeableStatus) {
  if (actor.role !== "technician" && actor.role !== "admin") {
    throw forbidden("Only technicians and administrators can change a ticket's status");
  }
  if (ticket.status === "Closed") throw conflict("This ticket is closed; its status can no longer change.");
  if (!can.changeStatus(actor, ticket)) throw forbidden("You cannot change the status of this ticket");
  const refusal = statusChangeRefusal(actor, ticket, status);
  if (refusal) throw ruleViolation(refusal);
}

/**
 * The status change under the ticket's lock, decided on the locked row: the Status buttons and a macro
 * (decision 075) both come here. A technician setting In Progress on an unassigned ticket takes it.
 * Resolving a major incident resolves the tickets it affects (decision 077), with `resolutionNote` (what the
 * resolver wrote with the change, a macro's public reply) when there is one.
 */
export async function changeStatusUnderLock(
  ctx: ServiceContext,
  held: HeldTicket,
  status: ChangeableStatus,
  { resolutionNote }: { resolutionNote?: string } = {},
): Promise<void> {
  ensureMayChangeStatus(ctx.actor, held.ticket, status);
  await setStatusUnderLock(ctx, held, status);
  if (status === "Resolved" && held.ticket.incidentHeadline !== null) {
    await resolveAffectedUnderLock(ctx, held, resolutionNote);
  }
}

/** The change itself, once decided: the hold ends, the status moves, the event is recorded. */
async function setStatusUnderLock(
  ctx: ServiceContext,
  { tx, recordEvent, ticket }: HeldTicket,
  status: ChangeableStatus,
) {
  const now = nowOf(ctx);
  const takes = takesTicket(ctx.actor, ticket, status);
  // Any status change ends a hold (decision 070), before the status moves (the table's check).
  await endHold(tx, recordEvent, ticket, { reason: "status", actorId: ctx.actor.id, at: now });
  await updateTicketStatus(tx, ticket.id, {
    status,
    ...(takes ? { assignedTo: ctx.actor.id } : {}),
    // Who resolved it stays through a Close; back to In Progress, it is no longer resolved by anyone.
    ...(status === "Resolved" ? { resolvedBy: ctx.actor.id } : {}),
    ...(status === "In Progress" ? { resolvedBy: null } : {}),
    updatedAt: now,
  });
  await recordEvent({
    ticketId: ticket.id,
    type: takes ? "assigned" : "status_changed",
    actorId: ctx.actor.id,
    fromStatus: ticket.status,
    toStatus: status,
    createdAt: now,
  });
}

/**
 * Decision 077: a resolved major incident resolves each ticket it affects that is Open or In Progress, with
 * the resolution as a public comment written by the resolver (their note, else the incident's last update,
 * else a sentence naming the incident), every event marked via the incident with one batch id; then tells
 * the people who follow the known issue. The resolver acts for the incident: a technician resolves the
 * affected tickets of colleagues too. Each affected row is locked after the incident's (which this
 * transaction holds): a link being made at the same moment locks the pair in id order, and PostgreSQL's
 * deadlock check ends one of the two, which the write path runs again (decision 053).
 */
async function resolveAffectedUnderLock(ctx: ServiceContext, held: HeldTicket, note: string | undefined) {
  const { tx, recordEvent, ticket: incident } = held;
  const headline = incident.incidentHeadline ?? "";
  const via = {
    viaKind: "incident" as const,
    viaId: incident.id,
    viaName: headline,
    batchId: `mib_${randomUUID()}`,
  };
  const recordVia: RecordEvent = (event) => recordEvent({ ...event, ...via });
  const message =
    note?.trim() ||
    (await findLastIncidentUpdate(tx, incident.id))?.body ||
    `Resolved with the major incident ${incident.id}: ${headline}`;
  for (const affected of await findAffectedTickets(tx, incident.id)) {
    if (!isWorkedOn(affected.status)) continue;
    const locked = await lockTicket(tx, affected.id);
    if (!locked || !isWorkedOn(locked.status)) continue;
    const onAffected = { tx, recordEvent: recordVia, ticket: locked };
    await addCommentUnderLock(ctx, onAffected, { message, isInternal: false, notifyIds: [] });
    // The row as the comment left it (a requester's hold is not lifted by staff's comment; read it anyway).
    await setStatusUnderLock(
      ctx,
      { ...onAffected, ticket: (await lockTicket(tx, affected.id)) ?? locked },
      "Resolved",
    );
  }
  await notifySubscribers(tx, {
    incidentId: incident.id,
    headline,
    text: message,
    resolved: true,
    actorId: ctx.actor.id,
    at: nowOf(ctx),
  });
}

const isWorkedOn = (status: TicketStatus) => status === "Open" || status === "In Progress";

/** PATCH /api/tickets/:ticketId/status; with `ifMatch`, only on the version the caller read (decision 078). */
export async function changeTicketStatus(
  ctx: ServiceContext,
  ticketId: string,
  { status }: ChangeStatusInput,
  { ifMatch }: { ifMatch?: IfMatch } = {},
): Promise<Ticket> {
  const ticket = await findVisibleTicket(ctx, ticketId);
  ensureMayChangeStatus(ctx.actor, ticket, status);
  await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    // Decided on the locked row, before anything else: a stale caller changes nothing (decision 078).
    if (ifMatch !== undefined) ensureTicketVersion(ifMatch, ensureVisible(ctx.actor, locked, ticketId));
    // Decide again on the locked row: a Close or an assignment that won the race is never overwritten.
    // A technician acting on an unassigned ticket that another technician took meanwhile lost a race.
    const tookMeanwhile =
      ticket.assignedTo === null && locked?.assignedTo && locked.assignedTo !== ctx.actor.id;
    if (ctx.actor.role === "technician" && tookMeanwhile) {
      throw lostAssignRace((await findTicketById(tx, ticketId))?.assignedToName ?? null);
    }
    const current = ensureVisible(ctx.actor, locked, ticketId);
    if (current.status === "Closed") throw conflict("This ticket was closed while you were changing it.");
    await changeStatusUnderLock(ctx, { tx, recordEvent, ticket: current }, status);
  });
  return currentTicketFor(ctx, ticketId);
}
