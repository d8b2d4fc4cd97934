import { nowOf, type ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { AppError, conflict, forbidden, ruleViolation, validationFailed } from "#server/errors.ts";
import { toAttachmentDto } from "#server/features/attachments/attachment.presenter.ts";
import {
  findCommentAttachments,
  findTicketAttachments,
} from "#server/features/attachments/attachment.queries.ts";
import { linkAttachments } from "#server/features/attachments/attachment.service.ts";
import { resolveMentions } from "#server/features/mentions/mention.service.ts";
import { endHold } from "#server/features/ticket-events/ticket-hold.ts";
import { type HeldTicket, inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import {
  findChangeAfter,
  findCommentById,
  findComments,
  findEvents,
  findFeedback,
  insertComment,
  upsertFeedback,
} from "#server/features/ticket-records/ticket-activity.queries.ts";
import type { AddedComment } from "#shared/mentions/mention.schemas.ts";
import { type Actor, can } from "#shared/permissions.ts";
import {
  type AddCommentInput,
  type Feedback,
  type FeedbackInput,
  type StaleReplyDetails,
  staleReplyMessage,
  staleReplyReason,
  type TicketActivity,
} from "#shared/tickets/ticket-activity.schemas.ts";
import { toCommentDto, toEventDto, toFeedbackDto } from "./ticket-activity.presenter.ts";

/**
 * The writer said which timeline entry was the newest they had seen (decision 072): refuse the comment,
 * under the ticket's lock, when someone else changed the ticket since, so that they look first.
 */
async function refuseIfChangedSince(tx: Db, actor: Actor, ticketId: string, seenEventId: string) {
  const { known, unseenId } = await findChangeAfter(tx, ticketId, seenEventId, {
    withInternal: can.seeInternal(actor),
    actorId: actor.id,
  });
  if (!known) {
    const message = "This is not an entry of this ticket's activity";
    throw validationFailed(`seenEventId: ${message}`, [{ path: ["seenEventId"], message }]);
  }
  if (unseenId !== null) {
    const details: StaleReplyDetails = { reason: staleReplyReason, latestEventId: unseenId };
    throw new AppError("conflict", staleReplyMessage, details);
  }
}

/**
 * A comment or internal note under the ticket's lock (mentions already resolved): the comment box and a
 * macro's reply (decision 075) come here. The requester's public reply (in the app or by e-mail, which
 * comes here too) is what a hold waited for: it lifts it and tells the assignee (decision 070).
 */
export async function addCommentUnderLock(
  ctx: ServiceContext,
  { tx, recordEvent, ticket }: HeldTicket,
  { message, isInternal, notifyIds }: { message: string; isInternal: boolean; notifyIds: string[] },
) {
  if (isInternal && !can.addInternalNote(ctx.actor, ticket))
    throw forbidden("Only technicians and administrators can add internal notes");
  const now = nowOf(ctx);
  const row = await insertComment(tx, {
    ticketId: ticket.id,
    authorId: ctx.actor.id,
    message,
    isInternal,
    createdAt: now,
  });
  await recordEvent({
    ticketId: ticket.id,
    type: isInternal ? "internal_note" : "commented",
    actorId: ctx.actor.id,
    commentId: row.id,
    createdAt: row.createdAt,
    mentionedUserIds: notifyIds,
  });
  if (!isInternal && ticket.createdBy === ctx.actor.id) {
    await endHold(tx, recordEvent, ticket, { reason: "reply", actorId: ctx.actor.id, at: now });
  }
  return row;
}

export async function addComment(
  ctx: ServiceContext,
  ticketId: string,
  { message: text, isInternal = false, attachmentIds, seenEventId }: AddCommentInput,
): Promise<AddedComment> {
  const ticket = await findVisibleTicket(ctx, ticketId);
  if (isInternal && !can.addInternalNote(ctx.actor, ticket))
    throw forbidden("Only technicians and administrators can add internal notes");
  const { message, notifyIds, outcome } = await resolveMentions(ctx.db, ctx.actor, ticket, text);
  const comment = await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    // Decided again on the locked row: a technician whose ticket went to someone else meanwhile no
    // longer sees it.
    const current = ensureVisible(ctx.actor, locked, ticketId);
    if (seenEventId !== undefined) await refuseIfChangedSince(tx, ctx.actor, ticketId, seenEventId);
    const row = await addCommentUnderLock(
      ctx,
      { tx, recordEvent, ticket: current },
      { message, isInternal, notifyIds },
    );
    await linkAttachments(tx, attachmentIds, {
      uploadedBy: ctx.actor.id,
      ticketId,
      commentId: row.id,
      isInternal,
    });
    return row;
  });
  const files = await findCommentAttachments(ctx.db, comment.id);
  return {
    ...toCommentDto((await findCommentById(ctx.db, comment.id))!, files.map(toAttachmentDto)),
    mentions: outcome,
  };
}

export async function giveFeedback(
  ctx: ServiceContext,
  ticketId: string,
  input: FeedbackInput,
): Promise<Feedback> {
  const ticket = await findVisibleTicket(ctx, ticketId);
  if (ticket.createdBy !== ctx.actor.id)
    throw forbidden("Only the person who raised this ticket can rate it");
  if (ticket.status !== "Resolved") throw ruleViolation("Feedback can be given once the ticket is Resolved.");
  const row = await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    // Decided again on the locked row: a status change cannot slip between the check and the write.
    if (locked?.status !== "Resolved") throw conflict("This ticket is no longer Resolved.");
    const now = nowOf(ctx);
    const saved = await upsertFeedback(tx, {
      ticketId,
      rating: input.rating,
      comment: input.comment,
      submittedBy: ctx.actor.id,
      submittedAt: now,
    });
    await recordEvent({
      ticketId,
      type: "feedback",
      actorId: ctx.actor.id,
      rating: input.rating,
      createdAt: now,
    });
    return saved;
  });
  return toFeedbackDto(row);
}

export async function getTicketActivity(ctx: ServiceContext, ticketId: string): Promise<TicketActivity> {
  await findVisibleTicket(ctx, ticketId);
  const withInternal = can.seeInternal(ctx.actor);
  const [comments, feedback, events, files] = await Promise.all([
    findComments(ctx.db, ticketId, { withInternal }),
    findFeedback(ctx.db, ticketId),
    findEvents(ctx.db, ticketId, { withInternal }),
    findTicketAttachments(ctx.db, ticketId, { withInternal }),
  ]);
  const filesOf = (commentId: string | null) =>
    files.filter((file) => file.commentId === commentId).map(toAttachmentDto);
  return {
    attachments: filesOf(null),
    comments: comments.map((comment) => toCommentDto(comment, filesOf(comment.comment.id))),
    feedback: feedback ? toFeedbackDto(feedback) : null,
    // The macro behind a change is staff's to know (decision 075); a requester sees the changes alone.
    events: events.map((event) => toEventDto(event, { withVia: withInternal })),
  };
}
