import { zodResolver } from "@hookform/resolvers/zod";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { LoaderCircle, Lock, Send } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Field, Textarea } from "#client/components/ui/field.tsx";
import { FileDropZone } from "#client/components/ui/file-drop-zone.tsx";
import { useAddComment } from "#client/features/tickets/ticket.api.ts";
import { handlePastedFiles } from "#client/lib/attachment-upload.ts";
import { useFormAnswer } from "#client/lib/form-answer.ts";
import { type CommentEditor, insertAt } from "#client/lib/text-insertion.ts";
import { toast } from "#client/lib/toast.ts";
import { useHydrated } from "#client/lib/use-hydrated.ts";
import { unnotifiedMentionsMessage } from "#shared/mentions/mention.schemas.ts";
import { formNameField, ticketFormNames } from "#shared/page-rendering/page-forms.ts";
import { commentMaxLength } from "#shared/tickets/comment-length.ts";
import { type AddCommentInput, addCommentInputSchema } from "#shared/tickets/ticket-activity.schemas.ts";
import { AttachmentPicker } from "./attachment-picker.tsx";
import { StaleReplyPrompt } from "./stale-reply-prompt.tsx";
import { useAttachmentUploads } from "./use-attachment-uploads.ts";
import { useStaleReply } from "./use-stale-reply.ts";

/** What the page may attach to the comment box (the staff @-autocomplete): the textarea and its text. */
export type TextareaAddon = (props: {
  textarea: HTMLTextAreaElement | null;
  setText: (text: string) => void;
}) => ReactNode;

/**
 * Empty or whitespace-only text is not sent; the button stays disabled. Staff (`canAddInternal`)
 * may turn the text into an internal note, which the requester never sees. Without the app's code (or
 * before it), the form posts to the ticket's page, where the server adds the comment through the same
 * API and comes back to the ticket, or draws it again with the API's answer here (decision 065); the
 * button is then never disabled, as nothing would enable it again. A reply names the newest timeline entry
 * shown when it began, and one refused because someone else changed the ticket since is kept, with a
 * prompt to look and send anyway (decision 072).
 */
export function AddCommentForm({
  ticketId,
  canAddInternal = false,
  textareaAddon,
  tools,
  onDraftChange,
}: {
  ticketId: string;
  canAddInternal?: boolean;
  textareaAddon?: TextareaAddon;
  /** Composed by the page (e.g. the canned-response picker): beside the Internal note switch, writing into the box. */
  tools?: (editor: CommentEditor) => ReactNode;
  /** The box's text as it changes (the page tells the others on the ticket who is typing, decision 072). */
  onDraftChange?: (text: string) => void;
}) {
  const id = useId();
  const addComment = useAddComment(ticketId);
  const isHydrated = useHydrated();
  const answer = useFormAnswer(ticketFormNames.comment);
  const wasNote = answer?.values.isInternal !== undefined;
  const answerError = answer?.fieldErrors?.message;
  const [serverError, setServerError] = useState<string | null>(() =>
    answer && !answerError
      ? `${wasNote ? t`Failed to add internal note` : t`Failed to add comment`}: ${answer.message}`
      : null,
  );
  const [shownAnswerError, setShownAnswerError] = useState(answerError);
  const [mentionNotice, setMentionNotice] = useState<string | null>(null);
  const [textarea, setTextarea] = useState<HTMLTextAreaElement | null>(null);
  const uploads = useAttachmentUploads();
  const {
    register,
    handleSubmit,
    reset,
    watch,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<AddCommentInput>({
    resolver: zodResolver(addCommentInputSchema),
    defaultValues: {
      message: typeof answer?.values.message === "string" ? answer.values.message : "",
      isInternal: wasNote,
    },
  });
  const message = watch("message");
  const isBlank = message.trim() === "";
  const isInternal = watch("isInternal") === true;
  const stale = useStaleReply(ticketId, message);
  useEffect(() => onDraftChange?.(message), [message, onDraftChange]);

  const textareaRef = useRef<HTMLTextAreaElement | null>(null);
  const { ref: messageRef, ...messageField } = register("message");
  const editor: CommentEditor = {
    textareaRef,
    insert: (text) => {
      const element = textareaRef.current;
      const current = getValues("message");
      const next = insertAt(current, text, element?.selectionStart ?? current.length, element?.selectionEnd);
      setValue("message", next.value, { shouldDirty: true });
      element?.focus();
      element?.setSelectionRange(next.caret, next.caret);
    },
  };

  const handleAdd = handleSubmit(async (input) => {
    setServerError(null);
    setShownAnswerError(undefined);
    try {
      // Users' comments stay { message } on the wire; only a note says isInternal.
      const files = uploads.attachmentIds.length > 0 ? { attachmentIds: uploads.attachmentIds } : {};
      const seenEventId = stale.seenEventId();
      const seen = seenEventId ? { seenEventId } : {};
      const added = await addComment.mutateAsync(
        input.isInternal
          ? { message: input.message, isInternal: true, ...files, ...seen }
          : { message: input.message, ...files, ...seen },
      );
      setMentionNotice(unnotifiedMentionsMessage(added.mentions));
      toast.success(input.isInternal ? t`Internal note added` : t`Comment added successfully`);
      reset({ message: "", isInternal: false });
      uploads.clear();
      // The send button is disabled by the now-empty box, which would drop focus to the page: the
      // writer stays in the box for a follow-up, and the toast (a status) says it was sent. Decision 036.
      textareaRef.current?.focus();
    } catch (error) {
      // Someone else changed the ticket meanwhile: the prompt says so, the draft stays.
      if (await stale.handleRefusal(error)) return;
      const failed = isInternal ? t`Failed to add internal note` : t`Failed to add comment`;
      toast.error(failed);
      setServerError(error instanceof Error ? error.message : failed);
    }
  });

  return (
    <FileDropZone onFiles={uploads.add}>
      <form
        method="post"
        name={ticketFormNames.comment}
        noValidate
        onSubmit={handleAdd}
        className="relative flex flex-col gap-3"
      >
        <input type="hidden" name={formNameField} value={ticketFormNames.comment} />
        <Field
          label={isInternal ? t`Add an internal note` : t`Add a comment`}
          htmlFor={`${id}-message`}
          error={errors.message?.message ?? shownAnswerError}
        >
          <Textarea
            id={`${id}-message`}
            invalid={errors.message !== undefined || shownAnswerError !== undefined}
            defaultValue={typeof answer?.values.message === "string" ? answer.values.message : undefined}
            rows={3}
            maxLength={commentMaxLength}
            placeholder={
              isInternal
                ? t`Only technicians and administrators will see this…`
                : t`Write an update or ask a question…`
            }
            className={isInternal ? "min-h-20 bg-amber-50" : "min-h-20"}
            onPaste={handlePastedFiles(uploads.add)}
            onKeyDown={(event) => {
              // Ctrl+Enter (⌘+Enter) sends, as in most helpdesks and mail programs: the keyboard queue's reply.
              if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return;
              event.preventDefault();
              if (!isBlank && !isSubmitting && !uploads.isUploading) void handleAdd();
            }}
            {...messageField}
            ref={(element) => {
              messageRef(element);
              textareaRef.current = element;
              setTextarea(element);
            }}
          />
        </Field>
        {textareaAddon?.({ textarea, setText: (text) => setValue("message", text, { shouldDirty: true }) })}
        <AttachmentPicker uploads={uploads} />
        {serverError ? <Alert>{serverError}</Alert> : null}
        {stale.isStale ? (
          <StaleReplyPrompt onSendAnyway={() => void handleAdd()} isSending={isSubmitting} />
        ) : null}
        {mentionNotice ? (
          <p role="status" className="text-sm text-amber-800">
            {mentionNotice}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            {canAddInternal ? (
              <label className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  className="size-4 accent-amber-600"
                  defaultChecked={wasNote}
                  {...register("isInternal")}
                />
                <Lock aria-hidden="true" className="size-3.5 text-amber-600" />
                <Trans>Internal note</Trans>
              </label>
            ) : null}
            {tools?.(editor)}
          </div>
          <SendButton
            isInternal={isInternal}
            isSubmitting={isSubmitting}
            disabled={(isHydrated && isBlank) || isSubmitting || uploads.isUploading}
          />
        </div>
      </form>
    </FileDropZone>
  );
}

function SendButton({
  isInternal,
  isSubmitting,
  disabled,
}: {
  isInternal: boolean;
  isSubmitting: boolean;
  disabled: boolean;
}) {
  return (
    <Button type="submit" size="sm" disabled={disabled}>
      {isSubmitting ? (
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
      ) : isInternal ? (
        <Lock aria-hidden="true" className="size-4" />
      ) : (
        <Send aria-hidden="true" className="size-4" />
      )}
      {isInternal ? t`Add Internal Note` : t`Add Comment`}
    </Button>
  );
}
