import { Trans, useLingui } from "@lingui/react/macro";
import { Inbox, Plus } from "lucide-react";
import { lazy, Suspense, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { HelpArticlesLink } from "#client/features/articles/components/help-articles-link.tsx";
import { useDepartmentNames } from "#client/features/settings/settings.api.ts";
import { TicketList } from "#client/features/tickets/components/ticket-list.tsx";
import { useTicketOrder } from "#client/features/tickets/components/ticket-sort.tsx";
import {
  statusCountCards,
  TicketSummaryCards,
} from "#client/features/tickets/components/ticket-summary-cards.tsx";
import { focusCreatedTicket } from "#client/lib/focus.ts";
import { useActor } from "#client/lib/use-actor.ts";

// The form (react-hook-form, zod, the article suggestions) loads when opened, not with the page (decision 031).
const CreateTicketForm = lazy(() =>
  import("#client/features/tickets/components/create-ticket-form.tsx").then((module) => ({
    default: module.CreateTicketForm,
  })),
);
const ArticleSuggestions = lazy(() =>
  import("#client/features/articles/components/article-suggestions.tsx").then((module) => ({
    default: module.ArticleSuggestions,
  })),
);

/**
 * /user-home: counts of the tickets the person raised, those tickets, and the Create New Ticket form.
 * Scoped to "created", so an administrator who opens it sees their own tickets, not everyone's.
 */
export default function UserHomePage() {
  const { t } = useLingui();
  const actor = useActor();
  const formId = useId();
  const [isFormOpen, setIsFormOpen] = useState(false);
  const departments = useDepartmentNames(isFormOpen);
  const [order, setOrder] = useTicketOrder(false);

  return (
    <>
      <PageHeader
        title={t`My Dashboard`}
        description={actor ? t`Welcome, ${actor.name}` : undefined}
        actions={
          <>
            <HelpArticlesLink />
            <Button
              variant={isFormOpen ? "secondary" : "primary"}
              aria-expanded={isFormOpen}
              aria-controls={formId}
              onClick={() => setIsFormOpen((open) => !open)}
            >
              {isFormOpen ? null : <Plus aria-hidden="true" className="size-4" />}
              {isFormOpen ? t`Hide Form` : t`Create New Ticket`}
            </Button>
          </>
        }
      />
      <TicketSummaryCards cards={statusCountCards} scope="created" />
      <div id={formId} className={isFormOpen ? "mt-6" : undefined}>
        {isFormOpen ? (
          <Suspense fallback={<Spinner label={t`Loading the form`} />}>
            <CreateTicketForm
              departments={departments}
              titleAssist={(props) => (
                <Suspense fallback={null}>
                  <ArticleSuggestions {...props} />
                </Suspense>
              )}
              onCreated={(ticket) => {
                setIsFormOpen(false);
                focusCreatedTicket(ticket.ticketId, formId);
              }}
              onCancel={() => setIsFormOpen(false)}
            />
          </Suspense>
        ) : null}
      </div>
      <Card className="mt-6">
        <h2 className="border-b border-slate-100 px-5 py-4 text-base font-semibold text-slate-900">
          <Trans>My Support Tickets</Trans>
        </h2>
        <TicketList
          filters={{ scope: "created", ...order }}
          onSortChange={setOrder}
          emptyState={
            <EmptyState
              icon={Inbox}
              title={t`No tickets yet`}
              description={t`When something is not working, raise a ticket and a technician will pick it up.`}
              action={
                isFormOpen ? null : (
                  <Button onClick={() => setIsFormOpen(true)}>
                    <Plus aria-hidden="true" className="size-4" />
                    <Trans>Create Your First Ticket</Trans>
                  </Button>
                )
              }
            />
          }
        />
      </Card>
    </>
  );
}
