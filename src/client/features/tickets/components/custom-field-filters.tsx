import { t } from "@lingui/core/macro";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { Field } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { activeCustomFieldsQuery } from "#client/features/tickets/custom-fields.api.ts";
import {
  customFieldFilterParam,
  customFieldFilterPattern,
} from "#shared/custom-fields/custom-field-values.ts";

/** ?cf=<fieldId>:<value> (repeated): the custom field filters in a page's URL. */
export const customFieldFiltersFrom = (params: URLSearchParams) =>
  params.getAll("cf").filter((filter) => customFieldFilterPattern.test(filter));

/** The URL's query string with one field's filter set (or removed when `value` is empty). */
export function withCustomFieldFilter(params: URLSearchParams, fieldId: string, value: string) {
  const next = new URLSearchParams(params);
  const kept = next.getAll("cf").filter((filter) => !filter.startsWith(`${fieldId}:`));
  next.delete("cf");
  for (const filter of kept) next.append("cf", filter);
  if (value) next.append("cf", customFieldFilterParam(fieldId, value));
  return next;
}

/** A filter for each active choice or checkbox custom field; nothing when there are none. */
export function CustomFieldFilters({
  value,
  onChange,
}: {
  value: readonly string[];
  onChange: (fieldId: string, value: string) => void;
}) {
  const id = useId();
  const fields = (useQuery(activeCustomFieldsQuery()).data?.items ?? []).filter(
    (field) =>
      field.type === "single_choice" || field.type === "multiple_choice" || field.type === "checkbox",
  );
  if (fields.length === 0) return null;
  const current = (fieldId: string) =>
    value.find((filter) => filter.startsWith(`${fieldId}:`))?.slice(fieldId.length + 1) ?? "";

  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {fields.map((field) => (
        <Field key={field.id} label={field.label} htmlFor={`${id}-${field.id}`}>
          <Select
            id={`${id}-${field.id}`}
            name={`field-${field.id}`}
            value={current(field.id)}
            onChange={(event) => onChange(field.id, event.target.value)}
            options={[
              { value: "", label: t`All` },
              ...(field.type === "checkbox"
                ? [
                    { value: "true", label: t`Yes` },
                    { value: "false", label: t`No` },
                  ]
                : field.options),
            ]}
          />
        </Field>
      ))}
    </div>
  );
}
