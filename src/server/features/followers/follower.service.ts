import type { ServiceContext } from "#server/context.ts";
import { forbidden } from "#server/errors.ts";
import { findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import type { FollowState } from "#shared/followers/follower.schemas.ts";
import { can, type TicketFacts } from "#shared/permissions.ts";
import {
  countFollowers,
  deleteFollower,
  findFollowers,
  insertFollower,
  isFollowing,
} from "./follower.queries.ts";

async function followStateOf(
  ctx: ServiceContext,
  ticketId: string,
  ticket: TicketFacts,
): Promise<FollowState> {
  const [following, followerCount, followers] = await Promise.all([
    isFollowing(ctx.db, ticketId, ctx.actor.id),
    countFollowers(ctx.db, ticketId),
    can.seeFollowers(ctx.actor) ? findFollowers(ctx.db, ticketId) : Promise.resolve(null),
  ]);
  const implicit =
    ticket.createdBy === ctx.actor.id ? "creator" : ticket.assignedTo === ctx.actor.id ? "assignee" : null;
  return { following, implicit, followerCount, followers };
}

/** GET /api/tickets/:ticketId/follow */
export async function getFollowState(ctx: ServiceContext, ticketId: string): Promise<FollowState> {
  return followStateOf(ctx, ticketId, await findVisibleTicket(ctx, ticketId));
}

/** PUT /api/tickets/:ticketId/follow: idempotent. */
export async function followTicket(ctx: ServiceContext, ticketId: string): Promise<FollowState> {
  const ticket = await findVisibleTicket(ctx, ticketId);
  if (!can.followTicket(ctx.actor, ticket)) throw forbidden("You cannot follow this ticket");
  await insertFollower(ctx.db, ticketId, ctx.actor.id, new Date());
  return followStateOf(ctx, ticketId, ticket);
}

/** DELETE /api/tickets/:ticketId/follow: idempotent; unfollowing a ticket one does not follow changes nothing. */
export async function unfollowTicket(ctx: ServiceContext, ticketId: string): Promise<FollowState> {
  const ticket = await findVisibleTicket(ctx, ticketId);
  await deleteFollower(ctx.db, ticketId, ctx.actor.id);
  return followStateOf(ctx, ticketId, ticket);
}
