import { zodResolver } from "@hookform/resolvers/zod";
import { Trans, useLingui } from "@lingui/react/macro";
import { LoaderCircle } from "lucide-react";
import { useId, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { Field, Textarea } from "#client/components/ui/field.tsx";
import { useGiveFeedback } from "#client/features/tickets/ticket.api.ts";
import { ratingLabels } from "#client/features/tickets/ticket-labels.ts";
import { toast } from "#client/lib/toast.ts";
import { validationText } from "#client/lib/validation-text.ts";
import {
  defaultRating,
  type Feedback,
  feedbackInputSchema,
  isRating,
  ratings,
} from "#shared/tickets/ticket-activity.schemas.ts";
import { StarIcon } from "./rating-stars.tsx";

interface FeedbackFormProps {
  ticketId: string;
  /** The feedback given before, when the creator changes it. */
  initial: Feedback | null;
  onSaved: () => void;
  onCancel?: () => void;
}

/** Rating 1–5 (default 5) with its label, optional comment. */
export function FeedbackForm({ ticketId, initial, onSaved, onCancel }: FeedbackFormProps) {
  const { t, i18n } = useLingui();
  const id = useId();
  const giveFeedback = useGiveFeedback(ticketId);
  const [serverError, setServerError] = useState<string | null>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(feedbackInputSchema),
    defaultValues: { rating: initial?.rating ?? defaultRating, comment: initial?.comment ?? "" },
  });

  const handleGive = handleSubmit(async (input) => {
    setServerError(null);
    try {
      await giveFeedback.mutateAsync(input);
      toast.success(t`Thank you for your feedback!`);
      onSaved();
    } catch (error) {
      toast.error(t`Failed to submit feedback`);
      setServerError(error instanceof Error ? error.message : t`Failed to submit feedback`);
    }
  });

  return (
    <form noValidate onSubmit={handleGive} className="flex flex-col gap-5">
      <Controller
        control={control}
        name="rating"
        render={({ field }) => {
          const shown = hovered ?? field.value;
          return (
            <fieldset>
              <legend className="text-sm font-medium text-slate-700">
                <Trans>Rating</Trans>
              </legend>
              <div className="mt-2 flex flex-wrap items-center gap-3">
                <div className="flex">
                  {ratings.map((rating) => (
                    <label
                      key={rating}
                      title={i18n._(ratingLabels[rating])}
                      onMouseEnter={() => setHovered(rating)}
                      onMouseLeave={() => setHovered(null)}
                      className="cursor-pointer rounded-md p-0.5 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600"
                    >
                      <input
                        type="radio"
                        name={field.name}
                        value={rating}
                        checked={field.value === rating}
                        onChange={() => field.onChange(rating)}
                        onBlur={field.onBlur}
                        className="sr-only"
                      />
                      <span className="sr-only">{i18n._(ratingLabels[rating])}</span>
                      <StarIcon isFilled={rating <= shown} size="lg" />
                    </label>
                  ))}
                </div>
                <span
                  aria-hidden="true"
                  className={cn("text-sm font-medium", hovered ? "text-slate-500" : "text-slate-900")}
                >
                  {isRating(shown) ? `${shown} · ${i18n._(ratingLabels[shown])}` : null}
                </span>
              </div>
            </fieldset>
          );
        }}
      />
      <Field
        label={t`Feedback comment`}
        htmlFor={`${id}-comment`}
        error={validationText(errors.comment?.message)}
        className="max-w-2xl"
      >
        <Textarea
          id={`${id}-comment`}
          invalid={errors.comment !== undefined}
          rows={3}
          className="min-h-20"
          placeholder={t`Optional: what went well, what could be better?`}
          {...register("comment")}
        />
      </Field>
      {serverError ? <Alert>{serverError}</Alert> : null}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          <Trans>Submit Feedback</Trans>
        </Button>
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        ) : null}
      </div>
    </form>
  );
}
