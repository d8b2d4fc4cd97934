import { i18n } from "@lingui/core";
import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { Card } from "#client/components/ui/card.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { ArticleStatsTable } from "#client/features/articles/components/article-stats-table.tsx";
import { chartColors, fileNameFor, formatDuration } from "#client/features/reports/chart-data.ts";
import { ChartCard } from "#client/features/reports/components/chart-card.tsx";
import { ReportRangePicker } from "#client/features/reports/components/report-range-picker.tsx";
import { TeamReportTable } from "#client/features/reports/components/team-report-table.tsx";
import {
  countsChart,
  perTechnicianChart,
  satisfactionChart,
  timesChart,
  volumeCharts,
  workloadChart,
} from "#client/features/reports/report-charts.ts";
import { readRange } from "#client/features/reports/report-range.ts";
import {
  responseTimesQuery,
  satisfactionQuery,
  ticketBreakdownQuery,
  ticketVolumeQuery,
  workloadQuery,
} from "#client/features/reports/reports.api.ts";
import { changedValueText } from "#client/features/tickets/ticket-labels.ts";
import { useSearchParams } from "#client/lib/router/router.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import { can } from "#shared/permissions.ts";
import type {
  ReportQuery,
  ResponseTimesReport,
  SatisfactionReport,
  TicketBreakdownReport,
} from "#shared/reports/report.schemas.ts";

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5 text-lg font-semibold text-slate-900 tabular-nums">{value}</dd>
    </div>
  );
}

/** The reports of the range (the workload is now, whatever the range). */
function useReports(query: ReportQuery) {
  return {
    volume: useQuery(ticketVolumeQuery(query)),
    breakdown: useQuery(ticketBreakdownQuery(query)),
    times: useQuery(responseTimesQuery(query)),
    satisfaction: useQuery(satisfactionQuery(query)),
    workload: useQuery(workloadQuery()),
  };
}

/** The charts of the reports that have come, each worked out again only when its report changes. */
function useReportCharts({
  volume,
  breakdown,
  times,
  satisfaction,
  workload,
}: ReturnType<typeof useReports>) {
  const volumeData = useMemo(() => (volume.data ? volumeCharts(volume.data) : undefined), [volume.data]);
  const breakdownData = useMemo(() => breakdownCharts(breakdown.data), [breakdown.data]);
  const timesData = useMemo(() => (times.data ? timesChart(times.data) : undefined), [times.data]);
  const satisfactionData = useMemo(
    () => (satisfaction.data ? satisfactionChart(satisfaction.data) : undefined),
    [satisfaction.data],
  );
  const perTechnicianData = useMemo(
    () =>
      satisfaction.data?.perTechnician ? perTechnicianChart(satisfaction.data.perTechnician) : undefined,
    [satisfaction.data],
  );
  const workloadData = useMemo(
    () => (workload.data ? workloadChart(workload.data) : undefined),
    [workload.data],
  );
  return { volumeData, breakdownData, timesData, satisfactionData, perTechnicianData, workloadData };
}

/** /reports (technicians and admins): how the service is doing over a chosen range. */
export default function ReportsPage() {
  const { t } = useLingui();
  const actor = useActor();
  const [params, setParams] = useSearchParams();
  const { choice, query } = useMemo(() => readRange(params), [params]);
  const isAdmin = actor ? can.seeTechnicianSatisfaction(actor) : false;

  const { volume, breakdown, times, satisfaction, workload } = useReports(query);
  const { volumeData, breakdownData, timesData, satisfactionData, perTechnicianData, workloadData } =
    useReportCharts({ volume, breakdown, times, satisfaction, workload });

  const setRange = (next: Record<string, string>) =>
    setParams({ ...next, ...(query.group === "week" ? { group: "week" } : {}) }, { replace: true });
  const files = (title: string) => fileNameFor(title, query.from, query.to);
  const timeZone = volume.data?.range.timeZone;
  const rangeText = timeZone
    ? t`${query.from} to ${query.to} (${timeZone})`
    : t`${query.from} to ${query.to}`;

  return (
    <>
      <PageHeader
        title={t`Reports`}
        description={t`Tickets, response times and satisfaction, ${rangeText}.`}
      />
      <div className="mb-6">
        <ReportRangePicker
          key={`${choice}-${query.from}-${query.to}`}
          choice={choice}
          query={query}
          onPreset={(value) => setRange({ range: value })}
          onCustom={({ from, to }) => setRange({ range: "custom", from, to })}
          onGroup={(group) => {
            const next = new URLSearchParams(params);
            if (group === "week") next.set("group", "week");
            else next.delete("group");
            setParams(next, { replace: true });
          }}
        />
      </div>
      <div className="grid min-w-0 grid-cols-1 gap-4 lg:grid-cols-2">
        <ChartCard
          title={t`Tickets opened and resolved`}
          description={query.group === "week" ? t`Per week (Monday first)` : t`Per day`}
          data={volumeData?.flow}
          isError={volume.isError}
          onRetry={() => volume.refetch()}
          fileName={files("tickets opened and resolved")}
          emptyMessage={t`No ticket was opened or resolved in this range.`}
        />
        <ChartCard
          title={t`Backlog`}
          description={t`Open or in progress at the end of each day or week`}
          data={volumeData?.backlog}
          isError={volume.isError}
          onRetry={() => volume.refetch()}
          fileName={files("backlog")}
          emptyMessage={t`No ticket was waiting in this range.`}
        />
        <ChartCard
          title={t`Response times`}
          description={t`Median and 90th percentile, wall-clock time from opening`}
          data={timesData}
          isError={times.isError}
          onRetry={() => times.refetch()}
          fileName={files("response times")}
          emptyMessage={t`No ticket had a first response or was resolved in this range.`}
          summary={times.data ? <TimesSummary report={times.data} /> : null}
        />
        <ChartCard
          title={t`Satisfaction`}
          description={t`Ratings given in the range`}
          data={satisfactionData}
          isError={satisfaction.isError}
          onRetry={() => satisfaction.refetch()}
          fileName={files("satisfaction")}
          emptyMessage={t`Nobody rated a ticket in this range.`}
          summary={satisfaction.data ? <SatisfactionSummary report={satisfaction.data} /> : null}
          footer={satisfaction.data ? <RecentComments report={satisfaction.data} /> : null}
        />
        {isAdmin ? (
          <ChartCard
            title={t`Satisfaction per technician`}
            description={t`Administrators only: average rating of the tickets each person resolved`}
            data={perTechnicianData ?? (satisfaction.data ? perTechnicianChart([]) : undefined)}
            isError={satisfaction.isError}
            onRetry={() => satisfaction.refetch()}
            fileName={files("satisfaction per technician")}
            emptyMessage={t`Nobody rated a ticket in this range.`}
          />
        ) : null}
        <ChartCard
          title={t`Workload`}
          description={
            workload.data
              ? t`Open and in progress per technician now; ${workload.data.unassigned.toLocaleString(i18n.locale)} unassigned`
              : t`Open and in progress per technician now`
          }
          data={workloadData}
          isError={workload.isError}
          onRetry={() => workload.refetch()}
          fileName="report-workload"
          emptyMessage={t`No technician holds an open ticket.`}
        />
        <ChartCard
          title={t`Tickets by category`}
          description={t`Opened in the range`}
          data={breakdownData?.category}
          isError={breakdown.isError}
          onRetry={() => breakdown.refetch()}
          fileName={files("tickets by category")}
          emptyMessage={t`No ticket was opened in this range.`}
        />
        <ChartCard
          title={t`Tickets by priority`}
          description={t`Opened in the range`}
          data={breakdownData?.priority}
          isError={breakdown.isError}
          onRetry={() => breakdown.refetch()}
          fileName={files("tickets by priority")}
          emptyMessage={t`No ticket was opened in this range.`}
        />
        <ChartCard
          title={t`Tickets by department`}
          description={t`Opened in the range`}
          data={breakdownData?.department}
          isError={breakdown.isError}
          onRetry={() => breakdown.refetch()}
          fileName={files("tickets by department")}
          emptyMessage={t`No ticket was opened in this range.`}
        />
      </div>
      <TeamReportTable query={query} />
      <HelpArticlesSection />
    </>
  );
}

function breakdownCharts(report: TicketBreakdownReport | undefined) {
  if (!report) return undefined;
  return {
    category: countsChart(tc`Category`, report.byCategory, chartColors.indigo, (key) =>
      changedValueText("category", key),
    ),
    priority: countsChart(tc`Priority`, report.byPriority, chartColors.rose, (key) =>
      changedValueText("priority", key),
    ),
    department: countsChart(tc`Department`, report.byDepartment, chartColors.emerald),
  };
}

/** The help articles' figures, since each article was written (not the chosen range). */
function HelpArticlesSection() {
  return (
    <section aria-labelledby="report-articles-heading" className="mt-6">
      <Card>
        <div className="border-b border-slate-100 px-5 py-4">
          <h2 id="report-articles-heading" className="text-base font-semibold text-slate-900">
            <Trans>Help articles</Trans>
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            <Trans>
              Since each article was written. Views count once per person per day; a deflection is a suggested
              article opened from the create form, then the form left without a ticket.
            </Trans>
          </p>
        </div>
        <ArticleStatsTable />
      </Card>
    </section>
  );
}

function TimesSummary({ report }: { report: ResponseTimesReport }) {
  const { t } = useLingui();
  const show = (seconds: number | null) => (seconds === null ? "–" : formatDuration(seconds));
  return (
    <dl className="mb-3 grid grid-cols-2 gap-3">
      <Figure label={t`First response, median`} value={show(report.firstResponse.medianSeconds)} />
      <Figure label={t`Resolution, median`} value={show(report.resolution.medianSeconds)} />
    </dl>
  );
}

function SatisfactionSummary({ report }: { report: SatisfactionReport }) {
  const { t } = useLingui();
  return (
    <dl className="mb-3 grid grid-cols-2 gap-3">
      <Figure
        label={t`Average rating`}
        value={
          report.average === null
            ? "–"
            : `${report.average.toLocaleString(i18n.locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} / 5`
        }
      />
      <Figure label={t`Ratings`} value={report.count.toLocaleString(i18n.locale)} />
    </dl>
  );
}

function RecentComments({ report }: { report: SatisfactionReport }) {
  if (report.recentComments.length === 0) return null;
  return (
    <div className="mt-4 border-t border-slate-100 pt-3">
      <h3 className="text-sm font-semibold text-slate-900">
        <Trans>Latest comments</Trans>
      </h3>
      <ul className="mt-2 space-y-2">
        {report.recentComments.map((comment) => (
          <li key={`${comment.submittedAt}-${comment.comment}`} className="text-sm text-slate-700">
            <span className="font-medium text-slate-900">{comment.rating}/5</span>{" "}
            <span className="break-words">“{comment.comment}”</span>{" "}
            <span className="text-slate-500">
              {new Date(comment.submittedAt).toLocaleDateString(i18n.locale)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
