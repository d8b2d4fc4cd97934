import { Trans, useLingui } from "@lingui/react/macro";
import { Plus, Trash2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { Field, Input, Textarea, TextField } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { useSaveCustomField } from "#client/features/settings/custom-fields.api.ts";
import { toast } from "#client/lib/toast.ts";
import {
  type CustomField,
  type CustomFieldInput,
  type CustomFieldType,
  customFieldInputSchema,
  customFieldTypeLabels,
  customFieldTypes,
  isChoiceType,
} from "#shared/custom-fields/custom-field.schemas.ts";
import { type TicketCategory, ticketCategories } from "#shared/tickets/ticket.schemas.ts";

type Choice = { value?: string; label: string; key: string };

let nextKey = 0;
const keyed = (choice: { value?: string; label: string }): Choice => ({ ...choice, key: `c${nextKey++}` });

/** Add or change a custom field; the shared schema checks it here and again on the server. */
export function CustomFieldDialog({ field, onClose }: { field: CustomField | null; onClose: () => void }) {
  const { t } = useLingui();
  const id = useId();
  const save = useSaveCustomField();
  const [label, setLabel] = useState(field?.label ?? "");
  const [type, setType] = useState<CustomFieldType>(field?.type ?? "text");
  const [category, setCategory] = useState<TicketCategory | "">(field?.category ?? "");
  const [required, setRequired] = useState(field?.required ?? false);
  const [helpText, setHelpText] = useState(field?.helpText ?? "");
  const [choices, setChoices] = useState<Choice[]>(
    field?.options.length ? field.options.map(keyed) : [keyed({ label: "" }), keyed({ label: "" })],
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const isTypeFixed = field?.hasValues === true;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const input: CustomFieldInput = {
      label,
      type,
      category: category === "" ? null : category,
      required,
      helpText,
      options: isChoiceType(type)
        ? choices.map(({ value, label }) => (value ? { value, label } : { label }))
        : [],
    };
    const parsed = customFieldInputSchema.safeParse(input);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? "form");
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: field?.id ?? null, input });
      toast.success(field ? t`Custom field saved` : t`Custom field added`);
      onClose();
    } catch (error) {
      setServerError(error instanceof Error ? error.message : t`The field could not be saved`);
    }
  };

  return (
    <Dialog
      title={field ? t`Edit “${field.label}”` : t`Add a custom field`}
      description={t`Asked on the create form of the chosen category, shown on the ticket and offered as a filter.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-4">
        <TextField
          label={t`Label`}
          value={label}
          error={errors.label}
          autoComplete="off"
          onChange={(event) => setLabel(event.target.value)}
        />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field label={t`Type`} htmlFor={`${id}-type`} error={errors.type}>
            <Select
              id={`${id}-type`}
              value={type}
              disabled={isTypeFixed}
              onChange={(event) => setType(event.target.value as CustomFieldType)}
              options={customFieldTypes.map((value) => ({ value, label: customFieldTypeLabels[value] }))}
            />
          </Field>
          <Field label={t`Category`} htmlFor={`${id}-category`} error={errors.category}>
            <Select
              id={`${id}-category`}
              value={category}
              onChange={(event) => setCategory(event.target.value as TicketCategory | "")}
              options={[
                { value: "", label: t`All categories` },
                ...ticketCategories.map((value) => ({ value, label: value })),
              ]}
            />
          </Field>
        </div>
        {isTypeFixed ? (
          <p className="-mt-2 text-xs text-slate-600">
            <Trans>Tickets hold values, so the type stays as it is.</Trans>
          </p>
        ) : null}
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="size-4 rounded border-slate-300"
            checked={required}
            onChange={(event) => setRequired(event.target.checked)}
          />
          <Trans>Required</Trans>
        </label>
        <Field label={t`Help text`} htmlFor={`${id}-help`} error={errors.helpText}>
          <Textarea
            id={`${id}-help`}
            rows={2}
            className="min-h-16"
            value={helpText}
            invalid={errors.helpText !== undefined}
            onChange={(event) => setHelpText(event.target.value)}
          />
        </Field>
        {isChoiceType(type) ? (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-slate-700">
              <Trans>Choices</Trans>
            </legend>
            {choices.map((choice, index) => (
              <div key={choice.key} className="flex items-center gap-2">
                <Input
                  aria-label={t`Choice ${index + 1}`}
                  value={choice.label}
                  autoComplete="off"
                  onChange={(event) =>
                    setChoices(
                      choices.map((other) =>
                        other.key === choice.key ? { ...other, label: event.target.value } : other,
                      ),
                    )
                  }
                />
                {choice.value === undefined ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={t`Remove choice ${index + 1}`}
                    onClick={() => setChoices(choices.filter((other) => other.key !== choice.key))}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                  </Button>
                ) : null}
              </div>
            ))}
            {errors.options ? <p className="text-sm text-red-600">{errors.options}</p> : null}
            <div>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => setChoices([...choices, keyed({ label: "" })])}
              >
                <Plus aria-hidden="true" className="size-4" /> <Trans>Add a choice</Trans>
              </Button>
            </div>
          </fieldset>
        ) : null}
        {serverError ? <Alert>{serverError}</Alert> : null}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {field ? t`Save field` : t`Add field`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
