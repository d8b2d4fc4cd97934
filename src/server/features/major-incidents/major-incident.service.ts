import { nowOf, type ServiceContext } from "#server/context.ts";
import { conflict, forbidden } from "#server/errors.ts";
import { inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import {
  findAffectedTickets,
  findIncidentAffecting,
  setIncidentHeadline,
} from "#server/features/ticket-links/incident.queries.ts";
import type { TicketFields } from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import type { DeclareIncidentInput, TicketIncident } from "#shared/major-incidents/major-incident.schemas.ts";
import { type Actor, can, isStaff } from "#shared/permissions.ts";

// Decision 077: declaring a ticket a major incident, changing its headline, ending it; and how a ticket's
// page reads its part in one.

export const onlyStaff = "Only technicians and administrators can run a major incident";

/** Throws why the actor may not run this ticket as a major incident (can.runMajorIncident), once it is seen. */
export function ensureMayRun(actor: Actor, ticket: TicketFields) {
  if (!isStaff(actor)) throw forbidden(onlyStaff);
  if (ticket.status === "Closed")
    throw conflict(`${ticket.id} is closed; a closed ticket cannot be a major incident.`);
  if (!can.runMajorIncident(actor, ticket)) throw forbidden("You cannot run this ticket as a major incident");
}

/** Throws unless the ticket is a declared major incident. */
export function ensureIncident(ticket: TicketFields) {
  if (ticket.incidentHeadline === null) {
    throw conflict(`${ticket.id} is not a major incident; declare it one first.`);
  }
}

/** Why a ticket cannot be declared: merged away, or affected by another incident. */
async function ensureDeclarable(ctx: ServiceContext, ticket: TicketFields) {
  ensureMayRun(ctx.actor, ticket);
  if (ticket.mergedIntoId) {
    throw conflict(`${ticket.id} was merged into ${ticket.mergedIntoId}; it cannot be a major incident.`);
  }
  const affecting = await findIncidentAffecting(ctx.db, ticket.id);
  if (affecting) {
    throw conflict(
      `${ticket.id} is affected by the major incident ${affecting.ticketId}; unlink it before declaring it one.`,
    );
  }
}

/**
 * PUT /api/tickets/:ticketId/major-incident: staff who may edit the ticket declare it a major incident with
 * a public headline, or change the headline of one (its declared time stays). A staff-only timeline entry.
 */
export async function declareMajorIncident(
  ctx: ServiceContext,
  ticketId: string,
  { headline }: DeclareIncidentInput,
): Promise<TicketIncident> {
  await ensureDeclarable(ctx, await findVisibleTicket(ctx, ticketId));
  await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    const ticket = ensureVisible(ctx.actor, locked, ticketId);
    await ensureDeclarable({ ...ctx, db: tx }, ticket);
    if (ticket.incidentHeadline === headline) return;
    const now = nowOf(ctx);
    await setIncidentHeadline(tx, ticketId, { headline, declaredAt: ticket.incidentDeclaredAt ?? now }, now);
    await recordEvent({ ticketId, type: "incident_declared", actorId: ctx.actor.id, createdAt: now });
  });
  return getTicketIncident(ctx, ticketId);
}

/**
 * DELETE /api/tickets/:ticketId/major-incident: ends the declaration. The affected tickets stay linked as
 * plain links (their banner goes, their links panel keeps "Affected by"); followers hear no more.
 */
export async function endMajorIncident(ctx: ServiceContext, ticketId: string): Promise<void> {
  const seen = await findVisibleTicket(ctx, ticketId);
  if (!isStaff(ctx.actor)) throw forbidden(onlyStaff);
  ensureIncident(seen);
  ensureMayRun(ctx.actor, seen);
  await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    const ticket = ensureVisible(ctx.actor, locked, ticketId);
    ensureMayRun(ctx.actor, ticket);
    ensureIncident(ticket);
    const now = nowOf(ctx);
    await setIncidentHeadline(tx, ticketId, null, now);
    await recordEvent({ ticketId, type: "incident_ended", actorId: ctx.actor.id, createdAt: now });
  });
}

/**
 * GET /api/tickets/:ticketId/major-incident: whoever may see the ticket. When it is an incident, its
 * headline and declared time, and for staff the affected tickets they may see; when a declared incident
 * affects it, that incident's public face (id, headline, status), also for the requester: the one pointer to
 * another ticket they are given, as a merge's (decision 074). Whether they may open it is can.viewTicket's.
 */
export async function getTicketIncident(ctx: ServiceContext, ticketId: string): Promise<TicketIncident> {
  const ticket = await findVisibleTicket(ctx, ticketId);
  const affecting = await findIncidentAffecting(ctx.db, ticketId);
  const affected =
    ticket.incidentHeadline !== null && isStaff(ctx.actor) ? await findAffectedTickets(ctx.db, ticketId) : [];
  return {
    incident:
      ticket.incidentHeadline !== null && ticket.incidentDeclaredAt !== null
        ? {
            headline: ticket.incidentHeadline,
            declaredAt: ticket.incidentDeclaredAt.toISOString(),
            affected: affected
              .filter((row) => can.viewTicket(ctx.actor, row))
              .map((row) => ({ ticketId: row.id, title: row.title, status: row.status })),
          }
        : null,
    affectedBy:
      affecting?.headline != null
        ? { ticketId: affecting.ticketId, headline: affecting.headline, status: affecting.status }
        : null,
  };
}
