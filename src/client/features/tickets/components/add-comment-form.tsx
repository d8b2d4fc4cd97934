import { zodResolver } from "@hookform/resolvers/zod";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { LoaderCircle, Lock, Send } from "lucide-react";
import { type ReactNode, useId, useRef, useState } from "react";
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
import { useAttachmentUploads } from "./use-attachment-uploads.ts";

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
 * button is then never disabled, as nothing would enable it again.
 */
export function AddCommentForm({
  ticketId,
  canAddInternal = false,
  textareaAddon,
  tools,
}: {
  ticketId: string;
  canAddInternal?: boolean;
  textareaAddon?: TextareaAddon;
  /** Composed by the page (e.g. the canned-response picker): beside the Internal note switch, writing into the box. */
  tools?: (editor: CommentEditor) => ReactNode;
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
  const isBlank = watch("message").trim() === "";
  const isInternal = watch("isInternal") === true;

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
      const added = await addComment.mutateAsync(
        input.isInternal ? { ...input, ...files } : { message: input.message, ...files },
      );
      setMentionNotice(unnotifiedMentionsMessage(added.mentions));
      toast.success(input.isInternal ? t`Internal note added` : t`Comment added successfully`);
      reset({ message: "", isInternal: false });
      uploads.clear();
      // The send button is disabled by the now-empty box, which would drop focus to the page: the
      // writer stays in the box for a follow-up, and the toast (a status) says it was sent. Decision 036.
      textareaRef.current?.focus();
    } catch (error) {
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
          <Button
            type="submit"
            size="sm"
            disabled={(isHydrated && isBlank) || isSubmitting || uploads.isUploading}
          >
            {isSubmitting ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : isInternal ? (
              <Lock aria-hidden="true" className="size-4" />
            ) : (
              <Send aria-hidden="true" className="size-4" />
            )}
            {isInternal ? t`Add Internal Note` : t`Add Comment`}
          </Button>
        </div>
      </form>
    </FileDropZone>
  );
}
