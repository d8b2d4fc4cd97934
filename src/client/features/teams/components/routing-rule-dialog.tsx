import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { Field, Input, TextField } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { useSaveRoutingRule } from "#client/features/teams/teams.api.ts";
import { categoryLabels, labelledOptions } from "#client/lib/ticket-value-labels.ts";
import { toast } from "#client/lib/toast.ts";
import type { CustomField } from "#shared/custom-fields/custom-field.schemas.ts";
import type { RoutingRule, RoutingRuleInput } from "#shared/teams/routing-rule.schemas.ts";
import type { Team } from "#shared/teams/team.schemas.ts";
import { type TicketCategory, ticketCategories } from "#shared/tickets/ticket.schemas.ts";

interface RoutingRuleDialogProps {
  /** null: a new rule. */
  rule: RoutingRule | null;
  teams: readonly Team[];
  departments: readonly string[];
  customFields: readonly CustomField[];
  onClose: () => void;
}

const any = "";

/** "vpn, wi-fi; printer" → ["vpn", "wi-fi", "printer"]: commas or semicolons part the words or phrases. */
const wordsOf = (text: string) =>
  text
    .split(/[,;]/)
    .map((word) => word.trim())
    .filter(Boolean);

/** The value control for a field: its choices, Yes/No for a tick box, or what is typed. */
function FieldValueControl({
  id,
  field,
  value,
  onChange,
}: {
  id: string;
  field: CustomField;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useLingui();
  if (field.type === "single_choice" || field.type === "multiple_choice" || field.type === "checkbox") {
    const options =
      field.type === "checkbox"
        ? [
            { value: "true", label: t`Ticked` },
            { value: "false", label: t`Not ticked` },
          ]
        : field.options;
    return (
      <Select
        id={id}
        options={[{ value: any, label: t`Choose…` }, ...options]}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  }
  return (
    <Input
      id={id}
      type={field.type === "number" ? "number" : field.type === "date" ? "date" : "text"}
      autoComplete="off"
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/**
 * Adding or changing a routing rule: its conditions (each optional, at least one) and its team. A ticket
 * matches when every condition set holds (the title: any of the words).
 */
export function RoutingRuleDialog({
  rule,
  teams,
  departments,
  customFields,
  onClose,
}: RoutingRuleDialogProps) {
  const { t } = useLingui();
  const id = useId();
  const save = useSaveRoutingRule();
  const [category, setCategory] = useState<string>(rule?.category ?? any);
  const [department, setDepartment] = useState(rule?.department ?? any);
  const [fieldId, setFieldId] = useState(rule?.customField?.fieldId ?? any);
  const [fieldValue, setFieldValue] = useState(rule?.customField?.value ?? "");
  const [titleWords, setTitleWords] = useState(rule?.titleWords.join(", ") ?? "");
  const [teamId, setTeamId] = useState(rule?.teamId ?? any);
  const [errors, setErrors] = useState<{ conditions?: string; teamId?: string; fieldValue?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  // A retired field a rule still names is offered as it is (its value as typed).
  const retired: CustomField[] =
    rule?.customField && !customFields.some((candidate) => candidate.id === rule.customField?.fieldId)
      ? [
          {
            id: rule.customField.fieldId,
            label: rule.customField.fieldLabel,
            type: "text",
            category: null,
            required: false,
            helpText: "",
            options: [],
            position: 0,
            retired: true,
          },
        ]
      : [];
  const fields = [...customFields, ...retired];
  const field = fields.find((candidate) => candidate.id === fieldId);
  // A department the list no longer has (renamed since) is still offered, as the rule holds it.
  const departmentOptions = [...new Set([...departments, ...(rule?.department ? [rule.department] : [])])];

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const words = wordsOf(titleWords);
    const next = {
      conditions:
        !category && !department && !fieldId && words.length === 0
          ? t`A rule needs at least one condition: a category, a department, a custom field or words of the title.`
          : undefined,
      fieldValue: fieldId && !fieldValue.trim() ? t`Choose the value the field must hold.` : undefined,
      teamId: teamId ? undefined : t`Choose the team the rule sends tickets to.`,
    };
    setErrors(next);
    if (next.conditions || next.fieldValue || next.teamId) return;
    setServerError(null);
    const input: RoutingRuleInput = {
      category: (category || null) as TicketCategory | null,
      department: department || null,
      customField: fieldId ? { fieldId, value: fieldValue } : null,
      titleWords: words,
      teamId,
    };
    try {
      await save.mutateAsync({ id: rule?.id ?? null, input });
      toast.success(rule ? t`Rule saved` : t`Rule added`);
      onClose();
    } catch (error) {
      setServerError(error instanceof Error ? error.message : t`The rule could not be saved.`);
    }
  }

  return (
    <Dialog
      title={rule ? t`Edit routing rule` : t`New routing rule`}
      description={t`A new ticket goes to the rule's team when every condition you set holds.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-4">
        {serverError ? <Alert>{serverError}</Alert> : null}
        {errors.conditions ? <Alert>{errors.conditions}</Alert> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t`Category`} htmlFor={`${id}-category`}>
            <Select
              id={`${id}-category`}
              options={[
                { value: any, label: t`Any category` },
                ...labelledOptions(ticketCategories, categoryLabels),
              ]}
              value={category}
              onChange={(event) => setCategory(event.target.value)}
            />
          </Field>
          <Field label={t`Department`} htmlFor={`${id}-department`}>
            <Select
              id={`${id}-department`}
              options={[
                { value: any, label: t`Any department` },
                ...departmentOptions.map((name) => ({ value: name, label: name })),
              ]}
              value={department}
              onChange={(event) => setDepartment(event.target.value)}
            />
          </Field>
          <Field label={t`Custom field`} htmlFor={`${id}-field`}>
            <Select
              id={`${id}-field`}
              options={[
                { value: any, label: t`No custom field` },
                ...fields.map((candidate) => ({ value: candidate.id, label: candidate.label })),
              ]}
              value={fieldId}
              onChange={(event) => {
                setFieldId(event.target.value);
                setFieldValue("");
              }}
            />
          </Field>
          {field ? (
            <Field label={t`${field.label} is`} htmlFor={`${id}-value`} error={errors.fieldValue}>
              <FieldValueControl
                id={`${id}-value`}
                field={field}
                value={fieldValue}
                onChange={setFieldValue}
              />
            </Field>
          ) : null}
        </div>
        <TextField
          label={t`Title contains any of`}
          autoComplete="off"
          placeholder={t`vpn, wi-fi, network drive`}
          value={titleWords}
          onChange={(event) => setTitleWords(event.target.value)}
        />
        <p className="-mt-2 text-xs text-slate-500">
          <Trans>Whole words or phrases, any case, parted by commas.</Trans>
        </p>
        <Field label={t`Team`} htmlFor={`${id}-team`} error={errors.teamId}>
          <Select
            id={`${id}-team`}
            invalid={errors.teamId !== undefined}
            options={[
              { value: any, label: t`Choose…` },
              ...teams.map((team) => ({ value: team.id, label: team.name })),
            ]}
            value={teamId}
            onChange={(event) => setTeamId(event.target.value)}
          />
        </Field>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {rule ? t`Save rule` : t`Add rule`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
