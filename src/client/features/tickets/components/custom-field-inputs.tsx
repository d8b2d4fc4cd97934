import { Trans } from "@lingui/react/macro";
import type { UseFormRegisterReturn } from "react-hook-form";
import { Field, Input } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import type { CustomField } from "#shared/custom-fields/custom-field.schemas.ts";

export type CustomFieldPath = `customFields.${string}`;

interface CustomFieldInputsProps {
  /** The fields to ask, in order (fieldsForCategory). */
  fields: readonly CustomField[];
  register: (name: CustomFieldPath) => UseFormRegisterReturn;
  errorOf: (fieldId: string) => string | undefined;
  idPrefix: string;
  /**
   * What each field held as a form posted without the app's code sent it (decision 065), written into the
   * page drawn again: react-hook-form puts its values in only once the code runs.
   */
  posted?: Readonly<Record<string, string | readonly string[] | undefined>>;
}

const labelOf = (field: CustomField) => (field.required ? `${field.label} *` : field.label);

/** The create form's (and the staff edit's) inputs for custom fields: one control per type, help below. */
export function CustomFieldInputs({ fields, register, errorOf, idPrefix, posted }: CustomFieldInputsProps) {
  return fields.map((field) => {
    const id = `${idPrefix}-${field.id}`;
    const error = errorOf(field.id);
    const name: CustomFieldPath = `customFields.${field.id}`;
    const sent = posted?.[name];
    const sentList = sent === undefined ? [] : typeof sent === "string" ? [sent] : sent;
    const help = field.helpText ? (
      <p id={`${id}-help`} className="text-xs text-slate-500">
        {field.helpText}
      </p>
    ) : null;
    const describedBy = field.helpText ? { "aria-describedby": `${id}-help` } : {};
    if (field.type === "checkbox" || field.type === "multiple_choice") {
      return (
        <fieldset key={field.id} className="flex flex-col gap-1.5 sm:col-span-3" {...describedBy}>
          <legend className="mb-1.5 text-sm font-medium text-slate-700">{labelOf(field)}</legend>
          {field.type === "checkbox" ? (
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className="size-4 rounded border-slate-300"
                defaultChecked={posted ? sent !== undefined : undefined}
                {...register(name)}
              />
              <Trans>Yes</Trans>
            </label>
          ) : (
            field.options.map((option) => (
              <label key={option.value} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  value={option.value}
                  className="size-4 rounded border-slate-300"
                  defaultChecked={posted ? sentList.includes(option.value) : undefined}
                  {...register(name)}
                />
                {option.label}
              </label>
            ))
          )}
          {help}
          {error ? <p className="text-sm text-red-600">{error}</p> : null}
        </fieldset>
      );
    }
    return (
      <Field key={field.id} label={labelOf(field)} htmlFor={id} error={error} className="sm:col-span-3">
        {field.type === "single_choice" ? (
          <Select
            id={id}
            invalid={error !== undefined}
            options={[{ value: "", label: "—" }, ...field.options]}
            defaultValue={sentList[0]}
            {...describedBy}
            {...register(name)}
          />
        ) : (
          <Input
            id={id}
            type={field.type === "number" ? "number" : field.type === "date" ? "date" : "text"}
            step={field.type === "number" ? "any" : undefined}
            invalid={error !== undefined}
            autoComplete="off"
            aria-required={field.required || undefined}
            defaultValue={sentList[0]}
            {...describedBy}
            {...register(name)}
          />
        )}
        {help}
      </Field>
    );
  });
}
