import { Trans, useLingui } from "@lingui/react/macro";
import { Inbox, Plus } from "lucide-react";
import { type ComponentProps, lazy, Suspense, useEffect, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { Notice } from "#client/components/ui/notice.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { HelpArticlesLink } from "#client/features/articles/components/help-articles-link.tsx";
import { KnownIssuesNotice } from "#client/features/known-issues/components/known-issues-notice.tsx";
import { useDepartmentNames } from "#client/features/settings/settings.api.ts";
import { TicketList } from "#client/features/tickets/components/ticket-list.tsx";
import { useTicketOrder } from "#client/features/tickets/components/ticket-sort.tsx";
import {
  statusCountCards,
  TicketSummaryCards,
} from "#client/features/tickets/components/ticket-summary-cards.tsx";
import { focusCreatedTicket } from "#client/lib/focus.ts";
import { useFormAnswer } from "#client/lib/form-answer.ts";
import { formDoneText, useFormDone } from "#client/lib/form-done.ts";
import { useSearchParams } from "#client/lib/router/router.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import { formDoneParam, ticketFormNames } from "#shared/page-rendering/page-forms.ts";

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

/** The page's address with the form open: what the toggle asks for without the app's code. */
const newTicketParam = "new-ticket";

/**
 * /user-home: counts of the tickets the person raised, those tickets, and the Create New Ticket form.
 * Scoped to "created", so an administrator who opens it sees their own tickets, not everyone's.
 * Without the app's code (or before it), the form opens by asking for `?new-ticket`, which the server
 * draws with the form open, and posts to the server, which creates the ticket through the same API
 * (decision 065) and comes back here saying so (`?done=ticket-created`), or draws the form again with
 * the API's messages.
 */
export default function UserHomePage() {
  const { t } = useLingui();
  const actor = useActor();
  const formId = useId();
  const toggleFormId = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  // Read here, once, and handed to the form: the form's code arrives later than the page's.
  const answer = useFormAnswer(ticketFormNames.createTicket);
  const [isFormOpen, setIsFormOpen] = useState(() => answer !== null || searchParams.has(newTicketParam));
  // Closed with the app's code: the address no longer asks for it open, so that a reload does not open it.
  const asksOpen = searchParams.has(newTicketParam);
  useEffect(() => {
    if (isFormOpen || !asksOpen) return;
    setSearchParams(
      (current) => {
        current.delete(newTicketParam);
        return current;
      },
      { replace: true },
    );
  }, [isFormOpen, asksOpen, setSearchParams]);
  const departments = useDepartmentNames(isFormOpen);
  const [order, setOrder] = useTicketOrder(false);
  const done = useFormDone();

  return (
    <>
      <PageHeader
        title={t`My Dashboard`}
        description={actor ? t`Welcome, ${actor.name}` : undefined}
        actions={
          <>
            <HelpArticlesLink />
            <FormToggle
              id={toggleFormId}
              opens={!isFormOpen}
              variant={isFormOpen ? "secondary" : "primary"}
              aria-expanded={isFormOpen}
              aria-controls={formId}
              onClick={() => setIsFormOpen((open) => !open)}
            >
              {isFormOpen ? null : <Plus aria-hidden="true" className="size-4" />}
              {isFormOpen ? t`Hide Form` : t`Create New Ticket`}
            </FormToggle>
          </>
        }
      />
      {done ? (
        <div className="mb-6">
          <Notice>{formDoneText(done)}</Notice>
        </div>
      ) : null}
      <TicketSummaryCards cards={statusCountCards} scope="created" />
      <div id={formId} className={isFormOpen ? "mt-6" : undefined}>
        {isFormOpen ? (
          <Suspense fallback={<Spinner label={t`Loading the form`} />}>
            <CreateTicketForm
              answer={answer}
              closeForm={toggleFormId}
              departments={departments}
              titleAssist={(props) => (
                <>
                  <KnownIssuesNotice />
                  <Suspense fallback={null}>
                    <ArticleSuggestions {...props} />
                  </Suspense>
                </>
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
                  <FormToggle opens onClick={() => setIsFormOpen(true)}>
                    <Plus aria-hidden="true" className="size-4" />
                    <Trans>Create Your First Ticket</Trans>
                  </FormToggle>
                )
              }
            />
          }
        />
      </Card>
    </>
  );
}

/**
 * A button that opens or closes the Create New Ticket form: with the app's code, at once, on the page; without
 * it (or before it), as a form that asks for this page with the form open (`?new-ticket`) or closed,
 * keeping the page's other parameters (the list's order).
 */
function FormToggle({
  id,
  opens,
  onClick,
  ...button
}: { opens: boolean; onClick: () => void } & Omit<ComponentProps<typeof Button>, "onClick" | "type">) {
  const [searchParams] = useSearchParams();
  const kept = [...searchParams].filter(([name]) => name !== newTicketParam && name !== formDoneParam);
  return (
    <form id={id} method="get" className="contents">
      {kept.map(([name, value]) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
      ))}
      {opens ? <input type="hidden" name={newTicketParam} value="" /> : null}
      <Button
        {...button}
        type="submit"
        onClick={(event) => {
          event.preventDefault();
          onClick();
        }}
      />
    </form>
  );
}
