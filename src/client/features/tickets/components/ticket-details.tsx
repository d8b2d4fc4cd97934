import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Card } from "#client/components/ui/card.tsx";
import { ticketActivityQuery } from "#client/features/tickets/ticket.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import { categoryLabels } from "#client/lib/ticket-value-labels.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { AttachmentList } from "./attachment-list.tsx";
import { TicketHoldBadge } from "./ticket-hold-badge.tsx";
import { TicketPriorityLabel, TicketStatusBadge } from "./ticket-status-badge.tsx";

/** The head of the ticket page: id, status, title (the page's h1) and the description. */
export function TicketOverview({ ticket }: { ticket: Ticket }) {
  const { t } = useLingui();
  const createdBy = ticket.createdByName ?? t`Unknown`;
  const createdAt = formatDateTime(ticket.createdAt);
  return (
    <Card className="p-6">
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-mono text-sm text-slate-500">{ticket.ticketId}</span>
        {/* Where focus lands after a keyboard assign or resolve (ticket-shortcuts.tsx): the new status. */}
        <span
          data-ticket-status
          tabIndex={-1}
          className="rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          <span className="sr-only">
            <Trans>Status:</Trans>{" "}
          </span>
          <TicketStatusBadge status={ticket.status} />
        </span>
        <TicketHoldBadge ticket={ticket} />
      </div>
      <h1
        data-ticket-title
        tabIndex={-1}
        className="mt-2 rounded-md text-2xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 font-semibold tracking-tight break-words text-slate-900"
      >
        {ticket.title}
      </h1>
      <p className="mt-1 text-sm text-slate-500">
        <Trans>
          Raised by <span className="font-medium text-slate-700">{createdBy}</span> on{" "}
          <time dateTime={ticket.createdAt}>{createdAt}</time>
        </Trans>
      </p>
      <h2 className="mt-6 text-sm font-semibold text-slate-900">
        <Trans>Description</Trans>
      </h2>
      <p className="mt-2 text-sm leading-6 break-words whitespace-pre-wrap text-slate-700">
        {ticket.description}
      </p>
      <TicketAttachments ticketId={ticket.ticketId} />
    </Card>
  );
}

/** The files attached when the ticket was raised (they come with the activity, which the page loads anyway). */
function TicketAttachments({ ticketId }: { ticketId: string }) {
  const { t } = useLingui();
  const activity = useQuery(ticketActivityQuery(ticketId));
  return <AttachmentList attachments={activity.data?.attachments ?? []} label={t`Files of this ticket`} />;
}

/**
 * Every field of the ticket, with the creator's and assignee's names and both times; `team`, when given
 * (staff, decision 069), is the Team row's content: its name, or the control that moves it.
 */
export function TicketFacts({ ticket, team }: { ticket: Ticket; team?: ReactNode }) {
  const { t, i18n } = useLingui();
  return (
    <Card className="p-5">
      <h2 className="text-sm font-semibold text-slate-900">
        <Trans>Details</Trans>
      </h2>
      <dl className="mt-3 divide-y divide-slate-100 text-sm">
        <Detail label={t`Status`}>
          <span className="inline-flex flex-wrap justify-end gap-1.5">
            <TicketStatusBadge status={ticket.status} />
            <TicketHoldBadge ticket={ticket} />
          </span>
        </Detail>
        <Detail label={t`Priority`}>
          <TicketPriorityLabel priority={ticket.priority} />
        </Detail>
        <Detail label={t`Category`}>{i18n._(categoryLabels[ticket.category])}</Detail>
        <Detail label={t`Department`}>{ticket.department}</Detail>
        <Detail label={t`Floor`}>{ticket.floor}</Detail>
        <Detail label={t`Office Number`}>{ticket.officeNumber}</Detail>
        <Detail label={t`Created by`}>{ticket.createdByName ?? t`Unknown`}</Detail>
        <Detail label={t`Assigned to`}>
          {ticket.assignedToName ?? (ticket.assignedTo ? t`Unknown` : t`Unassigned`)}
        </Detail>
        {team === undefined ? null : <Detail label={t`Team`}>{team}</Detail>}
        <Detail label={t`Created`}>
          <time dateTime={ticket.createdAt}>{formatDateTime(ticket.createdAt)}</time>
        </Detail>
        <Detail label={t`Updated`}>
          <time dateTime={ticket.updatedAt}>{formatDateTime(ticket.updatedAt)}</time>
        </Detail>
      </dl>
    </Card>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2.5">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-right font-medium break-words text-slate-900">{children}</dd>
    </div>
  );
}
