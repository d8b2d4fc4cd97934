import { Trans, useLingui } from "@lingui/react/macro";
import { Plus } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Field, TextField } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { useSaveAutomationRule } from "#client/features/automation/automation.api.ts";
import {
  conditionFieldsFor,
  draftFor,
  errorsByPlace,
  type FormErrors,
  type RuleDraft,
  ruleDraftOf,
  ruleInputOf,
} from "#client/features/automation/rule-form-model.ts";
import { type RuleChoices, triggerLabels } from "#client/features/automation/rule-labels.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { i18n } from "#client/lib/i18n.ts";
import { toast } from "#client/lib/toast.ts";
import {
  type AutomationRule,
  automationRuleInputSchema,
  automationRuleTryInputSchema,
  ruleNameMaxLength,
} from "#shared/automation/automation-rule.schemas.ts";
import { ruleConditionsMax } from "#shared/automation/rule-conditions.schemas.ts";
import { type RuleTrigger, ruleTriggers } from "#shared/automation/rule-conditions.ts";
import { ConditionRow } from "./condition-row.tsx";
import { ruleActionEditors } from "./rule-action-editors.tsx";
import { TryRule } from "./try-rule.tsx";

interface AutomationRuleFormProps {
  /** null: a new rule. */
  rule: AutomationRule | null;
  choices: RuleChoices;
  onClose: () => void;
}

/**
 * What the shared schemas say of the rule as the form has it, by place. The conditions are checked on their
 * own too: the whole rule's check reaches them only once the name and the actions are right.
 */
function checkedErrors(input: ReturnType<typeof ruleInputOf>): FormErrors | null {
  const whole = automationRuleInputSchema.safeParse(input);
  if (whole.success) return null;
  const conditions = automationRuleTryInputSchema.safeParse(input);
  return errorsByPlace([...whole.error.issues, ...(conditions.success ? [] : conditions.error.issues)]);
}

/**
 * Adding or changing an automation rule (decision 076), as a section of the page: its name, when it runs,
 * its conditions (all must hold), its actions, whether it is on, and Try. The shared schemas check it
 * before it is sent; the server has the last word (a name taken, a team deleted since).
 */
export function AutomationRuleForm({ rule, choices, onClose }: AutomationRuleFormProps) {
  const { t } = useLingui();
  const id = useId();
  const save = useSaveAutomationRule();
  const [draft, setDraft] = useState<RuleDraft>(() => ruleDraftOf(rule));
  const [errors, setErrors] = useState<FormErrors>({});
  const nameRef = useRef<HTMLInputElement>(null);
  const update = (patch: Partial<RuleDraft>) => setDraft((current) => ({ ...current, ...patch }));

  useEffect(() => nameRef.current?.focus(), []);

  function handleTrigger(trigger: RuleTrigger) {
    setDraft((current) => ({
      ...current,
      trigger,
      // A time-based rule needs a "time since" condition: one is offered at once.
      conditions:
        trigger === "time" && !current.conditions.some((condition) => condition.field === "elapsed")
          ? [...current.conditions, draftFor("elapsed", choices)]
          : current.conditions,
    }));
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const input = ruleInputOf(draft);
    const found = checkedErrors(input);
    setErrors(found ?? {});
    if (found) return;
    try {
      await save.mutateAsync({ id: rule?.id ?? null, input });
      toast.success(rule ? t`Rule saved` : t`Rule added`);
      onClose();
    } catch (error) {
      if (isApiError(error, 409)) setErrors({ name: error.message });
      else if (isApiError(error) && error.issues.length > 0) setErrors(errorsByPlace(error.issues));
      else setErrors({ "": error instanceof Error ? error.message : t`The rule could not be saved.` });
    }
  }

  const hasErrors = Object.keys(errors).length > 0;
  // An issue the form has no place for (one about a field no control edits) is said at the top.
  const placed = new Set([
    "name",
    "trigger",
    "conditions",
    "actions",
    ...draft.conditions.map((_, index) => `conditions.${index}`),
    ...ruleActionEditors.flatMap(({ fields }) => fields.map((field) => `actions.${field}`)),
  ]);
  const unplaced = Object.entries(errors).find(([place]) => !placed.has(place))?.[1];
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-5">
      <div>
        <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
          {rule ? t`Edit automation rule` : t`New automation rule`}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          <Trans>When every condition holds for a ticket, the rule makes its changes to it.</Trans>
        </p>
      </div>
      <form noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-5">
        {hasErrors ? <Alert>{unplaced ?? t`The rule was not saved: see the messages below.`}</Alert> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            ref={nameRef}
            label={t`Name`}
            autoComplete="off"
            maxLength={ruleNameMaxLength}
            value={draft.name}
            error={errors.name}
            onChange={(event) => update({ name: event.target.value })}
          />
          <Field label={t`When it runs`} htmlFor={`${id}-trigger`} error={errors.trigger}>
            <Select
              id={`${id}-trigger`}
              options={ruleTriggers.map((trigger) => ({
                value: trigger,
                label: i18n._(triggerLabels[trigger]),
              }))}
              value={draft.trigger}
              onChange={(event) => handleTrigger(event.target.value as RuleTrigger)}
            />
            {draft.trigger === "time" ? (
              <p className="text-xs text-slate-500">
                <Trans>
                  Checked every minute; the rule acts on each open ticket once, when its time since has
                  passed.
                </Trans>
              </p>
            ) : null}
          </Field>
        </div>
        <ConditionsSection draft={draft} choices={choices} errors={errors} onChange={update} />
        <TryRule
          input={() => {
            const { trigger, conditions } = ruleInputOf(draft);
            return { trigger, conditions };
          }}
        />
        <fieldset className="flex flex-col gap-4">
          <legend className="mb-1 text-sm font-semibold text-slate-900">
            <Trans>Actions</Trans>
          </legend>
          {errors.actions ? <p className="text-sm text-red-600">{errors.actions}</p> : null}
          {ruleActionEditors.map(({ key, Editor }) => (
            <Editor
              key={key}
              actions={draft.actions}
              choices={choices}
              errors={errors}
              onChange={(patch) =>
                setDraft((current) => ({ ...current, actions: { ...current.actions, ...patch } }))
              }
            />
          ))}
        </fieldset>
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600"
            checked={draft.enabled}
            onChange={(event) => update({ enabled: event.target.checked })}
          />
          <span>
            <Trans>On: the rule runs from the moment it is saved</Trans>
          </span>
        </label>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {rule ? t`Save rule` : t`Add rule`}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** The conditions, a row each, added and removed; the fields offered are those the trigger allows. */
function ConditionsSection({
  draft,
  choices,
  errors,
  onChange,
}: {
  draft: RuleDraft;
  choices: RuleChoices;
  errors: FormErrors;
  onChange: (patch: Partial<RuleDraft>) => void;
}) {
  const { t } = useLingui();
  const fields = conditionFieldsFor(draft.trigger);
  const conditions = draft.conditions;
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-1 text-sm font-semibold text-slate-900">
        <Trans>Conditions</Trans>
      </legend>
      <p className="text-sm text-slate-600">
        {conditions.length === 0 ? (
          <Trans>No conditions: the rule acts on every ticket its trigger brings.</Trans>
        ) : (
          <Trans>Every condition must hold.</Trans>
        )}
      </p>
      {errors.conditions ? <p className="text-sm text-red-600">{errors.conditions}</p> : null}
      {conditions.map((condition, index) => (
        <ConditionRow
          key={condition.key}
          number={index + 1}
          draft={condition}
          fields={fields}
          choices={choices}
          error={errors[`conditions.${index}`]}
          onChange={(next) => onChange({ conditions: conditions.map((c, i) => (i === index ? next : c)) })}
          onRemove={() => onChange({ conditions: conditions.filter((_, i) => i !== index) })}
        />
      ))}
      <div>
        <Button
          variant="secondary"
          size="sm"
          disabled={conditions.length >= ruleConditionsMax}
          onClick={() => onChange({ conditions: [...conditions, draftFor(fields[0]!, choices)] })}
        >
          <Plus aria-hidden="true" className="size-4" />
          {t`Add condition`}
        </Button>
      </div>
    </fieldset>
  );
}
