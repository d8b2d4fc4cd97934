import type { ReactNode } from "react";
import { Link } from "#client/lib/router/links.tsx";
import type { TicketStatus } from "#shared/tickets/ticket.schemas.ts";

/**
 * Another ticket as the links panel and the major incident's card list it (decisions 074, 077): what it is
 * to this one (when said), its id and title as a link, and its status.
 */
export function LinkedTicketLine({
  label,
  ticketId,
  title,
  status,
  renderStatus,
}: {
  label?: ReactNode;
  ticketId: string;
  title: string;
  status: TicketStatus;
  renderStatus: (status: TicketStatus) => ReactNode;
}) {
  return (
    <div className="min-w-0 flex-1">
      {label ? <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</p> : null}
      <Link
        to={`/tickets/${ticketId}`}
        className="block break-words text-sm font-medium text-indigo-700 hover:underline"
      >
        <span className="font-mono text-xs">{ticketId}</span> {title}
      </Link>
      <div className="mt-1">{renderStatus(status)}</div>
    </div>
  );
}
