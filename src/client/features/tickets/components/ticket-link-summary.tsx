import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Link } from "#client/lib/router/links.tsx";
import type { TicketEvent } from "#shared/tickets/ticket-activity.schemas.ts";

/**
 * Links and merges (decision 074), each naming the other ticket. The staff-only entries link to it; a
 * requester sees only "merged" (their ticket went into another), which names the target by its number: the
 * merged banner links to it when they may open it.
 */
export function LinkSummary({ event }: { event: TicketEvent }): ReactNode {
  const id = event.linkedTicketId ?? "";
  const other = (
    <Link to={`/tickets/${id}`} className="font-medium text-indigo-700 hover:underline">
      {id}
    </Link>
  );
  // The banner above links to the target when the reader may open it; here its number is enough.
  if (event.type === "merged") {
    const target = <span className="font-medium font-mono text-slate-900">{id}</span>;
    return <Trans>merged it into {target}</Trans>;
  }
  if (event.type === "merged_in") return <Trans>merged {other} into it</Trans>;
  if (event.type === "unlinked") return <Trans>removed the link to {other}</Trans>;
  switch (event.linkRelation) {
    case "duplicate_of":
      return <Trans>marked it a duplicate of {other}</Trans>;
    case "has_duplicate":
      return <Trans>marked {other} a duplicate of it</Trans>;
    case "parent":
      return <Trans>made {other} its parent</Trans>;
    case "child":
      return <Trans>made {other} its child</Trans>;
    // Decision 077: a major incident's affected tickets.
    case "affected_by":
      return <Trans>marked it affected by the major incident {other}</Trans>;
    case "affects":
      return <Trans>marked {other} affected by this major incident</Trans>;
    default:
      return <Trans>linked it to {other} as related</Trans>;
  }
}
