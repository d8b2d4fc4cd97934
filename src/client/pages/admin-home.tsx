import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Lock, Settings, UsersRound, Workflow } from "lucide-react";
import { buttonClass } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { Tabs, tabIdFor, tabPanelIdFor } from "#client/components/ui/tabs.tsx";
import { HelpArticlesLink } from "#client/features/articles/components/help-articles-link.tsx";
import { CannedResponsesLink } from "#client/features/canned-responses/components/canned-responses-link.tsx";
import { MacrosLink } from "#client/features/macros/components/macros-link.tsx";
import { ReportsLink } from "#client/features/reports/components/reports-link.tsx";
import { TeamOpenCounts } from "#client/features/tickets/components/team-open-counts.tsx";
import { TicketDueCards } from "#client/features/tickets/components/ticket-due-cards.tsx";
import { TicketList } from "#client/features/tickets/components/ticket-list.tsx";
import { useTicketOrder } from "#client/features/tickets/components/ticket-sort.tsx";
import {
  type SummaryCard,
  statusCountCards,
  TicketSummaryCards,
} from "#client/features/tickets/components/ticket-summary-cards.tsx";
import { UserDirectory } from "#client/features/users/components/user-directory.tsx";
import {
  overviewCountCards,
  UserSummaryCards,
} from "#client/features/users/components/user-summary-cards.tsx";
import { Link } from "#client/lib/router/links.tsx";
import { useSearchParams } from "#client/lib/router/router.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import type { TicketStatus } from "#shared/tickets/ticket.schemas.ts";

const cards: readonly SummaryCard[] = [
  ...statusCountCards,
  { label: msg`Closed`, count: "closed", icon: Lock, tone: "slate" },
];

const sections = [
  { value: "overview", label: msg`Overview` },
  { value: "tickets", label: msg`All Tickets` },
  { value: "users", label: msg`User Management` },
] as const;
type Section = (typeof sections)[number]["value"];

/**
 * The All Tickets tab filters by All, Open, In Progress and Resolved, then Closed: an
 * administrator is the one who looks back at closed tickets (the Overview counts them too).
 */
const statusFilters = [
  { value: "All", label: msg`All` },
  { value: "Open", label: msg`Open` },
  { value: "In Progress", label: msg`In Progress` },
  { value: "Resolved", label: msg`Resolved` },
  { value: "Closed", label: msg`Closed` },
] as const satisfies readonly { value: TicketStatus | "All"; label: MessageDescriptor }[];
type StatusFilter = (typeof statusFilters)[number]["value"];

const pick = <T extends string>(values: readonly { value: T }[], raw: string | null, fallback: T) =>
  values.find((entry) => entry.value === raw)?.value ?? fallback;

/** /admin-home: Overview, All Tickets and User Management, the tab and filter kept in the URL. */
export default function AdminHomePage() {
  const { t, i18n } = useLingui();
  const actor = useActor();
  const [searchParams, setSearchParams] = useSearchParams();
  const section = pick(sections, searchParams.get("tab"), "overview");
  const status = pick(statusFilters, searchParams.get("status"), "All");
  const [order, setOrder] = useTicketOrder(true);

  const show = (next: { tab?: Section; status?: StatusFilter }) =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        const tab = next.tab ?? section;
        const nextStatus = next.status ?? status;
        params.set("tab", tab);
        if (tab === "tickets" && nextStatus !== "All") params.set("status", nextStatus);
        else params.delete("status");
        return params;
      },
      { replace: true },
    );

  return (
    <>
      <PageHeader
        title={t`Admin Dashboard`}
        description={actor ? t`Welcome, ${actor.name}` : undefined}
        actions={
          <>
            <HelpArticlesLink />
            <CannedResponsesLink />
            <MacrosLink />
            <ReportsLink />
            <Link to="/admin/teams" className={buttonClass("secondary", "sm")}>
              <UsersRound aria-hidden="true" className="size-4" />
              <Trans>Teams</Trans>
            </Link>
            <Link to="/admin/automation" className={buttonClass("secondary", "sm")}>
              <Workflow aria-hidden="true" className="size-4" />
              <Trans>Automation rules</Trans>
            </Link>
            <Link to="/admin/settings" className={buttonClass("secondary", "sm")}>
              <Settings aria-hidden="true" className="size-4" />
              <Trans>Settings</Trans>
            </Link>
          </>
        }
      />
      <div className="mb-6">
        <Tabs
          label={t`Admin sections`}
          idPrefix="admin"
          tabs={sections.map((tab) => ({ ...tab, label: i18n._(tab.label) }))}
          value={section}
          onChange={(tab) => show({ tab })}
        />
      </div>
      <div role="tabpanel" id={tabPanelIdFor("admin")} aria-labelledby={tabIdFor("admin", section)}>
        {section === "overview" ? <Overview onShowTickets={() => show({ tab: "tickets" })} /> : null}
        {section === "tickets" ? (
          <Card>
            <div className="border-b border-slate-100 px-5 py-4">
              <Tabs
                label={t`Filter by status`}
                idPrefix="admin-status"
                tabs={statusFilters.map((filter) => ({ ...filter, label: i18n._(filter.label) }))}
                value={status}
                onChange={(next) => show({ status: next })}
              />
            </div>
            <div
              role="tabpanel"
              id={tabPanelIdFor("admin-status")}
              aria-labelledby={tabIdFor("admin-status", status)}
            >
              <TicketList
                filters={{ scope: "visible", status: status === "All" ? undefined : status, ...order }}
                onSortChange={setOrder}
                showDueSort
              />
            </div>
          </Card>
        ) : null}
        {section === "users" ? <UserManagementTab /> : null}
      </div>
    </>
  );
}

function Overview({ onShowTickets }: { onShowTickets: () => void }) {
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="admin-ticket-counts" className="flex flex-col gap-3">
        <div className="flex items-baseline justify-between gap-4">
          <h2 id="admin-ticket-counts" className="text-base font-semibold text-slate-900">
            <Trans>Tickets</Trans>
          </h2>
          <button
            type="button"
            onClick={onShowTickets}
            className="rounded text-sm font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <Trans>View all tickets</Trans>
          </button>
        </div>
        <TicketSummaryCards cards={cards} />
        <TicketDueCards />
      </section>
      <TeamOpenCounts />
      <section aria-labelledby="admin-user-counts" className="flex flex-col gap-3">
        <h2 id="admin-user-counts" className="text-base font-semibold text-slate-900">
          <Trans>Users</Trans>
        </h2>
        <UserSummaryCards cards={overviewCountCards} />
      </section>
    </div>
  );
}

function UserManagementTab() {
  return (
    <Card>
      <div className="flex flex-col gap-3 border-b border-slate-100 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
        <h2 className="text-base font-semibold text-slate-900">
          <Trans>Users</Trans>
        </h2>
        <Link to="/admin/user-management" className={buttonClass("secondary", "sm")}>
          <Trans>Open User Management</Trans>
        </Link>
      </div>
      <UserDirectory />
    </Card>
  );
}
