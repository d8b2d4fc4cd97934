import { Trans, useLingui } from "@lingui/react/macro";
import { ArrowDown, ArrowUp, Pencil, Trash2 } from "lucide-react";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { useSetAutomationRuleEnabled } from "#client/features/automation/automation.api.ts";
import { type RuleChoices, ruleSummary, triggerLabels } from "#client/features/automation/rule-labels.ts";
import { i18n } from "#client/lib/i18n.ts";
import { toast } from "#client/lib/toast.ts";
import type { AutomationRule } from "#shared/automation/automation-rule.schemas.ts";

interface RuleListItemProps {
  rule: AutomationRule;
  index: number;
  count: number;
  choices: RuleChoices;
  isMoving: boolean;
  onMove: (by: -1 | 1) => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One rule: its place, name, trigger, what it asks and does in words, its switch, and its buttons. */
export function RuleListItem({
  rule,
  index,
  count,
  choices,
  isMoving,
  onMove,
  onEdit,
  onDelete,
}: RuleListItemProps) {
  const { t } = useLingui();
  const summary = ruleSummary(rule, choices);
  const { name } = rule;

  return (
    <li className="flex flex-col gap-3 px-5 py-4 lg:flex-row lg:items-start">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className="mt-0.5 w-5 shrink-0 text-right font-mono text-xs text-slate-500">{index + 1}.</span>
        <div className="min-w-0 flex-1">
          <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold break-words text-slate-900">
            {name}
            <Badge tone="slate">{i18n._(triggerLabels[rule.trigger])}</Badge>
          </h3>
          <p className="mt-1 text-sm break-words text-slate-700">
            {summary.conditions} <span aria-hidden="true">→</span>
            <span className="sr-only">{t`then`}</span>{" "}
            <span className="text-slate-900">{summary.actions}</span>
          </p>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2 sm:pl-8 lg:pl-0">
        <EnabledSwitch rule={rule} />
        <Button
          size="sm"
          variant="ghost"
          aria-label={t`Move ${name} up`}
          disabled={index === 0 || isMoving}
          onClick={() => onMove(-1)}
        >
          <ArrowUp aria-hidden="true" className="size-4" />
        </Button>
        <Button
          size="sm"
          variant="ghost"
          aria-label={t`Move ${name} down`}
          disabled={index === count - 1 || isMoving}
          onClick={() => onMove(1)}
        >
          <ArrowDown aria-hidden="true" className="size-4" />
        </Button>
        <Button size="sm" variant="secondary" aria-label={t`Edit ${name}`} title={t`Edit`} onClick={onEdit}>
          <Pencil aria-hidden="true" className="size-4" />
          {/* At phone width the icons alone, so one line holds the switch and every button. */}
          <span className="hidden sm:inline">
            <Trans>Edit</Trans>
          </span>
        </Button>
        <Button size="sm" variant="ghost" aria-label={t`Delete ${name}`} title={t`Delete`} onClick={onDelete}>
          <Trash2 aria-hidden="true" className="size-4" />
          <span className="hidden sm:inline">
            <Trans>Delete</Trans>
          </span>
        </Button>
      </div>
    </li>
  );
}

/** On or off, saved at once (PUT …/enabled); the switch shows the new state while it is sent. */
function EnabledSwitch({ rule }: { rule: AutomationRule }) {
  const { t } = useLingui();
  const { name } = rule;
  const setEnabled = useSetAutomationRuleEnabled();
  const isOn = setEnabled.isPending ? (setEnabled.variables?.enabled ?? rule.enabled) : rule.enabled;

  return (
    <span className="mr-2 inline-flex items-center gap-2">
      <button
        type="button"
        role="switch"
        aria-checked={isOn}
        aria-label={name}
        disabled={setEnabled.isPending}
        onClick={() =>
          setEnabled.mutate(
            { id: rule.id, enabled: !isOn },
            {
              onSuccess: (saved) => toast.success(saved.enabled ? t`“${name}” is on` : t`“${name}” is off`),
              onError: (error) => toast.error(error.message),
            },
          )
        }
        className={cn(
          "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
          "disabled:opacity-60",
          isOn ? "bg-indigo-600" : "bg-slate-300",
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            "inline-block size-5 rounded-full bg-white shadow transition-transform",
            isOn ? "translate-x-5.5" : "translate-x-0.5",
          )}
        />
      </button>
      <span aria-hidden="true" className="w-7 text-sm text-slate-700">
        {isOn ? t`On` : t`Off`}
      </span>
    </span>
  );
}
