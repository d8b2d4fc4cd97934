import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Card } from "#client/components/ui/card.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { formatDuration } from "#client/features/reports/chart-data.ts";
import { teamReportQuery } from "#client/features/reports/reports.api.ts";
import type { ReportQuery } from "#shared/reports/report.schemas.ts";

/**
 * /reports: the range's tickets by team, and those in no team (decision 073): opened, resolved, open now
 * and the resolution times. Only once there is a team: without teams the page is as it was.
 */
export function TeamReportTable({ query }: { query: ReportQuery }) {
  const { t, i18n } = useLingui();
  const report = useQuery(teamReportQuery(query));
  // Nothing while it loads, nor without a team: the page above does not move, and without teams is as it was.
  if (report.isPending || (report.isSuccess && !report.data.rows.some((row) => row.teamId !== null))) {
    return null;
  }
  const number = (value: number) => i18n.number(value);
  const duration = (seconds: number | null) => (seconds === null ? "–" : formatDuration(seconds));

  return (
    <section aria-labelledby="report-teams-heading" className="mt-6">
      <Card>
        <div className="border-b border-slate-100 px-5 py-4">
          <h2 id="report-teams-heading" className="text-base font-semibold text-slate-900">
            <Trans>By team</Trans>
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            <Trans>
              Opened and resolved in the range, with the resolution times of those resolved; open now,
              whatever the range.
            </Trans>
          </p>
        </div>
        {report.isError ? (
          <div className="p-5">
            <LoadFailed
              message={t`Could not load the teams' figures.`}
              onRetry={() => void report.refetch()}
            />
          </div>
        ) : (
          // A table wider than a phone scrolls in its box; the box takes focus so keys can scroll it too.
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
          <section className="overflow-x-auto" tabIndex={0} aria-label={t`Tickets by team`}>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">
                <Trans>Tickets by team</Trans>
              </caption>
              <thead className="text-xs text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="px-5 py-2">
                    <Trans>Team</Trans>
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    <Trans>Opened</Trans>
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    <Trans>Resolved</Trans>
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    <Trans>Open now</Trans>
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    <Trans>Resolution, median</Trans>
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    <Trans>Resolution, 90th percentile</Trans>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {report.data.rows.map((row) => (
                  <tr key={row.teamId ?? "none"}>
                    <th scope="row" className="px-5 py-2 font-medium break-words text-slate-900">
                      {row.name ?? t`No team`}
                    </th>
                    <td className="px-3 py-2 text-right tabular-nums">{number(row.opened)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{number(row.resolved)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{number(row.open)}</td>
                    <td className="px-3 py-2 text-right tabular-nums whitespace-nowrap">
                      {duration(row.resolution.medianSeconds)}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums whitespace-nowrap">
                      {duration(row.resolution.p90Seconds)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </Card>
    </section>
  );
}
