import type { TicketCommentRow, TicketEventRow, TicketFeedbackRow } from "#server/db/schema/index.ts";
import type { Attachment } from "#shared/attachments/attachment.schemas.ts";
import type { Comment, Feedback, TicketEvent } from "#shared/tickets/ticket-activity.schemas.ts";

export function toCommentDto(
  {
    comment,
    authorName,
  }: {
    comment: TicketCommentRow;
    authorName: string | null;
  },
  attachments: Attachment[],
): Comment {
  return {
    commentId: comment.id,
    ticketId: comment.ticketId,
    authorId: comment.authorId,
    authorName,
    message: comment.message,
    isInternal: comment.isInternal,
    timestamp: comment.createdAt.toISOString(),
    attachments,
  };
}

export function toFeedbackDto(row: TicketFeedbackRow): Feedback {
  return {
    rating: row.rating,
    comment: row.comment,
    submittedBy: row.submittedBy,
    submittedAt: row.submittedAt.toISOString(),
  };
}

/** What made a change a macro's or a rule's, for staff (decision 075); null otherwise. */
function viaOf(event: TicketEventRow, withVia: boolean): TicketEvent["via"] {
  if (!withVia || !event.viaKind || !event.viaId || !event.batchId) return null;
  return { kind: event.viaKind, id: event.viaId, name: event.viaName ?? "", batchId: event.batchId };
}

export function toEventDto(
  {
    event,
    actorName,
    message,
    fromAssigneeName,
    toAssigneeName,
    teamName,
  }: {
    event: TicketEventRow;
    actorName: string | null;
    message: string | null;
    fromAssigneeName: string | null;
    toAssigneeName: string | null;
    teamName: string | null;
  },
  { withVia }: { withVia: boolean },
): TicketEvent {
  return {
    id: event.id,
    type: event.type,
    actorId: event.actorId,
    actorName,
    fromStatus: event.fromStatus,
    toStatus: event.toStatus,
    message: message ?? event.note ?? null,
    rating: event.rating,
    fromAssigneeName,
    toAssigneeName,
    changes: event.changes ?? null,
    slaTarget: event.slaTarget ?? null,
    dueAt: event.dueAt?.toISOString() ?? null,
    idleDays: event.idleDays,
    holdUntil: event.holdUntil?.toISOString() ?? null,
    holdEnd: event.holdEnd ?? null,
    fromTeamName: event.fromTeamName,
    toTeamName: event.toTeamName,
    teamName: event.type === "auto_assigned" ? teamName : null,
    assignmentMode: event.assignmentMode ?? null,
    tagsAdded: event.type === "tags_changed" ? (event.tagsAdded ?? []) : null,
    tagsRemoved: event.type === "tags_changed" ? (event.tagsRemoved ?? []) : null,
    linkedTicketId: event.linkedTicketId ?? null,
    linkRelation: event.type === "linked" || event.type === "unlinked" ? (event.linkKind ?? null) : null,
    via: viaOf(event, withVia),
    at: event.createdAt.toISOString(),
  };
}
