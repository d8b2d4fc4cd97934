import { randomUUID } from "node:crypto";
import { nowOf, type ServiceContext } from "#server/context.ts";
import { AppError, forbidden } from "#server/errors.ts";
import { inTicketTransaction, type RecordEvent } from "#server/features/ticket-events/ticket-transaction.ts";
import { findAffectedTickets, insertIncidentUpdate } from "#server/features/ticket-links/incident.queries.ts";
import { notifySubscribers } from "#server/features/ticket-links/known-issue-notice.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { addCommentUnderLock } from "#server/features/tickets/ticket-activity.service.ts";
import { findPeopleByIds } from "#server/features/users/user.queries.ts";
import { consoleLogError } from "#server/log-error.ts";
import type {
  PostedIncidentUpdate,
  PostIncidentUpdateInput,
} from "#shared/major-incidents/major-incident.schemas.ts";
import { isStaff } from "#shared/permissions.ts";
import { ensureIncident, ensureMayRun, onlyStaff } from "./major-incident.service.ts";

/**
 * POST /api/tickets/:ticketId/incident/updates (decision 077): stores the update and posts it as a public
 * comment on the incident, telling the people who follow the known issue, in the incident's transaction;
 * then on each affected ticket that is not Closed, **each in its own transaction** (a thousand affected
 * tickets in one would hold a thousand row locks, and every requester's notification and mail, for as long
 * as the slowest). Each comment is written by the author and recorded via the incident with one batch id, so
 * its requester hears of it as of any public comment. An affected ticket that fails is logged and skipped:
 * the update stands, and `postedOn` says on how many affected tickets it was posted.
 */
export async function postIncidentUpdate(
  ctx: ServiceContext,
  incidentId: string,
  { body }: PostIncidentUpdateInput,
): Promise<PostedIncidentUpdate> {
  const seen = await findVisibleTicket(ctx, incidentId);
  if (!isStaff(ctx.actor)) throw forbidden(onlyStaff);
  ensureMayRun(ctx.actor, seen);
  ensureIncident(seen);
  const batchId = `miu_${randomUUID()}`;
  const viaOf = (headline: string) => ({
    viaKind: "incident" as const,
    viaId: incidentId,
    viaName: headline,
    batchId,
  });
  const { update, headline } = await inTicketTransaction(ctx, incidentId, async (tx, recordEvent, locked) => {
    const incident = ensureVisible(ctx.actor, locked, incidentId);
    ensureMayRun(ctx.actor, incident);
    ensureIncident(incident);
    const now = nowOf(ctx);
    const row = await insertIncidentUpdate(tx, { incidentId, body, authorId: ctx.actor.id, createdAt: now });
    const via = viaOf(incident.incidentHeadline ?? "");
    const recordVia: RecordEvent = (event) => recordEvent({ ...event, ...via });
    await addCommentUnderLock(
      ctx,
      { tx, recordEvent: recordVia, ticket: incident },
      {
        message: body,
        isInternal: false,
        notifyIds: [],
      },
    );
    await notifySubscribers(tx, {
      incidentId,
      headline: via.viaName,
      text: body,
      resolved: false,
      actorId: ctx.actor.id,
      at: now,
    });
    return { update: row, headline: via.viaName };
  });
  let postedOn = 0;
  for (const affected of await findAffectedTickets(ctx.db, incidentId)) {
    if (affected.status === "Closed") continue;
    try {
      const posted = await inTicketTransaction(ctx, affected.id, async (tx, recordEvent, locked) => {
        if (!locked || locked.status === "Closed") return false;
        const recordVia: RecordEvent = (event) => recordEvent({ ...event, ...viaOf(headline) });
        await addCommentUnderLock(
          ctx,
          { tx, recordEvent: recordVia, ticket: locked },
          {
            message: body,
            isInternal: false,
            notifyIds: [],
          },
        );
        return true;
      });
      if (posted) postedOn++;
    } catch (error) {
      if (!(error instanceof AppError)) {
        (ctx.dispatcher?.logError ?? consoleLogError)(error, `posting ${update.id} on ${affected.id} failed`);
      }
    }
  }
  const [author] = await findPeopleByIds(ctx.db, [ctx.actor.id]);
  return {
    update: {
      id: update.id,
      body: update.body,
      authorName: author?.name ?? null,
      createdAt: update.createdAt.toISOString(),
    },
    postedOn,
  };
}
