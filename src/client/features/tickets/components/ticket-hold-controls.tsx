import { t } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { CalendarClock, CirclePause, CirclePlay, LoaderCircle } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { Field, Input, Textarea } from "#client/components/ui/field.tsx";
import { useChangeHold, usePutOnHold, useTakeOffHold } from "#client/features/tickets/ticket.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import { toast } from "#client/lib/toast.ts";
import { validationText } from "#client/lib/validation-text.ts";
import { type Actor, can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { putOnHoldInputSchema } from "#shared/tickets/ticket-hold.ts";

// On hold (decision 070): staff who may change the status put an In Progress ticket on hold with a public
// comment, change the date it lifts by itself, and take it off hold. can.putOnHold and can.changeHold
// decide what is offered; the server decides again.

interface TicketHoldControlsProps {
  actor: Actor;
  ticket: Ticket;
  /** The server's reason when it refused; null after a success. */
  onOutcome: (refusal: string | null) => void;
}

/** A date input's value (the browser's own calendar day) for an instant, and back to the start of that day. */
const dateInputValue = (at: Date) =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`;
const startOfDay = (value: string) => {
  const [year, month, day] = value.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, day);
};
/** The first day a hold may lift on: tomorrow (the start of today has passed). */
const tomorrow = () => {
  const now = new Date();
  return dateInputValue(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1));
};

export function TicketHoldControls({ actor, ticket, onOutcome }: TicketHoldControlsProps) {
  const [dialog, setDialog] = useState<"hold" | "date" | null>(null);
  const takeOff = useTakeOffHold(ticket.ticketId);
  const mayPut = can.putOnHold(actor, ticket);
  const mayChange = can.changeHold(actor, ticket);
  if (!mayPut && !mayChange) return null;
  const close = () => setDialog(null);

  async function handleTakeOff() {
    try {
      await takeOff.mutateAsync();
      toast.success(t`Taken off hold`);
      onOutcome(null);
    } catch (error) {
      toast.error(t`Failed to take the ticket off hold`);
      onOutcome(error instanceof Error ? error.message : t`Failed to take the ticket off hold`);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">
        <Trans>Waiting on the requester</Trans>
      </p>
      {mayPut ? (
        <>
          <Button variant="secondary" size="sm" className="self-start" onClick={() => setDialog("hold")}>
            <CirclePause aria-hidden="true" className="size-4" />
            <Trans>Put on hold</Trans>
          </Button>
          <p className="text-xs text-slate-500">
            <Trans>Ask the requester something; the resolution target pauses until they reply.</Trans>
          </p>
        </>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            {ticket.holdUntil ? (
              <Trans>
                On hold until{" "}
                <time dateTime={ticket.holdUntil} className="font-medium">
                  {formatDateTime(ticket.holdUntil)}
                </time>
                , or until the requester replies.
              </Trans>
            ) : (
              <Trans>On hold until the requester replies.</Trans>
            )}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              size="sm"
              disabled={takeOff.isPending}
              onClick={() => void handleTakeOff()}
            >
              {takeOff.isPending ? (
                <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
              ) : (
                <CirclePlay aria-hidden="true" className="size-4" />
              )}
              <Trans>Take off hold</Trans>
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setDialog("date")}>
              <CalendarClock aria-hidden="true" className="size-4" />
              <Trans>Change date</Trans>
            </Button>
          </div>
        </>
      )}
      {dialog === "hold" ? <PutOnHoldDialog ticket={ticket} onClose={close} onOutcome={onOutcome} /> : null}
      {dialog === "date" ? <ChangeHoldDateDialog ticket={ticket} onClose={close} /> : null}
    </div>
  );
}

interface DialogProps {
  ticket: Ticket;
  onClose: () => void;
}

/** The public comment the requester reads, and optionally the day the hold lifts by itself. */
export function PutOnHoldDialog({
  ticket,
  onClose,
  onOutcome,
}: DialogProps & { onOutcome: (refusal: string | null) => void }) {
  const { t } = useLingui();
  const id = useId();
  const putOnHold = usePutOnHold(ticket.ticketId);
  const [comment, setComment] = useState("");
  const [date, setDate] = useState("");
  const [errors, setErrors] = useState<{ comment?: string; date?: string; server?: string }>({});

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = putOnHoldInputSchema.safeParse({
      comment,
      until: date ? startOfDay(date).toISOString() : null,
    });
    const dateError = date && date < tomorrow() ? t`Choose a day from tomorrow on.` : undefined;
    if (!parsed.success || dateError) {
      const commentIssue = parsed.error?.issues.find((issue) => issue.path[0] === "comment")?.message;
      setErrors({ comment: validationText(commentIssue), date: dateError });
      return;
    }
    setErrors({});
    try {
      await putOnHold.mutateAsync(parsed.data);
      toast.success(t`Ticket put on hold`);
      onOutcome(null);
      onClose();
    } catch (error) {
      setErrors({ server: error instanceof Error ? error.message : t`The ticket could not be put on hold.` });
    }
  }

  return (
    <Dialog
      title={t`Put on hold`}
      description={t`The requester reads your comment. Their reply takes the ticket off hold.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-4">
        {errors.server ? <Alert>{errors.server}</Alert> : null}
        <Field label={t`Comment for the requester`} htmlFor={`${id}-comment`} error={errors.comment}>
          <Textarea
            id={`${id}-comment`}
            name="comment"
            value={comment}
            invalid={Boolean(errors.comment)}
            onChange={(event) => setComment(event.target.value)}
            placeholder={t`What do you need from them?`}
          />
        </Field>
        <Field label={t`Lift the hold on (optional)`} htmlFor={`${id}-date`} error={errors.date}>
          <Input
            id={`${id}-date`}
            name="until"
            type="date"
            min={tomorrow()}
            value={date}
            invalid={Boolean(errors.date)}
            onChange={(event) => setDate(event.target.value)}
            className="sm:max-w-48"
          />
        </Field>
        <p className="-mt-2 text-xs text-slate-500">
          <Trans>Without a reply, the ticket goes on by itself at the start of that day.</Trans>
        </p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={putOnHold.isPending}>
            {putOnHold.isPending ? (
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            ) : (
              <CirclePause aria-hidden="true" className="size-4" />
            )}
            <Trans>Put on hold</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** A new day for the hold to lift on, or none. */
function ChangeHoldDateDialog({ ticket, onClose }: DialogProps) {
  const { t } = useLingui();
  const id = useId();
  const changeHold = useChangeHold(ticket.ticketId);
  const [date, setDate] = useState(ticket.holdUntil ? dateInputValue(new Date(ticket.holdUntil)) : "");
  const [error, setError] = useState<string | null>(null);

  async function save(until: string | null) {
    if (until !== null && until < tomorrow()) {
      setError(t`Choose a day from tomorrow on.`);
      return;
    }
    try {
      await changeHold.mutateAsync({ until: until ? startOfDay(until).toISOString() : null });
      toast.success(until ? t`Date to lift the hold saved` : t`Date to lift the hold removed`);
      onClose();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : t`The date could not be saved.`);
    }
  }

  return (
    <Dialog title={t`Date to lift the hold`} onClose={onClose}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save(date || null);
        }}
        className="flex flex-col gap-4"
      >
        <Field label={t`Lift the hold on`} htmlFor={`${id}-date`} error={error ?? undefined}>
          <Input
            id={`${id}-date`}
            name="until"
            type="date"
            min={tomorrow()}
            value={date}
            invalid={Boolean(error)}
            onChange={(event) => setDate(event.target.value)}
            className="sm:max-w-48"
          />
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          {ticket.holdUntil ? (
            <Button variant="ghost" disabled={changeHold.isPending} onClick={() => void save(null)}>
              <Trans>Remove date</Trans>
            </Button>
          ) : null}
          <Button type="submit" disabled={changeHold.isPending || !date}>
            <Trans>Save date</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
