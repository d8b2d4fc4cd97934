import { nowOf, type ServiceContext } from "#server/context.ts";
import { AppError, conflict, forbidden, notFound, ruleViolation } from "#server/errors.ts";
import { inTicketPairTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { findIncidentAffecting } from "#server/features/ticket-links/incident.queries.ts";
import {
  deleteLink,
  findLinkBetween,
  insertLink,
} from "#server/features/ticket-links/ticket-link.queries.ts";
import { recordOnBoth } from "#server/features/ticket-links/ticket-link.service.ts";
import type { TicketFields } from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { consoleLogError } from "#server/log-error.ts";
import type { AddAffectedInput, AddAffectedResult } from "#shared/major-incidents/major-incident.schemas.ts";
import { isStaff } from "#shared/permissions.ts";
import { relationOf, storedLinkOf } from "#shared/ticket-links/ticket-link.schemas.ts";
import { ensureIncident, ensureMayRun, onlyStaff } from "./major-incident.service.ts";

// Decision 077: the tickets a major incident affects are ticket_links rows of kind 'incident', made and
// removed here (the links panel shows them as "Affected by" and "Affects"), each pair under the links'
// lock order (inTicketPairTransaction).

/** Why `other` cannot be linked to the incident as affected, decided on the locked rows. */
async function refuseAffected(ctx: ServiceContext, incident: TicketFields, other: TicketFields) {
  if (other.status === "Closed") throw conflict(`${other.id} is closed.`);
  if (other.incidentHeadline !== null) throw conflict(`${other.id} is itself a major incident.`);
  const affecting = await findIncidentAffecting(ctx.db, other.id);
  if (affecting?.ticketId === incident.id) {
    throw conflict(`${other.id} is already affected by this major incident.`);
  }
  if (affecting)
    throw conflict(`${other.id} is already affected by the major incident ${affecting.ticketId}.`);
  const existing = await findLinkBetween(ctx.db, incident.id, other.id);
  if (existing) {
    const relation = relationOf(other.id, existing).replace("_", " ");
    throw conflict(`${other.id} is already linked to ${incident.id} (${relation}); remove that link first.`);
  }
}

/** One affected ticket, in its own transaction under both rows' locks. */
async function linkAffected(ctx: ServiceContext, incidentId: string, otherId: string) {
  if (otherId === incidentId) throw ruleViolation("A major incident cannot affect itself.");
  await findVisibleTicket(ctx, otherId);
  await inTicketPairTransaction(ctx, [incidentId, otherId], async (tx, recordEvent, locked) => {
    const incident = ensureVisible(ctx.actor, locked[0], incidentId);
    ensureMayRun(ctx.actor, incident);
    ensureIncident(incident);
    const other = ensureVisible(ctx.actor, locked[1], otherId);
    await refuseAffected({ ...ctx, db: tx }, incident, other);
    const now = nowOf(ctx);
    const row = await insertLink(tx, {
      ...storedLinkOf(otherId, incidentId, "affected_by"),
      createdBy: ctx.actor.id,
      createdAt: now,
    });
    await recordOnBoth(
      recordEvent,
      "linked",
      { link: row, ticketId: incidentId, otherId },
      ctx.actor.id,
      now,
    );
  });
}

/**
 * POST /api/tickets/:ticketId/incident/affected: links each ticket to the incident in its own transaction,
 * in the order given, and answers per ticket as the bulk actions do (decision 015): a ticket the caller may
 * not see is "not found", as the single action would answer.
 */
export async function addAffectedTickets(
  ctx: ServiceContext,
  incidentId: string,
  { ticketIds }: AddAffectedInput,
): Promise<AddAffectedResult> {
  const incident = await findVisibleTicket(ctx, incidentId);
  if (!isStaff(ctx.actor)) throw forbidden(onlyStaff);
  ensureMayRun(ctx.actor, incident);
  ensureIncident(incident);
  const result: AddAffectedResult = { linked: [], refused: [] };
  for (const ticketId of ticketIds) {
    try {
      await linkAffected(ctx, incidentId, ticketId);
      result.linked.push(ticketId);
    } catch (error) {
      if (!(error instanceof AppError)) {
        (ctx.dispatcher?.logError ?? consoleLogError)(error, `linking ${ticketId} to ${incidentId} failed`);
      }
      result.refused.push({
        ticketId,
        message:
          error instanceof AppError ? error.message : "This ticket could not be linked just now; try again.",
      });
    }
  }
  return result;
}

/** DELETE /api/tickets/:ticketId/incident/affected/:affectedId: unlinks one affected ticket. */
export async function removeAffectedTicket(ctx: ServiceContext, incidentId: string, affectedId: string) {
  const incident = await findVisibleTicket(ctx, incidentId);
  if (!isStaff(ctx.actor)) throw forbidden(onlyStaff);
  await findVisibleTicket(ctx, affectedId);
  ensureMayRun(ctx.actor, incident);
  await inTicketPairTransaction(ctx, [incidentId, affectedId], async (tx, recordEvent, locked) => {
    ensureMayRun(ctx.actor, ensureVisible(ctx.actor, locked[0], incidentId));
    ensureVisible(ctx.actor, locked[1], affectedId);
    const link = await findLinkBetween(tx, incidentId, affectedId);
    if (link?.kind !== "incident" || link.ticketId !== affectedId) {
      throw notFound(`Affected ticket ${affectedId} of`, incidentId);
    }
    await deleteLink(tx, link.id);
    const now = nowOf(ctx);
    await recordOnBoth(
      recordEvent,
      "unlinked",
      { link, ticketId: incidentId, otherId: affectedId },
      ctx.actor.id,
      now,
    );
  });
}
