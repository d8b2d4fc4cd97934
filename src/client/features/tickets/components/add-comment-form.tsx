import { zodResolver } from "@hookform/resolvers/zod";
import { LoaderCircle, Send } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "react-toastify/unstyled";
import {
  type AddCommentInput,
  addCommentInputSchema,
  commentMaxLength,
} from "#shared/tickets/ticket-activity.schemas.ts";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Field, Textarea } from "../../../components/ui/field.tsx";
import { useAddComment } from "../ticket.api.ts";

/** Spec §5: empty or whitespace-only text is not sent; the button stays disabled. */
export function AddCommentForm({ ticketId }: { ticketId: string }) {
  const id = useId();
  const addComment = useAddComment(ticketId);
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<AddCommentInput>({
    resolver: zodResolver(addCommentInputSchema),
    defaultValues: { message: "" },
  });
  const isBlank = watch("message").trim() === "";

  const handleAdd = handleSubmit(async (input) => {
    setServerError(null);
    try {
      await addComment.mutateAsync(input);
      toast.success("Comment added successfully");
      reset({ message: "" });
    } catch (error) {
      toast.error("Failed to add comment");
      setServerError(error instanceof Error ? error.message : "Failed to add comment");
    }
  });

  return (
    <form noValidate onSubmit={handleAdd} className="flex flex-col gap-3">
      <Field label="Add a comment" htmlFor={`${id}-message`} error={errors.message?.message}>
        <Textarea
          id={`${id}-message`}
          invalid={errors.message !== undefined}
          rows={3}
          maxLength={commentMaxLength}
          placeholder="Write an update or ask a question…"
          className="min-h-20"
          {...register("message")}
        />
      </Field>
      {serverError ? <Alert>{serverError}</Alert> : null}
      <div className="flex justify-end">
        <Button type="submit" size="sm" disabled={isBlank || isSubmitting}>
          {isSubmitting ? (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <Send aria-hidden="true" className="size-4" />
          )}
          Add Comment
        </Button>
      </div>
    </form>
  );
}
