import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { teamQueuesQuery } from "#client/features/tickets/ticket.api.ts";
import { Link } from "#client/lib/router/links.tsx";

/**
 * The admin home's open tickets by team (decision 073): Open and In Progress now, and how many of them
 * nobody holds, each team's linking to its list (/tickets?team=…), then the tickets in no team. Read from
 * the counters through GET /api/tickets/queues; nothing until they come, nor without a team.
 */
export function TeamOpenCounts() {
  const { t, i18n } = useLingui();
  const queues = useQuery(teamQueuesQuery());
  const rows = queues.data?.openByTeam;
  if (!rows?.some((row) => row.teamId !== null)) return null;
  const nameOf = (teamId: string | null) =>
    teamId === null ? t`No team` : (queues.data?.teams.find((team) => team.id === teamId)?.name ?? teamId);

  return (
    <section aria-labelledby="admin-team-counts" className="flex flex-col gap-3">
      <h2 id="admin-team-counts" className="text-base font-semibold text-slate-900">
        <Trans>Open tickets by team</Trans>
      </h2>
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <thead className="text-xs text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-4 py-2">
                <Trans>Team</Trans>
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                <Trans>Open and in progress</Trans>
              </th>
              <th scope="col" className="px-4 py-2 text-right">
                <Trans>Unassigned</Trans>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.teamId ?? "none"}>
                <th scope="row" className="px-4 py-2 font-medium break-words text-slate-900">
                  {row.teamId === null ? (
                    nameOf(null)
                  ) : (
                    <Link
                      to={`/tickets?${new URLSearchParams({ team: row.teamId })}`}
                      className="text-indigo-700 hover:underline"
                    >
                      {nameOf(row.teamId)}
                    </Link>
                  )}
                </th>
                <td className="px-3 py-2 text-right tabular-nums">{i18n.number(row.open)}</td>
                <td className="px-4 py-2 text-right tabular-nums">{i18n.number(row.unassigned)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
