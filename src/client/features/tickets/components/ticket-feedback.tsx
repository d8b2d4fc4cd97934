import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Pencil } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { ticketActivityQuery } from "#client/features/tickets/ticket.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import { useActor } from "#client/lib/use-actor.ts";
import { can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { Feedback } from "#shared/tickets/ticket-activity.schemas.ts";
import { FeedbackForm } from "./feedback-form.tsx";
import { RatingStars } from "./rating-stars.tsx";

/**
 * Rate & Feedback: the form for the creator of a Resolved ticket (can.giveFeedback), who may change it
 * while the ticket stays Resolved; the feedback itself for everyone who can see the ticket.
 */
export function TicketFeedback({ ticket }: { ticket: Ticket }) {
  const { t } = useLingui();
  const headingId = useId();
  const actor = useActor();
  const activity = useQuery(ticketActivityQuery(ticket.ticketId));
  const [isEditing, setIsEditing] = useState(false);
  const canGive = actor ? can.giveFeedback(actor, ticket) : false;
  const feedback = activity.data?.feedback ?? null;

  if (!canGive && !feedback) return null;

  const showForm = canGive && (feedback === null || isEditing);
  return (
    <Card role="region" aria-labelledby={headingId} className="p-6">
      <h2 id={headingId} className="text-base font-semibold text-slate-900">
        {canGive ? t`Rate & Feedback` : t`Feedback`}
      </h2>
      {activity.isPending ? (
        <div className="flex justify-center py-4">
          <Spinner label={t`Loading feedback`} />
        </div>
      ) : showForm ? (
        <>
          <p className="mt-1 mb-5 text-sm text-slate-500">
            <Trans>Your ticket is resolved. How satisfied are you with the help you received?</Trans>
          </p>
          <FeedbackForm
            ticketId={ticket.ticketId}
            initial={feedback}
            onSaved={() => setIsEditing(false)}
            onCancel={feedback ? () => setIsEditing(false) : undefined}
          />
        </>
      ) : feedback ? (
        <SubmittedFeedback
          feedback={feedback}
          authorName={ticket.createdByName ?? t`The creator`}
          onChange={canGive ? () => setIsEditing(true) : undefined}
        />
      ) : null}
    </Card>
  );
}

interface SubmittedFeedbackProps {
  feedback: Feedback;
  authorName: string;
  onChange?: () => void;
}

function SubmittedFeedback({ feedback, authorName, onChange }: SubmittedFeedbackProps) {
  return (
    <div className="mt-3 flex flex-col gap-3">
      <RatingStars rating={feedback.rating} />
      {feedback.comment ? (
        <blockquote className="border-l-2 border-slate-200 pl-3 text-sm leading-6 break-words whitespace-pre-wrap text-slate-700">
          {feedback.comment}
        </blockquote>
      ) : null}
      <p className="text-xs text-slate-500">
        <Trans>
          Given by {authorName} on{" "}
          <time dateTime={feedback.submittedAt}>{formatDateTime(feedback.submittedAt)}</time>
        </Trans>
      </p>
      {onChange ? (
        <div>
          <Button variant="secondary" size="sm" onClick={onChange}>
            <Pencil aria-hidden="true" className="size-3.5" />
            <Trans>Change feedback</Trans>
          </Button>
        </div>
      ) : null}
    </div>
  );
}
