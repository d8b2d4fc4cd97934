import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Lock, MessageSquare } from "lucide-react";
import { type ReactNode, type RefObject, useEffect, useId, useRef } from "react";
import { Card } from "#client/components/ui/card.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { PersonAvatar } from "#client/components/ui/person-avatar.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { useChangedWhileWriting } from "#client/features/tickets/stale-reply.ts";
import { ticketActivityQuery } from "#client/features/tickets/ticket.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import type { CommentEditor } from "#client/lib/text-insertion.ts";
import { useActor } from "#client/lib/use-actor.ts";
import { can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { Comment } from "#shared/tickets/ticket-activity.schemas.ts";
import { AddCommentForm, type TextareaAddon } from "./add-comment-form.tsx";
import { AttachmentList } from "./attachment-list.tsx";
import { NewMark } from "./new-mark.tsx";
import { changedWhileWritingAttribute } from "./stale-reply-prompt.tsx";

/**
 * The conversation on a ticket, oldest first, and the box to add to it. The page may pass how a message
 * renders (highlighted mentions) and an addon for the box (the staff @-autocomplete).
 */
export function TicketComments({
  ticket,
  renderMessage = (message) => message,
  textareaAddon,
  commentTools,
  onDraftChange,
}: {
  ticket: Ticket;
  renderMessage?: (message: string) => ReactNode;
  textareaAddon?: TextareaAddon;
  commentTools?: (editor: CommentEditor) => ReactNode;
  onDraftChange?: (text: string) => void;
}) {
  const headingId = useId();
  const actor = useActor();
  const activity = useQuery(ticketActivityQuery(ticket.ticketId));
  const comments = activity.data?.comments ?? [];
  const changedWhileWriting = useChangedWhileWriting(ticket.ticketId).comments;
  const formArea = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  useFocusOnOwnNewComment(comments, actor?.id, list, formArea);

  return (
    <Card aria-labelledby={headingId} role="region">
      <div className="flex items-center gap-2 border-b border-slate-100 px-6 py-4">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          <Trans>Comments</Trans>
        </h2>
        {activity.data ? (
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">
            {comments.length}
          </span>
        ) : null}
      </div>
      <div className="px-6 py-5">
        {activity.isPending ? (
          <div className="flex justify-center py-4">
            <Spinner label={t`Loading comments`} />
          </div>
        ) : activity.isError ? (
          <LoadFailed
            message={t`The comments could not be loaded.`}
            onRetry={() => void activity.refetch()}
          />
        ) : comments.length === 0 ? (
          <p className="flex items-center gap-2 text-sm text-slate-500">
            <MessageSquare aria-hidden="true" className="size-4" />
            <Trans>No comments yet.</Trans>
          </p>
        ) : (
          <ol ref={list} className="flex flex-col gap-5">
            {comments.map((comment) => (
              <li
                key={comment.commentId}
                data-comment-id={comment.commentId}
                {...(changedWhileWriting.has(comment.commentId)
                  ? { [changedWhileWritingAttribute]: "" }
                  : {})}
                tabIndex={-1}
                className="rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-600"
              >
                <CommentItem
                  comment={comment}
                  isOwn={comment.authorId === actor?.id}
                  isNew={changedWhileWriting.has(comment.commentId)}
                  renderMessage={renderMessage}
                />
              </li>
            ))}
          </ol>
        )}
      </div>
      {actor && can.comment(actor, ticket) ? (
        <div
          ref={formArea}
          data-comment-form
          className="rounded-b-xl border-t border-slate-100 bg-slate-50/60 px-6 py-5"
        >
          <AddCommentForm
            ticketId={ticket.ticketId}
            canAddInternal={can.addInternalNote(actor, ticket)}
            textareaAddon={textareaAddon}
            tools={commentTools}
            onDraftChange={onDraftChange}
          />
        </div>
      ) : null}
    </Card>
  );
}

/**
 * Focus is never lost after adding a comment: the form empties and its button disables (or the box sent
 * with Ctrl+Enter is empty), so the comment just added takes focus, unless the person has already moved on
 * (e.g. is typing the next one).
 */
function useFocusOnOwnNewComment(
  comments: Comment[],
  actorId: string | undefined,
  list: RefObject<HTMLOListElement | null>,
  formArea: RefObject<HTMLDivElement | null>,
) {
  const known = useRef<Set<string> | null>(null);
  useEffect(() => {
    const before = known.current;
    known.current = new Set(comments.map((comment) => comment.commentId));
    if (!before || !actorId) return;
    const added = comments.findLast(
      (comment) => !before.has(comment.commentId) && comment.authorId === actorId,
    );
    if (!added) return;
    const active = document.activeElement;
    const isFocusLost = active === null || active === document.body;
    const isInForm = formArea.current?.contains(active) === true;
    const isOnFormButton = isInForm && active?.tagName === "BUTTON";
    // Sent with Ctrl+Enter: the box is still focused, and empty or (when the list refreshed before the form
    // reset) still holding exactly what was sent, so the person has not moved on either.
    const isInSentBox =
      isInForm &&
      active instanceof HTMLTextAreaElement &&
      (active.value === "" || active.value.trim() === added.message.trim());
    if (!isFocusLost && !isOnFormButton && !isInSentBox) return;
    list.current?.querySelector<HTMLElement>(`[data-comment-id="${CSS.escape(added.commentId)}"]`)?.focus();
  }, [comments, actorId, list, formArea]);
}

function CommentItem({
  comment,
  isOwn,
  isNew,
  renderMessage,
}: {
  comment: Comment;
  isOwn: boolean;
  /** Added by someone else while the reader was writing a reply that was then refused (decision 072). */
  isNew: boolean;
  renderMessage: (message: string) => ReactNode;
}) {
  const author = comment.authorName ?? t`Unknown`;
  return (
    <article
      className={
        comment.isInternal
          ? "-mx-3 flex gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3"
          : "flex gap-3"
      }
    >
      <PersonAvatar name={author} />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
          <span className="font-medium text-slate-900">{author}</span>
          {isOwn ? (
            <span className="text-xs text-slate-500">
              <Trans>(you)</Trans>
            </span>
          ) : null}
          <time dateTime={comment.timestamp} className="text-xs text-slate-500">
            {formatDateTime(comment.timestamp)}
          </time>
          {isNew ? <NewMark /> : null}
        </p>
        {comment.isInternal ? (
          <p className="mt-1 flex items-center gap-1 text-xs font-medium text-amber-800">
            <Lock aria-hidden="true" className="size-3.5" />
            <Trans>Internal note — not visible to the requester</Trans>
          </p>
        ) : null}
        <p className="mt-1 text-sm leading-6 break-words whitespace-pre-wrap text-slate-700">
          {renderMessage(comment.message)}
        </p>
        <AttachmentList
          attachments={comment.attachments}
          label={comment.isInternal ? t`Files of this internal note` : t`Files of this comment`}
        />
      </div>
    </article>
  );
}
