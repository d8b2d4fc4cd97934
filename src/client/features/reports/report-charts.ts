import { i18n } from "@lingui/core";
import { plural, t as tc } from "@lingui/core/macro";
import type {
  ResponseTimesReport,
  SatisfactionReport,
  TicketVolumeReport,
  WorkloadReport,
} from "#shared/reports/report.schemas.ts";
import { type ChartData, chartColors, formatDuration } from "./chart-data.ts";

/** Each report as the charts of /reports draw it (their tables and CSV files list the same). */

const dateLabel = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(i18n.locale, {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

export function volumeCharts(report: TicketVolumeReport): { flow: ChartData; backlog: ChartData } {
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

export const countsChart = (
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
export function timesChart(report: ResponseTimesReport): ChartData {
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
export const satisfactionChart = (report: SatisfactionReport): ChartData => ({
  category: tc`Rating`,
  labels: report.distribution.map((row) => ratingLabel(row.rating)),
  kind: "bar",
  isCount: true,
  series: [
    { label: tc`Ratings`, values: report.distribution.map((row) => row.count), color: chartColors.amber },
  ],
});

export function perTechnicianChart(rows: NonNullable<SatisfactionReport["perTechnician"]>): ChartData {
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

export const workloadChart = (report: WorkloadReport): ChartData => ({
  category: tc`Technician`,
  labels: report.rows.map((row) => row.name),
  kind: "bar",
  isCount: true,
  series: [
    { label: tc`Open`, values: report.rows.map((row) => row.open), color: chartColors.indigo },
    { label: tc`In progress`, values: report.rows.map((row) => row.inProgress), color: chartColors.emerald },
  ],
});
