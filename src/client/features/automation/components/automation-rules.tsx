import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Plus, Workflow } from "lucide-react";
import { useRef, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  automationRuleListQuery,
  useDeleteAutomationRule,
  useReorderAutomationRules,
} from "#client/features/automation/automation.api.ts";
import type { RuleChoices } from "#client/features/automation/rule-labels.ts";
import { toast } from "#client/lib/toast.ts";
import type { AutomationRule } from "#shared/automation/automation-rule.schemas.ts";
import { AutomationRuleForm } from "./automation-rule-form.tsx";
import { RuleListItem } from "./rule-list-item.tsx";

type Editing =
  | { kind: "create" }
  | { kind: "edit"; rule: AutomationRule }
  | { kind: "delete"; rule: AutomationRule };

/**
 * /admin/automation (decision 076): the rules in the order they run, each switched on or off, moved, edited
 * or deleted; the form above the list while a rule is written.
 */
export function AutomationRules({ choices }: { choices: RuleChoices }) {
  const { t } = useLingui();
  const query = useQuery(automationRuleListQuery());
  const reorder = useReorderAutomationRules();
  const remove = useDeleteAutomationRule();
  const [editing, setEditing] = useState<Editing | null>(null);
  // Focus goes back to the button that opened the form once it closes.
  const opener = useRef<HTMLElement | null>(null);
  const open = (next: Editing) => {
    if (next.kind !== "delete" && document.activeElement instanceof HTMLElement) {
      opener.current = document.activeElement;
    }
    setEditing(next);
  };
  const closeForm = () => {
    setEditing(null);
    requestAnimationFrame(() => opener.current?.focus());
  };

  const move = async (rules: AutomationRule[], index: number, by: -1 | 1) => {
    const ids = rules.map((rule) => rule.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    try {
      await reorder.mutateAsync(ids);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`The rules could not be reordered.`);
    }
  };

  const isWriting = editing?.kind === "create" || editing?.kind === "edit";
  // While a rule is written, the form is the one place to write it.
  const newRule = isWriting ? null : (
    <Button size="sm" onClick={() => open({ kind: "create" })}>
      <Plus aria-hidden="true" className="size-4" />
      <Trans>New rule</Trans>
    </Button>
  );
  const rules = query.data ?? [];
  const deletedName = editing?.kind === "delete" ? editing.rule.name : "";

  return (
    <div className="flex flex-col gap-6">
      {isWriting ? (
        <Card className="p-5">
          <AutomationRuleForm
            key={editing.kind === "edit" ? editing.rule.id : "new"}
            rule={editing.kind === "edit" ? editing.rule : null}
            choices={choices}
            onClose={closeForm}
          />
        </Card>
      ) : null}
      <Card>
        <section aria-labelledby="automation-rules-heading">
          <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-5 py-4">
            <div className="max-w-xl">
              <h2 id="automation-rules-heading" className="text-base font-semibold text-slate-900">
                <Trans>Rules</Trans>
              </h2>
              <p className="mt-1 text-sm text-slate-600">
                <Trans>
                  Switched-on rules run in this order, each once per change, each seeing the ticket as the
                  rules before it left it.
                </Trans>
              </p>
            </div>
            {rules.length > 0 ? newRule : null}
          </div>
          {query.isPending ? (
            <div className="flex justify-center py-10">
              <Spinner label={t`Loading automation rules`} />
            </div>
          ) : query.isError ? (
            <LoadFailed
              className="px-5 py-4"
              message={t`The automation rules could not be loaded.`}
              onRetry={() => void query.refetch()}
            />
          ) : rules.length === 0 ? (
            <EmptyState
              icon={Workflow}
              title={t`No automation rules yet`}
              description={t`A rule changes tickets for you. When a ticket is created or changes and every condition of a rule holds (say, the title has “vpn”), the rule sets the team, the priority or the tags, writes an internal note or replies. Write one, try it on the open tickets, then switch it on.`}
              action={newRule}
            />
          ) : (
            <ol className="divide-y divide-slate-100" aria-label={t`Automation rules`}>
              {rules.map((rule, index) => (
                <RuleListItem
                  key={rule.id}
                  rule={rule}
                  index={index}
                  count={rules.length}
                  choices={choices}
                  isMoving={reorder.isPending}
                  onMove={(by) => void move(rules, index, by)}
                  onEdit={() => open({ kind: "edit", rule })}
                  onDelete={() => open({ kind: "delete", rule })}
                />
              ))}
            </ol>
          )}
        </section>
      </Card>
      {editing?.kind === "delete" ? (
        <ConfirmDialog
          title={t`Delete the rule “${deletedName}”?`}
          description={t`It no longer acts on tickets. What it changed stays as it is.`}
          confirmLabel={t`Delete`}
          successMessage={t`Rule deleted`}
          onConfirm={() => remove.mutateAsync(editing.rule.id)}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}
