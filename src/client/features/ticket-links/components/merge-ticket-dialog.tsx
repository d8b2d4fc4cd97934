import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { GitMerge, LoaderCircle, TriangleAlert } from "lucide-react";
import { useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { otherTicketQuery, useMergeTicket } from "#client/features/ticket-links/ticket-links.api.ts";
import { toast } from "#client/lib/toast.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { TicketPicker, typedTicketId } from "./ticket-picker.tsx";

interface MergeTicketDialogProps {
  ticket: Ticket;
  onClose: () => void;
  onMerged: (ticket: Ticket) => void;
  onRefused: (error: Error) => void;
}

/**
 * "Merge into…" (decision 074): pick the ticket this duplicate goes into; the dialog names it and says what
 * will move and who is told before the merge is confirmed. The server decides again.
 */
export function MergeTicketDialog({ ticket, onClose, onMerged, onRefused }: MergeTicketDialogProps) {
  const { t } = useLingui();
  const id = useId();
  const merge = useMergeTicket(ticket.ticketId);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const targetId = typedTicketId(text);
  const isItself = targetId === ticket.ticketId;
  const target = useQuery({ ...otherTicketQuery(targetId ?? ""), enabled: targetId !== null && !isItself });
  const chosen = target.data && target.data.ticketId === targetId ? target.data : null;
  const refusal = isItself
    ? t`A ticket cannot be merged into itself.`
    : chosen?.mergedIntoId
      ? t`${chosen.ticketId} was itself merged into ${chosen.mergedIntoId}; merge into that ticket instead.`
      : chosen?.status === "Closed"
        ? t`${chosen.ticketId} is closed; merge into a ticket that is not closed.`
        : target.data === null
          ? t`There is no ticket ${targetId} you can see.`
          : null;
  const canConfirm = chosen !== null && refusal === null && !merge.isPending;

  async function handleConfirm() {
    if (!chosen) return;
    setError(null);
    try {
      const result = await merge.mutateAsync(chosen.ticketId);
      onMerged(result.ticket);
      toast.success(t`Merged into ${chosen.ticketId}`);
      onClose();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : t`The tickets could not be merged.`);
      if (failure instanceof Error) onRefused(failure);
    }
  }

  return (
    <Dialog
      title={t`Merge ${ticket.ticketId} into another ticket`}
      description={t`Use this when this ticket is a duplicate: the conversation goes on in the other ticket.`}
      onClose={onClose}
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-target`} className="text-sm font-medium text-slate-700">
          <Trans>Merge into</Trans>
        </label>
        <TicketPicker
          id={`${id}-target`}
          value={text}
          onChange={(value) => {
            setText(value);
            setError(null);
          }}
          excludeIds={[ticket.ticketId]}
          error={refusal ?? undefined}
        />
      </div>
      {target.isFetching && !chosen ? (
        <p className="mt-3 flex items-center gap-2 text-sm text-slate-500">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          <Trans>Looking for the ticket…</Trans>
        </p>
      ) : null}
      {chosen && refusal === null ? <WhatMoves ticket={ticket} target={chosen} /> : null}
      {error ? (
        <div className="mt-3">
          <Alert>{error}</Alert>
        </div>
      ) : null}
      <div className="mt-5 flex flex-col gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose}>
          <Trans>Cancel</Trans>
        </Button>
        <Button variant="danger" disabled={!canConfirm} onClick={() => void handleConfirm()}>
          {merge.isPending ? (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <GitMerge aria-hidden="true" className="size-4" />
          )}
          {chosen ? <Trans>Merge into {chosen.ticketId}</Trans> : <Trans>Merge</Trans>}
        </Button>
      </div>
    </Dialog>
  );
}

/** What the merge will do, said before it is confirmed; and a warning when the requesters differ. */
function WhatMoves({ ticket, target }: { ticket: Ticket; target: Ticket }) {
  const source = ticket.ticketId;
  const into = target.ticketId;
  const title = target.title;
  const isSameRequester = target.createdBy === ticket.createdBy;
  return (
    <div className="mt-4 flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
      <p className="break-words font-medium text-slate-900">
        {into} · {title}
      </p>
      <ul className="list-disc space-y-1 pl-5">
        <li>
          <Trans>
            The comments, internal notes and files of {source} move to {into}, where they keep their times.
          </Trans>
        </li>
        <li>
          <Trans>Its followers follow {into} instead.</Trans>
        </li>
        <li>
          <Trans>
            {source} is closed and points to {into}; its requester is told where the conversation went.
          </Trans>
        </li>
      </ul>
      {isSameRequester ? null : (
        <p className="flex gap-2 text-amber-800">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            <Trans>
              {into} was raised by someone else: its requester will read the public comments moved from{" "}
              {source}, and the requester of {source} cannot open {into} (they are told its number only).
            </Trans>
          </span>
        </p>
      )}
    </div>
  );
}
