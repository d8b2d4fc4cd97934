import { nowOf, type ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { conflict, forbidden, ruleViolation } from "#server/errors.ts";
import { insertFollower } from "#server/features/followers/follower.queries.ts";
import { endHold } from "#server/features/ticket-events/ticket-hold.ts";
import { inTicketPairTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import type { TicketFields } from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { currentTicketFor } from "#server/features/ticket-records/ticket-view.ts";
import { findUserById } from "#server/features/users/user.queries.ts";
import { type Actor, can } from "#shared/permissions.ts";
import type { MergeResult, MergeTicketInput } from "#shared/ticket-links/ticket-link.schemas.ts";
import { roleOf } from "#shared/users/roles.ts";
import { closeAsMerged, moveConversation, moveFollowers } from "./ticket-link.queries.ts";

type MergeFacts = Pick<TicketFields, "id" | "createdBy" | "assignedTo" | "status" | "mergedIntoId">;

/** Throws why `source` may not be merged into `target` by the actor (can.mergeTickets), both visible. */
function ensureMayMerge(actor: Actor, source: MergeFacts, target: MergeFacts) {
  if (source.status === "Closed") {
    throw conflict(
      source.mergedIntoId
        ? `This ticket was already merged into ${source.mergedIntoId}.`
        : "This ticket is closed; a closed ticket cannot be merged.",
    );
  }
  if (target.status === "Closed") {
    throw conflict(
      target.mergedIntoId
        ? `${target.id} was itself merged into ${target.mergedIntoId}; merge into that ticket instead.`
        : `${target.id} is closed; merge into a ticket that is not closed.`,
    );
  }
  if (!can.mergeTickets(actor, source, target)) throw forbidden("You cannot merge these tickets");
}

/**
 * The duplicate's requester follows the target when they may see it and are not its requester already (who
 * hears anyway): a staff member who raised the duplicate keeps hearing about the issue. A requester who may
 * not see the target is not given sight of it (decision 014: following never grants access); the "merged"
 * notification and the duplicate's banner name the target, the one pointer they get.
 */
async function followTargetIfVisible(tx: Db, requesterId: string, target: MergeFacts, at: Date) {
  if (requesterId === target.createdBy) return;
  const person = await findUserById(tx, requesterId);
  if (person?.status !== "Active") return;
  if (can.viewTicket({ id: person.id, role: roleOf(person.role) }, target)) {
    await insertFollower(tx, target.id, person.id, at);
  }
}

/**
 * POST /api/tickets/:ticketId/merge (decision 074): merges this ticket, a duplicate, into `targetId`. Staff
 * who may see both, neither Closed. Under both rows' locks (id order): the duplicate's hold ends, its
 * comments and internal notes (with their timeline entries) and files move to the target keeping their
 * times, its followers follow the target instead, and it is Closed with `merged_into_id`. "merged_in" is
 * recorded on the target (staff only) and "merged" on the duplicate, which tells its requester (and
 * assignee) where the conversation went, by notification and their status e-mail.
 */
export async function mergeTicket(
  ctx: ServiceContext,
  sourceId: string,
  { targetId }: MergeTicketInput,
): Promise<MergeResult> {
  const source = await findVisibleTicket(ctx, sourceId);
  if (ctx.actor.role !== "technician" && ctx.actor.role !== "admin") {
    throw forbidden("Only technicians and administrators can merge tickets");
  }
  if (targetId === sourceId) throw ruleViolation("A ticket cannot be merged into itself.");
  const target = await findVisibleTicket(ctx, targetId);
  ensureMayMerge(ctx.actor, source, target);
  const moved = await inTicketPairTransaction(ctx, [sourceId, targetId], async (tx, recordEvent, locked) => {
    // Decided again on the locked rows: a Close, a merge or a reassignment that won the race stands.
    const current = ensureVisible(ctx.actor, locked[0], sourceId);
    const into = ensureVisible(ctx.actor, locked[1], targetId);
    ensureMayMerge(ctx.actor, current, into);
    const now = nowOf(ctx);
    // A Closed ticket cannot be on hold (the table's check): the hold ends first, as a status change ends it.
    await endHold(tx, recordEvent, current, { reason: "status", actorId: ctx.actor.id, at: now });
    const conversation = await moveConversation(tx, sourceId, targetId);
    const followers = await moveFollowers(tx, sourceId, targetId);
    await followTargetIfVisible(tx, current.createdBy, into, now);
    await closeAsMerged(tx, sourceId, targetId, now);
    await recordEvent({
      ticketId: targetId,
      type: "merged_in",
      actorId: ctx.actor.id,
      linkedTicketId: sourceId,
      createdAt: now,
    });
    await recordEvent({
      ticketId: sourceId,
      type: "merged",
      actorId: ctx.actor.id,
      fromStatus: current.status,
      toStatus: "Closed",
      linkedTicketId: targetId,
      createdAt: now,
    });
    return { ...conversation, followers };
  });
  return { ticket: await currentTicketFor(ctx, sourceId), moved };
}
