import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Plus } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  routingQuery,
  teamListQuery,
  useDeleteRoutingRule,
  useReorderRoutingRules,
  useSetDefaultTeam,
} from "#client/features/teams/teams.api.ts";
import { i18n } from "#client/lib/i18n.ts";
import { categoryLabels } from "#client/lib/ticket-value-labels.ts";
import { toast } from "#client/lib/toast.ts";
import type { CustomField } from "#shared/custom-fields/custom-field.schemas.ts";
import type { RoutingRule } from "#shared/teams/routing-rule.schemas.ts";
import { RoutingRuleDialog } from "./routing-rule-dialog.tsx";

interface RoutingRulesProps {
  /** The departments and active custom fields a rule may name (the page reads them). */
  departments: readonly string[];
  customFields: readonly CustomField[];
}

type DialogState =
  | { kind: "create" }
  | { kind: "edit"; rule: RoutingRule }
  | { kind: "delete"; rule: RoutingRule };

/** What a rule asks, in words: "Category is Network · Title contains “vpn” or “wi-fi”". */
function conditionsOf(rule: RoutingRule): string[] {
  const parts: string[] = [];
  if (rule.category) {
    const category = i18n._(categoryLabels[rule.category]);
    parts.push(tc`Category is ${category}`);
  }
  if (rule.department) {
    const { department } = rule;
    parts.push(tc`Department is ${department}`);
  }
  if (rule.customField) {
    const { fieldLabel: label, valueLabel: value } = rule.customField;
    parts.push(tc`${label} is ${value}`);
  }
  if (rule.titleWords.length > 0) {
    const or = tc`or`;
    const words = rule.titleWords.map((word) => `“${word}”`).join(` ${or} `);
    parts.push(tc`Title contains ${words}`);
  }
  return parts;
}

/** The team a ticket no rule matches goes to: none, or one team; saved when the admin says so. */
function DefaultTeamForm({
  defaultTeamId,
  teams,
}: {
  defaultTeamId: string | null;
  teams: { id: string; name: string }[];
}) {
  const { t } = useLingui();
  const id = useId();
  const setDefault = useSetDefaultTeam();
  const current = defaultTeamId ?? "";
  const [chosen, setChosen] = useState<{ from: string; value: string } | null>(null);
  const selected = chosen && chosen.from === current ? chosen.value : current;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    try {
      await setDefault.mutateAsync({ teamId: selected || null });
      setChosen(null);
      toast.success(t`Default team saved`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`The default team could not be saved.`);
    }
  }

  return (
    <form onSubmit={(event) => void handleSubmit(event)} className="flex flex-wrap items-end gap-2">
      <div className="flex min-w-0 flex-col gap-1.5">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          <Trans>When no rule matches</Trans>
        </label>
        <Select
          id={id}
          options={[
            { value: "", label: t`No team (every technician is alerted)` },
            ...teams.map((team) => ({ value: team.id, label: team.name })),
          ]}
          value={selected}
          onChange={(event) => setChosen({ from: current, value: event.target.value })}
        />
      </div>
      {selected === current ? null : (
        <Button type="submit" size="md" variant="secondary" disabled={setDefault.isPending}>
          <Trans>Save</Trans>
        </Button>
      )}
    </form>
  );
}

/**
 * Admin → Teams → Routing (decision 069): the rules that put a new ticket in a team, tried in order (the
 * first that matches wins), and the default team.
 */
export function RoutingRules({ departments, customFields }: RoutingRulesProps) {
  const { t } = useLingui();
  const routing = useQuery(routingQuery());
  const teams = useQuery(teamListQuery());
  const reorder = useReorderRoutingRules();
  const remove = useDeleteRoutingRule();
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const close = () => setDialog(null);
  const hasTeams = (teams.data?.length ?? 0) > 0;

  const move = async (rules: RoutingRule[], index: number, by: -1 | 1) => {
    const ids = rules.map((rule) => rule.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    try {
      await reorder.mutateAsync(ids);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`The rules could not be reordered.`);
    }
  };

  return (
    <section aria-labelledby="routing-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-xl">
          <h2 id="routing-heading" className="text-base font-semibold text-slate-900">
            <Trans>Routing</Trans>
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            <Trans>
              A new ticket, from the app, by e-mail or through the API, goes to the team of the first rule it
              matches, tried from the top.
            </Trans>
          </p>
        </div>
        <Button size="sm" disabled={!hasTeams} onClick={() => setDialog({ kind: "create" })}>
          <Plus aria-hidden="true" className="size-4" />
          <Trans>New rule</Trans>
        </Button>
      </div>
      {routing.isPending || teams.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label={t`Loading routing rules`} />
        </div>
      ) : routing.isError || teams.isError ? (
        <LoadFailed
          message={t`The routing rules could not be loaded.`}
          onRetry={() => void routing.refetch()}
        />
      ) : (
        <>
          {!hasTeams ? (
            <p className="text-sm text-slate-500">
              <Trans>Add a team first: a rule sends tickets to a team.</Trans>
            </p>
          ) : routing.data.rules.length === 0 ? (
            <p className="text-sm text-slate-500">
              <Trans>No rules yet.</Trans>
            </p>
          ) : (
            <ol className="flex flex-col gap-2" aria-label={t`Routing rules`}>
              {routing.data.rules.map((rule, index, rules) => (
                <li
                  key={rule.id}
                  className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 p-3"
                >
                  <div className="flex min-w-0 items-start gap-3 text-sm">
                    <span className="mt-0.5 w-5 shrink-0 text-right font-mono text-xs text-slate-500">
                      {index + 1}.
                    </span>
                    <p className="min-w-0 break-words text-slate-700">
                      {conditionsOf(rule).join(" · ")}{" "}
                      <span className="whitespace-nowrap">
                        → <span className="font-medium text-slate-900">{rule.teamName}</span>
                      </span>
                    </p>
                  </div>
                  <div className="flex flex-wrap gap-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t`Move rule ${index + 1} up`}
                      disabled={index === 0 || reorder.isPending}
                      onClick={() => void move(rules, index, -1)}
                    >
                      <ArrowUp aria-hidden="true" className="size-4" />
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t`Move rule ${index + 1} down`}
                      disabled={index === rules.length - 1 || reorder.isPending}
                      onClick={() => void move(rules, index, 1)}
                    >
                      <ArrowDown aria-hidden="true" className="size-4" />
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t`Edit rule ${index + 1}`}
                      onClick={() => setDialog({ kind: "edit", rule })}
                    >
                      <Trans>Edit</Trans>
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t`Delete rule ${index + 1}`}
                      onClick={() => setDialog({ kind: "delete", rule })}
                    >
                      <Trans>Delete</Trans>
                    </Button>
                  </div>
                </li>
              ))}
            </ol>
          )}
          <DefaultTeamForm defaultTeamId={routing.data.defaultTeamId} teams={teams.data} />
        </>
      )}
      {(dialog?.kind === "create" || dialog?.kind === "edit") && teams.data ? (
        <RoutingRuleDialog
          rule={dialog.kind === "edit" ? dialog.rule : null}
          teams={teams.data}
          departments={departments}
          customFields={customFields}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === "delete" ? (
        <ConfirmDialog
          title={t`Delete this routing rule?`}
          description={t`New tickets it would have matched go to the next rule that matches, or the default team.`}
          confirmLabel={t`Delete`}
          successMessage={t`Rule deleted`}
          onConfirm={() => remove.mutateAsync(dialog.rule.id)}
          onClose={close}
        />
      ) : null}
    </section>
  );
}
