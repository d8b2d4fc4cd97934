import { nowOf, type ServiceContext } from "#server/context.ts";
import { conflict, forbidden, notFound } from "#server/errors.ts";
import {
  deleteSubscriber,
  findFollowedIncidentIds,
  findIncidentUpdates,
  findOpenIncidents,
  insertSubscriber,
  isAffectedRequester,
} from "#server/features/ticket-links/incident.queries.ts";
import { findTicketById } from "#server/features/ticket-records/ticket.queries.ts";
import {
  type KnownIssue,
  type KnownIssueFollow,
  type KnownIssues,
  knownIssueLimit,
} from "#shared/major-incidents/major-incident.schemas.ts";
import { can } from "#shared/permissions.ts";

// Decision 077: a major incident's public face, the "known issue": its headline, status, declared time and
// public updates, never the ticket. Every signed-in person sees an open one; once it is resolved or closed,
// its followers and the requesters of the tickets it affects (can.seeKnownIssue); whoever may see the
// ticket itself always.

const mustSignIn = () => forbidden("Choose your role before reading known issues");

/** GET /api/known-issues: the open major incidents, newest declared first, with whether the caller follows each. */
export async function listKnownIssues(ctx: ServiceContext): Promise<KnownIssues> {
  if (ctx.actor.role === null) throw mustSignIn();
  const rows = await findOpenIncidents(ctx.db, knownIssueLimit);
  const followed = await findFollowedIncidentIds(
    ctx.db,
    ctx.actor.id,
    rows.map((row) => row.ticketId),
  );
  return {
    items: rows.map((row) => ({
      ticketId: row.ticketId,
      headline: row.headline ?? "",
      status: row.status,
      declaredAt: (row.declaredAt ?? new Date(0)).toISOString(),
      following: followed.has(row.ticketId),
    })),
  };
}

/** The incident behind a known issue, when the caller may see its face; else 404 (it does not exist for them). */
async function findVisibleKnownIssue(ctx: ServiceContext, ticketId: string) {
  if (ctx.actor.role === null) throw mustSignIn();
  const ticket = await findTicketById(ctx.db, ticketId);
  if (!ticket || ticket.incidentHeadline === null || ticket.incidentDeclaredAt === null) {
    throw notFound("Known issue", ticketId);
  }
  const isSubscriber = (await findFollowedIncidentIds(ctx.db, ctx.actor.id, [ticketId])).has(ticketId);
  const isVisible =
    can.viewTicket(ctx.actor, ticket) ||
    can.seeKnownIssue(ctx.actor, {
      status: ticket.status,
      isSubscriber,
      isAffectedRequester: await isAffectedRequester(ctx.db, ticketId, ctx.actor.id),
    });
  if (!isVisible) throw notFound("Known issue", ticketId);
  return { ticket, headline: ticket.incidentHeadline, declaredAt: ticket.incidentDeclaredAt, isSubscriber };
}

/** GET /api/known-issues/:ticketId: the public face with its updates, newest first. */
export async function getKnownIssue(ctx: ServiceContext, ticketId: string): Promise<KnownIssue> {
  const { ticket, headline, declaredAt, isSubscriber } = await findVisibleKnownIssue(ctx, ticketId);
  const updates = await findIncidentUpdates(ctx.db, ticketId);
  return {
    ticketId,
    headline,
    status: ticket.status,
    declaredAt: declaredAt.toISOString(),
    following: isSubscriber,
    updates: updates.map((update) => ({
      id: update.id,
      body: update.body,
      authorName: update.authorName,
      createdAt: update.createdAt.toISOString(),
    })),
  };
}

/** PUT /api/known-issues/:ticketId/follow: follow instead of raising a ticket; idempotent; only while open. */
export async function followKnownIssue(ctx: ServiceContext, ticketId: string): Promise<KnownIssueFollow> {
  const { ticket, isSubscriber } = await findVisibleKnownIssue(ctx, ticketId);
  if (isSubscriber) return { following: true };
  if (ticket.status !== "Open" && ticket.status !== "In Progress") {
    throw conflict("This known issue is resolved; there are no more updates to follow.");
  }
  await insertSubscriber(ctx.db, ticketId, ctx.actor.id, nowOf(ctx));
  return { following: true };
}

/** DELETE /api/known-issues/:ticketId/follow: stop following; idempotent. */
export async function unfollowKnownIssue(ctx: ServiceContext, ticketId: string): Promise<KnownIssueFollow> {
  await findVisibleKnownIssue(ctx, ticketId);
  await deleteSubscriber(ctx.db, ticketId, ctx.actor.id);
  return { following: false };
}
