import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { CircleCheck, Inbox, Layers, UserRoundCheck } from "lucide-react";
import { Card } from "#client/components/ui/card.tsx";
import { Notice } from "#client/components/ui/notice.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { Tabs, tabIdFor, tabPanelIdFor } from "#client/components/ui/tabs.tsx";
import { HelpArticlesLink } from "#client/features/articles/components/help-articles-link.tsx";
import { CannedResponsesLink } from "#client/features/canned-responses/components/canned-responses-link.tsx";
import { MacrosLink } from "#client/features/macros/components/macros-link.tsx";
import { ReportsLink } from "#client/features/reports/components/reports-link.tsx";
import { useTeamTabs } from "#client/features/tickets/components/team-tabs.ts";
import { TicketDueCards } from "#client/features/tickets/components/ticket-due-cards.tsx";
import { TicketList } from "#client/features/tickets/components/ticket-list.tsx";
import { useTicketOrder } from "#client/features/tickets/components/ticket-sort.tsx";
import {
  type SummaryCard,
  TicketSummaryCards,
} from "#client/features/tickets/components/ticket-summary-cards.tsx";
import {
  type TechnicianTab,
  technicianTabFrom,
  withTechnicianTab,
} from "#client/features/tickets/technician-tabs.ts";
import { formDoneText, useFormDone } from "#client/lib/form-done.ts";
import { useSearchParams } from "#client/lib/router/router.tsx";
import { useActor } from "#client/lib/use-actor.ts";

const cards: SummaryCard[] = [
  { label: msg`Total Available`, count: "total", icon: Layers, tone: "indigo" },
  { label: msg`Assigned to Me`, count: "assignedToMe", icon: UserRoundCheck, tone: "blue" },
  { label: msg`Unassigned`, count: "unassigned", icon: Inbox, tone: "amber" },
  { label: msg`Resolved`, count: "resolvedByMe", icon: CircleCheck, tone: "green" },
];

const tabs = [
  { value: "visible", label: msg`All Tickets` },
  { value: "mine", label: msg`My Tickets` },
  { value: "unassigned", label: msg`Unassigned` },
] as const satisfies readonly { value: TechnicianTab; label: MessageDescriptor }[];
// The team tabs (decision 073) follow these, for a member of a team only (useTeamTabs).

/** /technician-home: counts and the tickets a technician may work on, by tab (kept in the address). */
export default function TechnicianHomePage() {
  const { t, i18n } = useLingui();
  const actor = useActor();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = technicianTabFrom(searchParams);
  const teamTabs = useTeamTabs(tab);
  const scope = teamTabs.scopeOf(tab);
  const [order, setOrder] = useTicketOrder(true);
  const done = useFormDone();

  return (
    <>
      <PageHeader
        title={t`Technician Dashboard`}
        description={actor ? t`Welcome, ${actor.name}` : undefined}
        actions={
          <>
            <ReportsLink />
            <HelpArticlesLink />
            <CannedResponsesLink />
            <MacrosLink />
          </>
        }
      />
      {/* Signed up with a form posted before the app's code had arrived (decision 065): said here, once. */}
      {done ? (
        <div className="mb-6">
          <Notice>{formDoneText(done)}</Notice>
        </div>
      ) : null}
      <TicketSummaryCards cards={cards} />
      <div className="mt-3 sm:mt-4">
        <TicketDueCards />
      </div>
      <Card className="mt-6">
        <div className="border-b border-slate-100 px-5 py-4">
          <Tabs
            label={t`Filter tickets`}
            idPrefix="technician"
            tabs={[...tabs.map((entry) => ({ ...entry, label: i18n._(entry.label) })), ...teamTabs.tabs]}
            value={scope}
            onChange={(next) =>
              setSearchParams((current) => withTechnicianTab(current, next), { replace: true })
            }
          />
        </div>
        <div role="tabpanel" id={tabPanelIdFor("technician")} aria-labelledby={tabIdFor("technician", scope)}>
          <TicketList
            filters={{ scope, ...order }}
            onSortChange={setOrder}
            showDueSort
            loadErrorMessage={t`Error loading tickets. Please refresh the page.`}
          />
        </div>
      </Card>
    </>
  );
}
