import { queryOptions } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type {
  ReportQuery,
  ResponseTimesReport,
  SatisfactionReport,
  TeamReport,
  TicketBreakdownReport,
  TicketVolumeReport,
  WorkloadReport,
} from "#shared/reports/report.schemas.ts";

export const reportKeys = {
  all: ["reports"] as const,
  report: (name: string, query?: ReportQuery) => [...reportKeys.all, name, query ?? null] as const,
};

const search = (query: ReportQuery) => new URLSearchParams({ ...query }).toString();

/** One query per chart: they load in parallel and each card shows its own loading or failure. */
function reportQuery<T>(name: string, query: ReportQuery) {
  return queryOptions({
    queryKey: reportKeys.report(name, query),
    queryFn: ({ signal }) => apiFetch<T>(`/api/reports/${name}?${search(query)}`, { signal }),
    staleTime: 60_000,
  });
}

export const ticketVolumeQuery = (query: ReportQuery) =>
  reportQuery<TicketVolumeReport>("ticket-volume", query);
export const ticketBreakdownQuery = (query: ReportQuery) =>
  reportQuery<TicketBreakdownReport>("ticket-breakdown", query);
export const responseTimesQuery = (query: ReportQuery) =>
  reportQuery<ResponseTimesReport>("response-times", query);
export const satisfactionQuery = (query: ReportQuery) =>
  reportQuery<SatisfactionReport>("satisfaction", query);
/** Decision 073: each team's tickets, and those in no team. */
export const teamReportQuery = (query: ReportQuery) => reportQuery<TeamReport>("teams", query);
export const workloadQuery = () =>
  queryOptions({
    queryKey: reportKeys.report("workload"),
    queryFn: ({ signal }) => apiFetch<WorkloadReport>("/api/reports/workload", { signal }),
    staleTime: 60_000,
  });
