import { Trans } from "@lingui/react/macro";
import { Clock } from "lucide-react";
import { formatDateTime } from "#client/lib/format.ts";
import { useActor } from "#client/lib/use-actor.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";

/**
 * Told in advance (decision 021): a Resolved ticket closes by itself on the date the server computed
 * (ticket.autoCloseAt, null when it will not). The creator learns how to keep it open; staff see the date.
 */
export function AutoCloseNotice({ ticket }: { ticket: Ticket }) {
  const actor = useActor();
  if (!ticket.autoCloseAt) return null;
  const when = <time dateTime={ticket.autoCloseAt}>{formatDateTime(ticket.autoCloseAt)}</time>;
  const isCreator = actor?.id === ticket.createdBy;
  return (
    <p
      role="status"
      className="flex items-start gap-2 rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700"
    >
      <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-500" />
      {isCreator ? (
        <span>
          <Trans>This ticket will close automatically on {when} unless you reply or rate it.</Trans>
        </span>
      ) : (
        <span>
          <Trans>Closes automatically on {when} unless the creator replies or rates it.</Trans>
        </span>
      )}
    </p>
  );
}
