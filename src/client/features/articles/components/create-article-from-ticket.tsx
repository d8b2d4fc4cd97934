import { Trans } from "@lingui/react/macro";
import { BookPlus } from "lucide-react";
import { buttonClass } from "#client/components/ui/button.tsx";
import { Link } from "#client/lib/router/links.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import { can } from "#shared/permissions.ts";
import type { TicketStatus } from "#shared/tickets/ticket.schemas.ts";

/** Decision 030: staff turn a solved ticket into an article, prefilled from it (never its internal notes). */
export function CreateArticleFromTicket({ ticketId, status }: { ticketId: string; status: TicketStatus }) {
  const actor = useActor();
  if (!actor || !can.writeArticles(actor) || (status !== "Resolved" && status !== "Closed")) return null;
  return (
    <Link
      to={`/kb/new?fromTicket=${encodeURIComponent(ticketId)}`}
      className={buttonClass("secondary", "sm", "self-start")}
    >
      <BookPlus aria-hidden="true" className="size-4" /> <Trans>Create article</Trans>
    </Link>
  );
}
