import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Download, Plus, SearchX } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { Button, buttonClass } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { Tabs, tabIdFor, tabPanelIdFor } from "#client/components/ui/tabs.tsx";
import { ArticleSuggestions } from "#client/features/articles/components/article-suggestions.tsx";
import { KnownIssuesNotice } from "#client/features/known-issues/components/known-issues-notice.tsx";
import { useDepartmentNames } from "#client/features/settings/settings.api.ts";
import { tagSuggestionsQuery } from "#client/features/tags/tags.api.ts";
import { teamListQuery } from "#client/features/teams/teams.api.ts";
import { CreateTicketForm } from "#client/features/tickets/components/create-ticket-form.tsx";
import {
  CustomFieldFilters,
  customFieldFiltersFrom,
  withCustomFieldFilter,
} from "#client/features/tickets/components/custom-field-filters.tsx";
import { useTeamTabs } from "#client/features/tickets/components/team-tabs.ts";
import {
  isFiltered,
  onHoldOf,
  TicketFilters,
  type TicketSearch,
  ticketSearchFrom,
  withTicketSearch,
} from "#client/features/tickets/components/ticket-filters.tsx";
import { TicketList } from "#client/features/tickets/components/ticket-list.tsx";
import { ticketOrderLabel, useTicketOrder } from "#client/features/tickets/components/ticket-sort.tsx";
import {
  type TicketsPageTab,
  ticketsPageTabFrom,
  withTechnicianTab,
} from "#client/features/tickets/technician-tabs.ts";
import { type TicketListFilters, ticketExportPath } from "#client/features/tickets/ticket.api.ts";
import { ViewsMenu } from "#client/features/views/components/views-menu.tsx";
import { focusCreatedTicket } from "#client/lib/focus.ts";
import { useSearchParams } from "#client/lib/router/router.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import { can } from "#shared/permissions.ts";
import type { Role } from "#shared/users/roles.ts";

/** The title says whose tickets these are. */
const titles: Record<Role, MessageDescriptor> = {
  admin: msg`All Tickets`,
  technician: msg`Available & Assigned Tickets`,
  user: msg`My Tickets`,
};

/** /tickets: every ticket the person may see, searchable and filtered; only users get the create button. */
export default function TicketsPage() {
  const { t, i18n } = useLingui();
  const actor = useActor();
  const formId = useId();
  const [isFormOpen, setIsFormOpen] = useState(false);
  const departments = useDepartmentNames(isFormOpen);
  const [searchParams, setSearchParams] = useSearchParams();
  const search = ticketSearchFrom(searchParams);
  const customFilters = customFieldFiltersFrom(searchParams);
  const canOpenForm = actor?.role === "user";
  const canSeeDue = actor ? can.seeServiceLevels(actor) : false;
  const [order, setOrder] = useTicketOrder(canSeeDue);
  // Decision 073: a member of a team also has its two tabs here; everyone else sees the page as before.
  const tab = ticketsPageTabFrom(searchParams);
  const teamTabs = useTeamTabs(tab);
  const scope = teamTabs.scopeOf(tab);
  // Decision 071: staff filter by the tags in use (most used first).
  const canSeeTags = actor ? can.seeTags(actor) : false;
  const tagSuggestions = useQuery({ ...tagSuggestionsQuery(), enabled: canSeeTags });
  // An administrator may share a saved view with a team (decision 071).
  const teams = useQuery({ ...teamListQuery(), enabled: actor ? can.shareViews(actor) : false });

  // The filters' Clear button sends every field empty: the custom field filters go with them.
  const handleSearchChange = (change: Partial<TicketSearch>) =>
    setSearchParams(
      (current) => {
        const next = withTicketSearch(current, change);
        const clearsAll = ["q", "status", "priority", "category"].every(
          (key) => key in change && !change[key as keyof TicketSearch],
        );
        if (clearsAll) next.delete("cf");
        return next;
      },
      { replace: true },
    );
  const handleClearFilters = () =>
    handleSearchChange({
      q: "",
      status: undefined,
      priority: undefined,
      category: undefined,
      due: undefined,
      onHold: undefined,
      team: undefined,
      tag: undefined,
    });

  const filters: TicketListFilters = {
    scope,
    status: search.status,
    priority: search.priority,
    category: search.category,
    q: search.q.trim() || undefined,
    ...(customFilters.length > 0 ? { cf: customFilters } : {}),
    ...(canSeeDue ? { due: search.due } : {}),
    ...(search.onHold ? { onHold: onHoldOf(search) } : {}),
    ...(search.team ? { team: search.team } : {}),
    ...(canSeeTags && search.tag ? { tag: search.tag } : {}),
    ...order,
  };

  return (
    <>
      <PageHeader
        title={i18n._(titles[actor?.role ?? "user"])}
        description={`${ticketOrderLabel(order)}.`}
        actions={
          <>
            {/* A plain link: the browser saves the streamed file itself, however many tickets match. */}
            <a href={ticketExportPath(filters)} download className={buttonClass("secondary")}>
              <Download aria-hidden="true" className="size-4" />
              <Trans>Export CSV</Trans>
            </a>
            {canOpenForm ? (
              <Button
                variant={isFormOpen ? "secondary" : "primary"}
                aria-expanded={isFormOpen}
                aria-controls={formId}
                onClick={() => setIsFormOpen((open) => !open)}
              >
                {isFormOpen ? null : <Plus aria-hidden="true" className="size-4" />}
                {isFormOpen ? t`Hide Form` : t`Create New Ticket`}
              </Button>
            ) : null}
          </>
        }
      />
      <div id={formId} className={isFormOpen ? "mb-6" : undefined}>
        {canOpenForm && isFormOpen ? (
          <CreateTicketForm
            departments={departments}
            titleAssist={(props) => (
              <>
                <KnownIssuesNotice />
                <ArticleSuggestions {...props} />
              </>
            )}
            onCreated={(ticket) => {
              setIsFormOpen(false);
              focusCreatedTicket(ticket.ticketId, formId);
            }}
            onCancel={() => setIsFormOpen(false)}
          />
        ) : null}
      </div>
      <Card>
        <TeamTabsBar teamTabs={teamTabs} scope={scope} />
        <div className="border-b border-slate-100 px-5 py-4">
          <TicketFilters
            value={search}
            onChange={handleSearchChange}
            showDue={canSeeDue}
            tags={canSeeTags ? (tagSuggestions.data?.items ?? []).map((item) => item.tag) : undefined}
            moreActive={customFilters.length}
            teams={teamTabs.teams}
            views={
              actor ? (
                <ViewsMenu
                  actor={actor}
                  query={searchParams.toString()}
                  onOpen={(query) => setSearchParams(new URLSearchParams(query))}
                  teams={teams.data}
                />
              ) : undefined
            }
            more={
              <CustomFieldFilters
                value={customFilters}
                onChange={(fieldId, value) =>
                  setSearchParams((current) => withCustomFieldFilter(current, fieldId, value), {
                    replace: true,
                  })
                }
              />
            }
          />
        </div>
        <TeamTabPanel isTabbed={teamTabs.tabs.length > 0} scope={scope}>
          <TicketList
            loadErrorMessage={t`Failed to fetch tickets`}
            filters={filters}
            onSortChange={setOrder}
            showDueSort={canSeeDue}
            emptyState={
              isFiltered(search) || customFilters.length > 0 ? (
                <EmptyState
                  icon={SearchX}
                  title={t`No tickets match`}
                  description={t`Try other words or fewer filters.`}
                  action={
                    <Button variant="secondary" onClick={handleClearFilters}>
                      <Trans>Clear filters</Trans>
                    </Button>
                  }
                />
              ) : undefined
            }
          />
        </TeamTabPanel>
      </Card>
    </>
  );
}

/** Decision 073: All Tickets and the team tabs, in the address, for a member of a team; else nothing. */
function TeamTabsBar({
  teamTabs,
  scope,
}: {
  teamTabs: ReturnType<typeof useTeamTabs>;
  scope: TicketsPageTab;
}) {
  const { t } = useLingui();
  const [, setSearchParams] = useSearchParams();
  if (teamTabs.tabs.length === 0) return null;
  return (
    <div className="border-b border-slate-100 px-5 pt-4 pb-3">
      <Tabs
        label={t`Filter tickets`}
        idPrefix="tickets"
        tabs={[{ value: "visible" as const, label: t`All Tickets` }, ...teamTabs.tabs]}
        value={scope}
        onChange={(next) => setSearchParams((current) => withTechnicianTab(current, next), { replace: true })}
      />
    </div>
  );
}

/** The list as the team tabs' panel when they are shown; as it was otherwise. */
function TeamTabPanel({
  isTabbed,
  scope,
  children,
}: {
  isTabbed: boolean;
  scope: string;
  children: ReactNode;
}) {
  if (!isTabbed) return children;
  return (
    <div role="tabpanel" id={tabPanelIdFor("tickets")} aria-labelledby={tabIdFor("tickets", scope)}>
      {children}
    </div>
  );
}
