import { Trans, useLingui } from "@lingui/react/macro";
import { Trash2 } from "lucide-react";
import { Button } from "#client/components/ui/button.tsx";
import { Field, Input, Textarea, TextField } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { type ConditionDraft, draftFor, none } from "#client/features/automation/rule-form-model.ts";
import {
  clockLabels,
  conditionFieldLabels,
  priorityLabel,
  type RuleChoices,
  statusLabel,
} from "#client/features/automation/rule-labels.ts";
import { i18n } from "#client/lib/i18n.ts";
import { categoryLabels, labelledOptions } from "#client/lib/ticket-value-labels.ts";
import { ruleElapsedHoursMax } from "#shared/automation/rule-conditions.schemas.ts";
import { type RuleConditionField, ruleClocks } from "#shared/automation/rule-conditions.ts";
import { ticketCategories, ticketPriorities, ticketStatuses } from "#shared/tickets/ticket.schemas.ts";

interface ConditionRowProps {
  /** The row's place, from 1, for its legend and its buttons' names. */
  number: number;
  draft: ConditionDraft;
  /** The fields the rule's trigger allows (and this row's own, should the trigger have changed since). */
  fields: readonly RuleConditionField[];
  choices: RuleChoices;
  /** What the shared schema or the server said of this row. */
  error?: string;
  onChange: (draft: ConditionDraft) => void;
  onRemove: () => void;
}

/** The fields compared with "is" or "is not"; the others say yes or no by their value. */
const hasComparison = (field: RuleConditionField) =>
  !["words", "on_hold", "changed_by", "elapsed"].includes(field);

/** One condition of a rule: what it reads, how it compares, and the value, each with its own control. */
export function ConditionRow({
  number,
  draft,
  fields,
  choices,
  error,
  onChange,
  onRemove,
}: ConditionRowProps) {
  const { t } = useLingui();
  const id = `condition-${draft.key}`;
  const set = (patch: Partial<ConditionDraft>) => onChange({ ...draft, ...patch });
  const offered = fields.includes(draft.field) ? fields : [...fields, draft.field];

  return (
    <fieldset
      className="flex flex-col gap-3 rounded-lg border border-slate-200 p-3"
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className="px-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">
        <Trans>Condition {number}</Trans>
      </legend>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field label={t`Field`} htmlFor={`${id}-field`} className="sm:w-44">
          <Select
            id={`${id}-field`}
            options={offered.map((field) => ({ value: field, label: i18n._(conditionFieldLabels[field]) }))}
            value={draft.field}
            onChange={(event) =>
              onChange(draftFor(event.target.value as RuleConditionField, choices, draft.key))
            }
          />
        </Field>
        {hasComparison(draft.field) ? (
          <Field label={t`Comparison`} htmlFor={`${id}-op`} className="sm:w-32">
            <Select
              id={`${id}-op`}
              options={[
                { value: "is", label: t`is` },
                { value: "is_not", label: t`is not` },
              ]}
              value={draft.op}
              onChange={(event) => set({ op: event.target.value as ConditionDraft["op"] })}
            />
          </Field>
        ) : null}
        <div className="min-w-0 flex-1">
          <ConditionValue id={id} draft={draft} choices={choices} set={set} />
        </div>
        <Button
          variant="ghost"
          size="sm"
          className="self-end"
          aria-label={t`Remove condition ${number}`}
          onClick={onRemove}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          <span className="sm:sr-only">
            <Trans>Remove</Trans>
          </span>
        </Button>
      </div>
      {draft.field === "words" || draft.field === "elapsed" || draft.field === "custom_field" ? (
        <ConditionDetails id={id} draft={draft} choices={choices} set={set} />
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

interface ValueProps {
  id: string;
  draft: ConditionDraft;
  choices: RuleChoices;
  set: (patch: Partial<ConditionDraft>) => void;
}

/** The value's control on the row's first line: a select of the field's values, or a text box. */
function ConditionValue({ id, draft, choices, set }: ValueProps) {
  const { t } = useLingui();
  const select = (
    label: string,
    options: { value: string; label: string }[],
    part: "value" | "in" | "fieldId" | "since" = "value",
  ) => (
    <Field label={label} htmlFor={`${id}-value`}>
      <Select
        id={`${id}-value`}
        options={options}
        value={draft[part]}
        // A custom field chosen anew starts with no value: the old one was another field's.
        onChange={(event) =>
          set({ [part]: event.target.value, ...(part === "fieldId" ? { value: "" } : {}) })
        }
      />
    </Field>
  );
  const text = (label: string, suggestions?: readonly string[]) => (
    <TextField
      id={`${id}-value`}
      label={label}
      autoComplete="off"
      suggestions={suggestions}
      value={draft.value}
      onChange={(event) => set({ value: event.target.value })}
    />
  );
  switch (draft.field) {
    case "status":
      return select(
        t`Status`,
        ticketStatuses.map((status) => ({ value: status, label: statusLabel(status) })),
      );
    case "priority":
      return select(
        t`Priority`,
        ticketPriorities.map((priority) => ({ value: priority, label: priorityLabel(priority) })),
      );
    case "category":
      return select(t`Category`, labelledOptions(ticketCategories, categoryLabels));
    case "team":
      return select(t`Team`, [
        { value: none, label: t`No team` },
        ...choices.teams.map((team) => ({ value: team.id, label: team.name })),
      ]);
    case "assignee":
      return select(t`Assignee`, [
        { value: none, label: t`Unassigned` },
        ...choices.technicians.map((person) => ({ value: person.id, label: person.name })),
      ]);
    case "tag":
      return text(t`Tag`);
    case "department":
      return text(t`Department`, choices.departments);
    case "on_hold":
      return select(t`On hold`, [
        { value: "true", label: t`Yes` },
        { value: "false", label: t`No` },
      ]);
    case "changed_by":
      return select(t`Changed by`, [
        { value: "requester", label: t`The requester` },
        { value: "staff", label: t`Staff (a technician or an administrator)` },
      ]);
    case "words":
      return select(
        t`Look in`,
        [
          { value: "title", label: t`In the title` },
          { value: "title_or_description", label: t`In the title or description` },
        ],
        "in",
      );
    case "custom_field":
      return select(
        t`Custom field`,
        [
          ...(choices.customFields.some((field) => field.id === draft.fieldId) || !draft.fieldId
            ? []
            : [{ value: draft.fieldId, label: draft.fieldId }]),
          ...choices.customFields.map((field) => ({ value: field.id, label: field.label })),
        ],
        "fieldId",
      );
    case "elapsed":
      return select(
        t`Counted`,
        ruleClocks.map((clock) => ({ value: clock, label: i18n._(clockLabels[clock]) })),
        "since",
      );
  }
}

/** The second line of a row whose value needs more room: the phrases, the hours, a custom field's value. */
function ConditionDetails({ id, draft, choices, set }: ValueProps) {
  const { t } = useLingui();
  if (draft.field === "words") {
    return (
      <Field label={t`Words or phrases (one a line, or parted by commas)`} htmlFor={`${id}-phrases`}>
        <Textarea
          id={`${id}-phrases`}
          rows={2}
          className="min-h-16"
          value={draft.phrases}
          onChange={(event) => set({ phrases: event.target.value })}
        />
      </Field>
    );
  }
  if (draft.field === "elapsed") {
    return (
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field label={t`Hours`} htmlFor={`${id}-hours`} className="sm:w-32">
          <Input
            id={`${id}-hours`}
            type="number"
            inputMode="decimal"
            min={0}
            max={ruleElapsedHoursMax}
            step="any"
            value={draft.hours}
            onChange={(event) => set({ hours: event.target.value })}
          />
        </Field>
        <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="size-4 rounded border-slate-300 accent-indigo-600"
            checked={draft.business}
            onChange={(event) => set({ business: event.target.checked })}
          />
          <Trans>In business hours</Trans>
        </label>
      </div>
    );
  }
  const field = choices.customFields.find((candidate) => candidate.id === draft.fieldId);
  // As routing compares a custom field (decision 069): a choice by its value, a tick box as true or false.
  const options =
    field?.type === "checkbox"
      ? [
          { value: "true", label: t`Ticked` },
          { value: "false", label: t`Not ticked` },
        ]
      : (field?.options ?? []);
  if (options.length > 0) {
    return (
      <Field label={t`Value`} htmlFor={`${id}-field-value`}>
        <Select
          id={`${id}-field-value`}
          options={[{ value: "", label: t`Choose…` }, ...options]}
          value={draft.value}
          onChange={(event) => set({ value: event.target.value })}
        />
      </Field>
    );
  }
  return (
    <TextField
      id={`${id}-field-value`}
      label={t`Value`}
      type={field?.type === "number" ? "number" : field?.type === "date" ? "date" : "text"}
      autoComplete="off"
      value={draft.value}
      onChange={(event) => set({ value: event.target.value })}
    />
  );
}
