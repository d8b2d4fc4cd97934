import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Plus, UsersRound } from "lucide-react";
import { useState } from "react";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { teamListQuery, useDeleteTeam } from "#client/features/teams/teams.api.ts";
import type { Team } from "#shared/teams/team.schemas.ts";
import { assignmentLabels, TeamDialog, type TechnicianChoice } from "./team-dialog.tsx";

type DialogState = { kind: "create" } | { kind: "edit"; team: Team } | { kind: "delete"; team: Team };

/**
 * Admin → Teams: every team with its members and lead; add, change or delete one (decision 069).
 * `technicians` are the active technicians a team may take in (undefined while they load).
 */
export function TeamList({ technicians }: { technicians: readonly TechnicianChoice[] | undefined }) {
  const { t, i18n } = useLingui();
  const query = useQuery(teamListQuery());
  const remove = useDeleteTeam();
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const close = () => setDialog(null);
  const isReady = technicians !== undefined;

  return (
    <section aria-labelledby="teams-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-xl">
          <h2 id="teams-heading" className="text-base font-semibold text-slate-900">
            <Trans>Teams</Trans>
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            <Trans>
              A team's technicians are alerted to the new tickets routed to it; everyone else is not. A
              technician may be in several teams.
            </Trans>
          </p>
        </div>
        <Button size="sm" disabled={!isReady} onClick={() => setDialog({ kind: "create" })}>
          <Plus aria-hidden="true" className="size-4" />
          <Trans>New team</Trans>
        </Button>
      </div>
      {query.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label={t`Loading teams`} />
        </div>
      ) : query.isError ? (
        <LoadFailed message={t`The teams could not be loaded.`} onRetry={() => void query.refetch()} />
      ) : query.data.length === 0 ? (
        <p className="text-sm text-slate-500">
          <Trans>No teams yet. Without teams, every technician hears of every new ticket.</Trans>
        </p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={t`Teams`}>
          {query.data.map((team) => (
            <li key={team.id} className="rounded-lg border border-slate-200 p-4">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0 text-sm">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    <UsersRound aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
                    <span className="break-words">{team.name}</span>
                    {team.isDefault ? (
                      <Badge tone="indigo">
                        <Trans>Default team</Trans>
                      </Badge>
                    ) : null}
                  </p>
                  {team.description ? <p className="mt-1 text-slate-600">{team.description}</p> : null}
                  <p className="mt-1 text-slate-500">
                    {plural(team.memberCount, { one: "# member", other: "# members" })}
                    {team.leadName ? (
                      <>
                        {" · "}
                        <Trans>Lead: {team.leadName}</Trans>
                      </>
                    ) : null}
                    {team.assignment !== "off" ? (
                      <>
                        {" · "}
                        <Trans>Assignment: {i18n._(assignmentLabels[team.assignment])}</Trans>
                      </>
                    ) : null}
                  </p>
                  {team.members.length > 0 ? (
                    <ul
                      className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-slate-600"
                      aria-label={t`Members of ${team.name}`}
                    >
                      {team.members.map((member) => (
                        <li key={member.id} className="flex min-w-0 items-center gap-1.5 break-words">
                          {member.name}
                          {member.isAway ? (
                            <Badge tone="amber">
                              <Trans>Away</Trans>
                            </Badge>
                          ) : null}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={!isReady}
                    aria-label={t`Edit ${team.name}`}
                    onClick={() => setDialog({ kind: "edit", team })}
                  >
                    <Trans>Edit</Trans>
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={t`Delete ${team.name}`}
                    onClick={() => setDialog({ kind: "delete", team })}
                  >
                    <Trans>Delete</Trans>
                  </Button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      {(dialog?.kind === "create" || dialog?.kind === "edit") && technicians ? (
        <TeamDialog
          team={dialog.kind === "edit" ? dialog.team : null}
          technicians={technicians}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === "delete" ? (
        <ConfirmDialog
          title={t`Delete the team ${dialog.team.name}?`}
          description={t`Its tickets stay, in no team, and its routing rules are deleted. Its members are told nothing more about its tickets.`}
          confirmLabel={t`Delete`}
          successMessage={t`Team deleted`}
          onConfirm={() => remove.mutateAsync(dialog.team.id)}
          onClose={close}
        />
      ) : null}
    </section>
  );
}
