import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useSearchParams } from "react-router";
import { can } from "#shared/permissions.ts";
import type {
  ResponseTimesReport,
  SatisfactionReport,
  TicketBreakdownReport,
  TicketVolumeReport,
  WorkloadReport,
} from "#shared/reports/report.schemas.ts";
import { Card } from "../components/ui/card.tsx";
import { PageHeader } from "../components/ui/page-header.tsx";
import { ArticleStatsTable } from "../features/articles/components/article-stats-table.tsx";
import { type ChartData, chartColors, fileNameFor, formatDuration } from "../features/reports/chart-data.ts";
import { ChartCard } from "../features/reports/components/chart-card.tsx";
import { ReportRangePicker } from "../features/reports/components/report-range-picker.tsx";
import { readRange } from "../features/reports/report-range.ts";
import {
  responseTimesQuery,
  satisfactionQuery,
  ticketBreakdownQuery,
  ticketVolumeQuery,
  workloadQuery,
} from "../features/reports/reports.api.ts";
import { useActor } from "../lib/use-actor.ts";

const dateLabel = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });

function volumeCharts(report: TicketVolumeReport): { flow: ChartData; backlog: ChartData } {
  const category = report.range.group === "week" ? "Week of" : "Day";
  const labels = report.buckets.map((bucket) => dateLabel(bucket.start));
  return {
    flow: {
      category,
      labels,
      kind: "line",
      isCount: true,
      series: [
        { label: "Opened", values: report.buckets.map((b) => b.opened), color: chartColors.indigo },
        { label: "Resolved", values: report.buckets.map((b) => b.resolved), color: chartColors.emerald },
      ],
    },
    backlog: {
      category,
      labels,
      kind: "line",
      isCount: true,
      series: [
        {
          label: "Open or in progress",
          values: report.buckets.map((b) => b.backlog),
          color: chartColors.amber,
        },
      ],
    },
  };
}

const countsChart = (category: string, rows: { key: string; count: number }[], color: string): ChartData => ({
  category,
  labels: rows.map((row) => row.key),
  kind: "bar",
  isCount: true,
  series: [{ label: "Tickets", values: rows.map((row) => row.count), color }],
});

const hours = (seconds: number | null) => (seconds ?? 0) / 3600;
function timesChart(report: ResponseTimesReport): ChartData {
  const { firstResponse, resolution } = report;
  return {
    category: "Measure",
    labels: ["First response", "Resolution"],
    kind: "bar",
    format: (value) => formatDuration(value * 3600),
    series: [
      {
        label: "Median",
        values: [hours(firstResponse.medianSeconds), hours(resolution.medianSeconds)],
        color: chartColors.indigo,
      },
      {
        label: "90th percentile",
        values: [hours(firstResponse.p90Seconds), hours(resolution.p90Seconds)],
        color: chartColors.slate,
      },
    ],
  };
}

const ratingLabels = ["1 star", "2 stars", "3 stars", "4 stars", "5 stars"];
const satisfactionChart = (report: SatisfactionReport): ChartData => ({
  category: "Rating",
  labels: report.distribution.map((row) => ratingLabels[row.rating - 1] ?? String(row.rating)),
  kind: "bar",
  isCount: true,
  series: [
    { label: "Ratings", values: report.distribution.map((row) => row.count), color: chartColors.amber },
  ],
});

function perTechnicianChart(rows: NonNullable<SatisfactionReport["perTechnician"]>): ChartData {
  return {
    category: "Technician",
    labels: rows.map((row) => row.name),
    kind: "bar",
    format: (value) => (Number.isInteger(value) ? String(value) : value.toFixed(2)),
    series: [
      { label: "Average rating", values: rows.map((row) => row.average), color: chartColors.indigo },
      { label: "Ratings", values: rows.map((row) => row.count), color: chartColors.slate, tableOnly: true },
    ],
  };
}

const workloadChart = (report: WorkloadReport): ChartData => ({
  category: "Technician",
  labels: report.rows.map((row) => row.name),
  kind: "bar",
  isCount: true,
  series: [
    { label: "Open", values: report.rows.map((row) => row.open), color: chartColors.indigo },
    { label: "In progress", values: report.rows.map((row) => row.inProgress), color: chartColors.emerald },
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
  const rangeText = `${query.from} to ${query.to}${timeZone ? ` (${timeZone})` : ""}`;

  return (
    <>
      <PageHeader title="Reports" description={`Tickets, response times and satisfaction, ${rangeText}.`} />
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
          title="Tickets opened and resolved"
          description={query.group === "week" ? "Per week (Monday first)" : "Per day"}
          data={volumeData?.flow}
          isError={volume.isError}
          onRetry={() => volume.refetch()}
          fileName={files("tickets opened and resolved")}
          emptyMessage="No ticket was opened or resolved in this range."
        />
        <ChartCard
          title="Backlog"
          description="Open or in progress at the end of each day or week"
          data={volumeData?.backlog}
          isError={volume.isError}
          onRetry={() => volume.refetch()}
          fileName={files("backlog")}
          emptyMessage="No ticket was waiting in this range."
        />
        <ChartCard
          title="Response times"
          description="Median and 90th percentile, wall-clock time from opening"
          data={timesData}
          isError={times.isError}
          onRetry={() => times.refetch()}
          fileName={files("response times")}
          emptyMessage="No ticket had a first response or was resolved in this range."
          summary={times.data ? <TimesSummary report={times.data} /> : null}
        />
        <ChartCard
          title="Satisfaction"
          description="Ratings given in the range"
          data={satisfactionData}
          isError={satisfaction.isError}
          onRetry={() => satisfaction.refetch()}
          fileName={files("satisfaction")}
          emptyMessage="Nobody rated a ticket in this range."
          summary={
            satisfaction.data ? (
              <dl className="mb-3 grid grid-cols-2 gap-3">
                <Figure
                  label="Average rating"
                  value={
                    satisfaction.data.average === null ? "–" : `${satisfaction.data.average.toFixed(2)} / 5`
                  }
                />
                <Figure label="Ratings" value={satisfaction.data.count.toLocaleString("en")} />
              </dl>
            ) : null
          }
          footer={satisfaction.data ? <RecentComments report={satisfaction.data} /> : null}
        />
        {isAdmin ? (
          <ChartCard
            title="Satisfaction per technician"
            description="Administrators only: average rating of the tickets each person resolved"
            data={perTechnicianData ?? (satisfaction.data ? perTechnicianChart([]) : undefined)}
            isError={satisfaction.isError}
            onRetry={() => satisfaction.refetch()}
            fileName={files("satisfaction per technician")}
            emptyMessage="Nobody rated a ticket in this range."
          />
        ) : null}
        <ChartCard
          title="Workload"
          description={`Open and in progress per technician now${
            workload.data ? `; ${workload.data.unassigned.toLocaleString("en")} unassigned` : ""
          }`}
          data={workloadData}
          isError={workload.isError}
          onRetry={() => workload.refetch()}
          fileName="report-workload"
          emptyMessage="No technician holds an open ticket."
        />
        <ChartCard
          title="Tickets by category"
          description="Opened in the range"
          data={breakdownData?.category}
          isError={breakdown.isError}
          onRetry={() => breakdown.refetch()}
          fileName={files("tickets by category")}
          emptyMessage="No ticket was opened in this range."
        />
        <ChartCard
          title="Tickets by priority"
          description="Opened in the range"
          data={breakdownData?.priority}
          isError={breakdown.isError}
          onRetry={() => breakdown.refetch()}
          fileName={files("tickets by priority")}
          emptyMessage="No ticket was opened in this range."
        />
        <ChartCard
          title="Tickets by department"
          description="Opened in the range"
          data={breakdownData?.department}
          isError={breakdown.isError}
          onRetry={() => breakdown.refetch()}
          fileName={files("tickets by department")}
          emptyMessage="No ticket was opened in this range."
        />
      </div>
      <section aria-labelledby="report-articles-heading" className="mt-6">
        <Card>
          <div className="border-b border-slate-100 px-5 py-4">
            <h2 id="report-articles-heading" className="text-base font-semibold text-slate-900">
              Help articles
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Since each article was written. Views count once per person per day; a deflection is a suggested
              article opened from the create form, then the form left without a ticket.
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
    category: countsChart("Category", report.byCategory, chartColors.indigo),
    priority: countsChart("Priority", report.byPriority, chartColors.rose),
    department: countsChart("Department", report.byDepartment, chartColors.emerald),
  };
}

function TimesSummary({ report }: { report: ResponseTimesReport }) {
  const show = (seconds: number | null) => (seconds === null ? "–" : formatDuration(seconds));
  return (
    <dl className="mb-3 grid grid-cols-2 gap-3">
      <Figure label="First response, median" value={show(report.firstResponse.medianSeconds)} />
      <Figure label="Resolution, median" value={show(report.resolution.medianSeconds)} />
    </dl>
  );
}

function RecentComments({ report }: { report: SatisfactionReport }) {
  if (report.recentComments.length === 0) return null;
  return (
    <div className="mt-4 border-t border-slate-100 pt-3">
      <h3 className="text-sm font-semibold text-slate-900">Latest comments</h3>
      <ul className="mt-2 space-y-2">
        {report.recentComments.map((comment) => (
          <li key={`${comment.submittedAt}-${comment.comment}`} className="text-sm text-slate-700">
            <span className="font-medium text-slate-900">{comment.rating}/5</span>{" "}
            <span className="break-words">“{comment.comment}”</span>{" "}
            <span className="text-slate-500">{new Date(comment.submittedAt).toLocaleDateString("en")}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
