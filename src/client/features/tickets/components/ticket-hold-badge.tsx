import { Trans } from "@lingui/react/macro";
import { CirclePause, MessageCircleReply } from "lucide-react";
import { Badge } from "#client/components/ui/badge.tsx";
import { formatDateTime } from "#client/lib/format.ts";
import { useActor } from "#client/lib/use-actor.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";

// On hold (decision 070): a state within In Progress, shown beside the status, never instead of it.

/**
 * "On hold" beside the status on the ticket and in every list; its requester reads "Waiting for your reply",
 * since it is they who are waited on. Nothing for a ticket that is not on hold.
 */
export function TicketHoldBadge({ ticket }: { ticket: Pick<Ticket, "onHoldSince" | "createdBy"> }) {
  const actor = useActor();
  if (!ticket.onHoldSince) return null;
  return (
    <Badge tone="indigo">
      {actor?.id === ticket.createdBy ? <Trans>Waiting for your reply</Trans> : <Trans>On hold</Trans>}
    </Badge>
  );
}

/**
 * Under the ticket: what the hold means to who reads it. The requester learns that a reply moves the
 * ticket on; staff see since when it waits and when it lifts by itself.
 */
export function TicketHoldNotice({ ticket }: { ticket: Ticket }) {
  const actor = useActor();
  if (!ticket.onHoldSince) return null;
  const since = <time dateTime={ticket.onHoldSince}>{formatDateTime(ticket.onHoldSince)}</time>;
  const until = ticket.holdUntil ? (
    <time dateTime={ticket.holdUntil}>{formatDateTime(ticket.holdUntil)}</time>
  ) : null;
  const isRequester = actor?.id === ticket.createdBy;
  const assignee = ticket.assignedToName;
  return (
    <div
      role="status"
      className="flex items-start gap-3 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-900"
    >
      {isRequester ? (
        <MessageCircleReply aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-indigo-600" />
      ) : (
        <CirclePause aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-indigo-600" />
      )}
      {isRequester ? (
        <div className="flex flex-col gap-1">
          <p className="font-semibold">
            <Trans>Waiting for your reply</Trans>
          </p>
          <p>
            {assignee ? (
              <Trans>
                {assignee} needs an answer from you to go on. Reply below, and the ticket is worked on again.
              </Trans>
            ) : (
              <Trans>
                The team needs an answer from you to go on. Reply below, and the ticket is worked on again.
              </Trans>
            )}
          </p>
          {until ? (
            <p className="text-indigo-800">
              <Trans>Without a reply, it goes on by itself on {until}.</Trans>
            </p>
          ) : null}
        </div>
      ) : (
        <div className="flex flex-col gap-1">
          <p className="font-semibold">
            <Trans>On hold, waiting for the requester</Trans>
          </p>
          <p>
            {until ? (
              <Trans>
                Since {since}. The hold lifts when the requester replies, or on {until}. The resolution target
                is paused meanwhile.
              </Trans>
            ) : (
              <Trans>
                Since {since}. The hold lifts when the requester replies. The resolution target is paused
                meanwhile.
              </Trans>
            )}
          </p>
        </div>
      )}
    </div>
  );
}
