import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, SearchX, UserRoundX } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button, buttonClass } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { Notice } from "#client/components/ui/notice.tsx";
import { PageSpinner } from "#client/components/ui/spinner.tsx";
import { ArticleLinks } from "#client/features/articles/components/article-links.tsx";
import { CreateArticleFromTicket } from "#client/features/articles/components/create-article-from-ticket.tsx";
import { CannedResponsePicker } from "#client/features/canned-responses/components/canned-response-picker.tsx";
import { FollowPanel } from "#client/features/followers/components/follow-button.tsx";
import { ApplyMacroButton } from "#client/features/macros/components/apply-macro-button.tsx";
import { MentionAutocomplete } from "#client/features/mentions/components/mention-autocomplete.tsx";
import { MentionText } from "#client/features/mentions/components/mention-text.tsx";
import { PresenceBar } from "#client/features/presence/components/presence-bar.tsx";
import { useOthersOnTicket } from "#client/features/presence/presence-store.ts";
import { useTicketPresence } from "#client/features/presence/use-ticket-presence.ts";
import { TicketTagControl } from "#client/features/tags/components/ticket-tag-control.tsx";
import { TicketTeamControl } from "#client/features/teams/components/ticket-team-control.tsx";
import { IncidentBanner } from "#client/features/ticket-links/components/incident-banner.tsx";
import { MajorIncidentCard } from "#client/features/ticket-links/components/major-incident-card.tsx";
import { MergedBanner } from "#client/features/ticket-links/components/merged-banner.tsx";
import { TicketLinksPanel } from "#client/features/ticket-links/components/ticket-links-panel.tsx";
import { lostToAnotherTechnician } from "#client/features/tickets/components/assign-to-me-button.tsx";
import { AutoCloseNotice } from "#client/features/tickets/components/auto-close-notice.tsx";
import { TicketEditButtons } from "#client/features/tickets/components/edit-ticket-dialogs.tsx";
import { TicketActions } from "#client/features/tickets/components/ticket-actions.tsx";
import { TicketActivityTimeline } from "#client/features/tickets/components/ticket-activity-timeline.tsx";
import { TicketComments } from "#client/features/tickets/components/ticket-comments.tsx";
import { TicketCustomFields } from "#client/features/tickets/components/ticket-custom-fields.tsx";
import { TicketFacts, TicketOverview } from "#client/features/tickets/components/ticket-details.tsx";
import { TicketFeedback } from "#client/features/tickets/components/ticket-feedback.tsx";
import { TicketHoldNotice } from "#client/features/tickets/components/ticket-hold-badge.tsx";
import { TicketShortcuts } from "#client/features/tickets/components/ticket-shortcuts.tsx";
import { TicketSlaPanel } from "#client/features/tickets/components/ticket-sla.tsx";
import { TicketStatusBadge } from "#client/features/tickets/components/ticket-status-badge.tsx";
import { ticketQuery, useTicketChangeHandlers } from "#client/features/tickets/ticket.api.ts";
import { statusLabels } from "#client/features/tickets/ticket-labels.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { useFormAnswer } from "#client/lib/form-answer.ts";
import { formDoneText, useFormDone } from "#client/lib/form-done.ts";
import { i18n } from "#client/lib/i18n.ts";
import { Link } from "#client/lib/router/links.tsx";
import { useParams } from "#client/lib/router/route-matching.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import { useHydrated } from "#client/lib/use-hydrated.ts";
import { useMediaQuery } from "#client/lib/use-media-query.ts";
import { ticketFormNames } from "#shared/page-rendering/page-forms.ts";
import type { FormAnswer } from "#shared/page-rendering/server-rendered.ts";
import { can } from "#shared/permissions.ts";
import { ticketIdPattern } from "#shared/tickets/ticket.schemas.ts";

/**
 * /tickets/:ticketId: the ticket, what the person may do with it, its comments, feedback and timeline.
 * A ticket the person may not see is "not found", as the server says.
 */
export default function TicketPage() {
  const { t } = useLingui();
  const { ticketId = "" } = useParams();
  const isWellFormed = ticketIdPattern.test(ticketId);
  const query = useQuery({ ...ticketQuery(ticketId), enabled: isWellFormed });
  const actor = useActor();
  // Tailwind's lg breakpoint, where the page becomes two columns. A page drawn on the server (and while the
  // browser takes it over) does not know the width: its actions are where the wide page has them, and CSS
  // order shows them under the ticket on a narrow one, so that nothing moves under a first press once the
  // code knows (useHydrated) and puts them there in the DOM, for the Tab order.
  const wide = useMediaQuery("(min-width: 1024px)");
  const isHydrated = useHydrated();
  // Why the server refused the last action (e.g. another technician won Assign to Me). The ticket is
  // read again after a refusal, so the page shows what won; this says why. A status or assignment form
  // posted without the app's code comes back drawn with the API's answer (decision 065), said the same way.
  const statusAnswer = useFormAnswer(ticketFormNames.status);
  const assignAnswer = useFormAnswer(ticketFormNames.assign);
  const [lastRefusal, setLastRefusal] = useState<{ ticketId: string; message: string } | null>(() => {
    const message = refusalOf(statusAnswer, assignAnswer);
    return message ? { ticketId, message } : null;
  });
  const done = useFormDone();
  // Who else is on the ticket, and telling them this person is (decision 072): staff who may see it.
  const sharesPresence = Boolean(actor && query.data && can.sharePresence(actor, query.data));
  const { reportDraft } = useTicketPresence(ticketId, sharesPresence);
  const othersOnTicket = useOthersOnTicket(ticketId, actor?.id);
  // The page stays mounted when a link opens another ticket: a refusal belongs to its own ticket.
  const refusal = lastRefusal?.ticketId === ticketId ? lastRefusal.message : null;
  const handleOutcome = (message: string | null) => setLastRefusal(message ? { ticketId, message } : null);
  const ticketChanges = useTicketChangeHandlers(ticketId);

  let content: ReactNode;
  if (!isWellFormed || isApiError(query.error, 404)) {
    content = refusal ? (
      // The race's loser may no longer see the ticket: it now belongs to the technician who won.
      <Card>
        <EmptyState
          icon={UserRoundX}
          titleAs="h1"
          title={refusal}
          description={t`It is no longer in your list: only its assignee, its creator and administrators can open it now.`}
          action={<ViewTicketsLink />}
        />
      </Card>
    ) : (
      <Card>
        <EmptyState
          icon={SearchX}
          titleAs="h1"
          title={t`Ticket not found`}
          description={t`There is no ticket ${ticketId} you can see.`}
          action={<ViewTicketsLink />}
        />
      </Card>
    );
  } else if (query.isPending) {
    content = <PageSpinner label={t`Loading ticket`} />;
  } else if (query.isError && !query.data) {
    content = (
      <Card>
        <EmptyState
          icon={SearchX}
          title={t`The ticket could not be loaded`}
          description={query.error.message}
          action={
            <Button variant="secondary" onClick={() => void query.refetch()}>
              <Trans>Try again</Trans>
            </Button>
          }
        />
      </Card>
    );
  } else {
    const ticket = query.data!;
    const actions = (place: "narrow" | "wide") =>
      (isHydrated ? wide : true) === (place === "wide") ? (
        <div className={isHydrated ? "empty:hidden" : "empty:hidden max-lg:-order-1"}>
          <TicketActions ticket={ticket} onOutcome={handleOutcome} />
        </div>
      ) : null;
    content = (
      <div className="flex flex-col gap-6">
        {sharesPresence ? <PresenceBar people={othersOnTicket} /> : null}
        {refusal ? <Alert>{refusal}</Alert> : null}
        {ticket.mergedIntoId ? <MergedBanner ticket={ticket} /> : null}
        <IncidentBanner ticketId={ticket.ticketId} />
        {done ? <Notice>{formDoneText(done, i18n._(statusLabels[ticket.status]))}</Notice> : null}
        {/*
          Wide: the ticket and its conversation on the left, the actions and facts on the right. Narrow: one
          column, the actions right under the ticket. The actions move in the DOM, not by CSS order, so Tab
          follows what is seen at every width (decision 036); the rest keeps its place in the tree, so a
          comment being written survives a rotation across the breakpoint.
        */}
        <div className="flex flex-col gap-6 lg:grid lg:grid-cols-3 lg:items-start">
          <div className="contents lg:flex lg:min-w-0 lg:flex-col lg:gap-6 lg:col-span-2">
            <div className={isHydrated ? "flex flex-col gap-3" : "flex flex-col gap-3 max-lg:-order-2"}>
              <TicketOverview ticket={ticket} />
              <TicketEditButtons ticket={ticket} />
              <CreateArticleFromTicket ticketId={ticket.ticketId} status={ticket.status} />
            </div>
            {actions("narrow")}
            <div className="flex flex-col gap-3 empty:hidden">
              <TicketHoldNotice ticket={ticket} />
              <AutoCloseNotice ticket={ticket} />
              <TicketFeedback ticket={ticket} />
            </div>
            <div>
              <TicketComments
                ticket={ticket}
                renderMessage={(message) => (
                  <ArticleLinks text={message} renderText={(text) => <MentionText message={text} />} />
                )}
                textareaAddon={
                  actor && can.mention(actor) ? (props) => <MentionAutocomplete {...props} /> : undefined
                }
                commentTools={(editor) => (
                  <>
                    <CannedResponsePicker ticket={ticket} editor={editor} />
                    {actor && can.accessMacros(actor) ? (
                      <ApplyMacroButton ticketId={ticket.ticketId} {...ticketChanges} />
                    ) : null}
                  </>
                )}
                onDraftChange={sharesPresence ? reportDraft : undefined}
              />
            </div>
          </div>
          <div className="contents lg:flex lg:min-w-0 lg:flex-col lg:gap-6">
            {actions("wide")}
            <div className="empty:hidden">
              <FollowPanel ticketId={ticket.ticketId} />
            </div>
            {ticket.sla ? (
              <div>
                <TicketSlaPanel sla={ticket.sla} />
              </div>
            ) : null}
            <div>
              <TicketFacts
                ticket={ticket}
                team={
                  actor && can.seeTeams(actor) ? (
                    <TicketTeamControl actor={actor} ticket={ticket} {...ticketChanges} />
                  ) : undefined
                }
              />
            </div>
            {actor && can.seeTags(actor) ? (
              <div>
                <TicketTagControl actor={actor} ticket={ticket} {...ticketChanges} />
              </div>
            ) : null}
            {actor && can.seeInternal(actor) ? (
              <div className="empty:hidden">
                <MajorIncidentCard
                  actor={actor}
                  ticket={ticket}
                  renderStatus={(status) => <TicketStatusBadge status={status} />}
                />
              </div>
            ) : null}
            {actor && can.seeInternal(actor) ? (
              <div>
                <TicketLinksPanel
                  actor={actor}
                  ticket={ticket}
                  renderStatus={(status) => <TicketStatusBadge status={status} />}
                  {...ticketChanges}
                />
              </div>
            ) : null}
            <div className="empty:hidden">
              <TicketCustomFields ticket={ticket} />
            </div>
            <div>
              <TicketActivityTimeline ticketId={ticket.ticketId} />
            </div>
          </div>
        </div>
      </div>
    );
  }

  return (
    <>
      <title>{`${query.data?.title ?? ticketId} · Helpdesk`}</title>
      <Link
        to="/tickets"
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-900"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        <Trans>Back to tickets</Trans>
      </Link>
      {isWellFormed ? (
        <TicketShortcuts
          ticketId={ticketId}
          ticket={query.data ?? null}
          isLoading={query.isPending}
          onOutcome={handleOutcome}
        />
      ) : null}
      {content}
    </>
  );
}

/** A refused status or assignment form's answer, as the app says a refusal of the same action. */
function refusalOf(statusAnswer: FormAnswer | null, assignAnswer: FormAnswer | null): string | null {
  if (statusAnswer) return `${tc`Failed to update ticket status`}: ${statusAnswer.message}`;
  if (assignAnswer) {
    return assignAnswer.status === 404
      ? lostToAnotherTechnician
      : `${tc`Failed to assign ticket`}: ${assignAnswer.message}`;
  }
  return null;
}

function ViewTicketsLink() {
  return (
    <Link to="/tickets" className={buttonClass("secondary")}>
      <Trans>View tickets</Trans>
    </Link>
  );
}
