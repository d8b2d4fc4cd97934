import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { GitMerge } from "lucide-react";
import { otherTicketQuery } from "#client/features/ticket-links/ticket-links.api.ts";
import { Link } from "#client/lib/router/links.tsx";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";

/**
 * A merged ticket's pointer (decision 074), for everyone who may see it: "Merged into TKT…", a link when
 * the reader may open that ticket, and otherwise its number only (a requester is given no sight of another
 * person's ticket).
 */
export function MergedBanner({ ticket }: { ticket: Ticket }) {
  const targetId = ticket.mergedIntoId;
  const target = useQuery({ ...otherTicketQuery(targetId ?? ""), enabled: targetId !== null });
  if (targetId === null) return null;
  return (
    <div className="flex gap-2 rounded-lg border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-900">
      <GitMerge aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 break-words">
        {target.data ? (
          <p>
            <Trans>
              Merged into{" "}
              <Link to={`/tickets/${targetId}`} className="font-medium underline hover:no-underline">
                {targetId} · {target.data.title}
              </Link>
              . The conversation continues there.
            </Trans>
          </p>
        ) : (
          <p>
            <Trans>
              Merged into <span className="font-mono font-medium">{targetId}</span>. The team continues the
              conversation on that ticket.
            </Trans>
          </p>
        )}
      </div>
    </div>
  );
}
