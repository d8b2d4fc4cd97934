import { i18n } from "@lingui/core";
import { plural, t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { Card } from "#client/components/ui/card.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { ArticleStatsTable } from "#client/features/articles/components/article-stats-table.tsx";
import {
  type ChartData,
  chartColors,
  fileNameFor,
  formatDuration,
} from "#client/features/reports/chart-data.ts";
import { ChartCard } from "#client/features/reports/components/chart-card.tsx";
import { ReportRangePicker } from "#client/features/reports/components/report-range-picker.tsx";
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
  ResponseTimesReport,
  SatisfactionReport,
  TicketBreakdownReport,
  TicketVolumeReport,
  WorkloadReport,
} from "#shared/reports/report.schemas.ts";

const dateLabel = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(i18n.locale, {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

function volumeCharts(report: TicketVolumeReport): { flow: ChartData; backlog: ChartData } {
  const category = report.range.group === "week" ? tc`Week of` : tc`Day`;
  const labels = report.buckets.map((bucket) => dateLabel(bucket.start));
  return {
    flow: {
      category,
      labels,
      kind: "line",
      isCount: true,
      series: [
        { label: tc`Opened`, values: report.buckets.map((b) => b.opened), color: chartColors.indigo },
        { label: tc`Resolved`, values: report.buckets.map((b) => b.resolved), color: chartColors.emerald },
      ],
    },
    backlog: {
      category,
      labels,
      kind: "line",
      isCount: true,
      series: [
        {
          label: tc`Open or in progress`,
          values: report.buckets.map((b) => b.backlog),
          color: chartColors.amber,
        },
      ],
    },
  };
}

const countsChart = (
  category: string,
  rows: { key: string; count: number }[],
  color: string,
  labelOf: (key: string) => string = (key) => key,
): ChartData => ({
  category,
  labels: rows.map((row) => labelOf(row.key)),
  kind: "bar",
  isCount: true,
  series: [{ label: tc`Tickets`, values: rows.map((row) => row.count), color }],
});

const hours = (seconds: number | null) => (seconds ?? 0) / 3600;
function timesChart(report: ResponseTimesReport): ChartData {
  const { firstResponse, resolution } = report;
  return {
    category: tc`Measure`,
    labels: [tc`First response`, tc`Resolution`],
    kind: "bar",
    format: (value) => formatDuration(value * 3600),
    series: [
      {
        label: tc`Median`,
        values: [hours(firstResponse.medianSeconds), hours(resolution.medianSeconds)],
        color: chartColors.indigo,
      },
      {
        label: tc`90th percentile`,
        values: [hours(firstResponse.p90Seconds), hours(resolution.p90Seconds)],
        color: chartColors.slate,
      },
    ],
  };
}

const ratingLabel = (rating: number) => plural(rating, { one: "# star", other: "# stars" });
const satisfactionChart = (report: SatisfactionReport): ChartData => ({
  category: tc`Rating`,
  labels: report.distribution.map((row) => ratingLabel(row.rating)),
  kind: "bar",
  isCount: true,
  series: [
    { label: tc`Ratings`, values: report.distribution.map((row) => row.count), color: chartColors.amber },
  ],
});

function perTechnicianChart(rows: NonNullable<SatisfactionReport["perTechnician"]>): ChartData {
  return {
    category: tc`Technician`,
    labels: rows.map((row) => row.name),
    kind: "bar",
    format: (value) => (Number.isInteger(value) ? String(value) : value.toFixed(2)),
    series: [
      { label: tc`Average rating`, values: rows.map((row) => row.average), color: chartColors.indigo },
      { label: tc`Ratings`, values: rows.map((row) => row.count), color: chartColors.slate, tableOnly: true },
    ],
  };
}

const workloadChart = (report: WorkloadReport): ChartData => ({
  category: tc`Technician`,
  labels: report.rows.map((row) => row.name),
  kind: "bar",
  isCount: true,
  series: [
    { label: tc`Open`, values: report.rows.map((row) => row.open), color: chartColors.indigo },
    { label: tc`In progress`, values: report.rows.map((row) => row.inProgress), color: chartColors.emerald },
  ],
});

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5 text-lg font-semibold text-slate-900 tabular-nums">{value}</dd>
    </div>
  );
}

/** /reports (technicians and admins): how the service is doing over a chosen range. */
export default function ReportsPage() {
  const { t } = useLingui();
  const actor = useActor();
  const [params, setParams] = useSearchParams();
  const { choice, query } = useMemo(() => readRange(params), [params]);
  const isAdmin = actor ? can.seeTechnicianSatisfaction(actor) : false;

  const volume = useQuery(ticketVolumeQuery(query));
  const breakdown = useQuery(ticketBreakdownQuery(query));
  const times = useQuery(responseTimesQuery(query));
  const satisfaction = useQuery(satisfactionQuery(query));
  const workload = useQuery(workloadQuery());

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
          summary={
            satisfaction.data ? (
              <dl className="mb-3 grid grid-cols-2 gap-3">
                <Figure
                  label={t`Average rating`}
                  value={
                    satisfaction.data.average === null
                      ? "–"
                      : `${satisfaction.data.average.toLocaleString(i18n.locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} / 5`
                  }
                />
                <Figure label={t`Ratings`} value={satisfaction.data.count.toLocaleString(i18n.locale)} />
              </dl>
            ) : null
          }
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
      <section aria-labelledby="report-articles-heading" className="mt-6">
        <Card>
          <div className="border-b border-slate-100 px-5 py-4">
            <h2 id="report-articles-heading" className="text-base font-semibold text-slate-900">
              <Trans>Help articles</Trans>
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              <Trans>
                Since each article was written. Views count once per person per day; a deflection is a
                suggested article opened from the create form, then the form left without a ticket.
              </Trans>
            </p>
          </div>
          <ArticleStatsTable />
        </Card>
      </section>
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
