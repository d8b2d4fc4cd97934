import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, SearchX } from "lucide-react";
import { Link, useParams } from "react-router";
import { ticketIdPattern } from "#shared/tickets/ticket.schemas.ts";
import { Button, buttonClass } from "../components/ui/button.tsx";
import { Card } from "../components/ui/card.tsx";
import { EmptyState } from "../components/ui/empty-state.tsx";
import { PageSpinner } from "../components/ui/spinner.tsx";
import { TicketDetails } from "../features/tickets/components/ticket-details.tsx";
import { ticketQuery } from "../features/tickets/ticket.api.ts";
import { isApiError } from "../lib/api-client.ts";

/** /tickets/:ticketId, read-only. A ticket the person may not see is "not found", as the server says. */
export default function TicketPage() {
  const { ticketId = "" } = useParams();
  const isWellFormed = ticketIdPattern.test(ticketId);
  const query = useQuery({ ...ticketQuery(ticketId), enabled: isWellFormed });

  return (
    <>
      <title>{`${query.data?.title ?? ticketId} · Helpdesk`}</title>
      <Link
        to="/tickets"
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-900"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to tickets
      </Link>
      {!isWellFormed || isApiError(query.error, 404) ? (
        <Card>
          <EmptyState
            icon={SearchX}
            titleAs="h1"
            title="Ticket not found"
            description={`There is no ticket ${ticketId} you can see.`}
            action={
              <Link to="/tickets" className={buttonClass("secondary")}>
                View tickets
              </Link>
            }
          />
        </Card>
      ) : query.isPending ? (
        <PageSpinner label="Loading ticket" />
      ) : query.isError ? (
        <Card>
          <EmptyState
            icon={SearchX}
            title="The ticket could not be loaded"
            description={query.error.message}
            action={
              <Button variant="secondary" onClick={() => void query.refetch()}>
                Try again
              </Button>
            }
          />
        </Card>
      ) : (
        <TicketDetails ticket={query.data} />
      )}
    </>
  );
}
