import { z } from "zod";
import { unstorableTextReason } from "#shared/text/storable-text.ts";
import type { TicketCategory } from "#shared/tickets/ticket.schemas.ts";
import type { CustomField } from "./custom-field.schemas.ts";

/** One field's value on the wire: text, number, a choice's value, several, a tick, or a date (YYYY-MM-DD). */
export type CustomFieldValue = string | number | boolean | string[];
export type CustomFieldValues = Record<string, CustomFieldValue>;

export const customFieldTextMax = 500;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/** The active fields the create form asks for a category, in their order. */
export function fieldsForCategory<F extends Pick<CustomField, "category" | "retired" | "position">>(
  definitions: readonly F[],
  category: TicketCategory,
): F[] {
  return definitions
    .filter((field) => !field.retired && (field.category === null || field.category === category))
    .sort((a, b) => a.position - b.position);
}

const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

const isValidDate = (value: string) => {
  if (!datePattern.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
};

type Checked = { value?: CustomFieldValue; error?: string };

/** Checks one value against its definition; an empty optional value is "no value". */
export function checkCustomFieldValue(field: CustomField, raw: unknown): Checked {
  const { label } = field;
  if (field.type === "checkbox") {
    if (isEmpty(raw)) return field.required ? { error: `${label} must be ticked` } : {};
    if (typeof raw !== "boolean") return { error: `${label} must be ticked or not (true or false)` };
    if (field.required && !raw) return { error: `${label} must be ticked` };
    return { value: raw };
  }
  const value = typeof raw === "string" ? raw.trim() : raw;
  if (isEmpty(value)) return field.required ? { error: `${label} is required` } : {};
  switch (field.type) {
    case "text": {
      if (typeof value !== "string") return { error: `${label} must be text` };
      if (value.length > customFieldTextMax) {
        return { error: `${label} must be at most ${customFieldTextMax} characters` };
      }
      const reason = unstorableTextReason(value, label);
      return reason ? { error: reason } : { value };
    }
    case "number": {
      const number = typeof value === "string" ? Number(value) : value;
      if (typeof number !== "number" || !Number.isFinite(number))
        return { error: `${label} must be a number` };
      return { value: number };
    }
    case "date":
      if (typeof value !== "string" || !isValidDate(value)) {
        return { error: `${label} must be a date (YYYY-MM-DD)` };
      }
      return { value };
    case "single_choice": {
      if (typeof value !== "string") return { error: `${label} must be one of its choices` };
      if (!field.options.some((option) => option.value === value)) {
        return { error: `${label}: '${value}' is not one of the choices` };
      }
      return { value };
    }
    case "multiple_choice": {
      if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
        return { error: `${label} must be a list of its choices` };
      }
      const unknown = value.find((item) => !field.options.some((option) => option.value === item));
      if (unknown !== undefined) return { error: `${label}: '${unknown}' is not one of the choices` };
      // Stored in the definition's order, each once.
      return {
        value: field.options.map((option) => option.value).filter((choice) => value.includes(choice)),
      };
    }
  }
}

/**
 * The custom field values of a ticket in `category`, built from the definitions: required fields present,
 * types and choices checked, unknown or retired fields refused, each message naming the field. Returns the
 * values to store (empty optional values left out). The create form and the server use the same builder.
 */
export function valuesSchemaFor(definitions: readonly CustomField[], category: TicketCategory) {
  const asked = fieldsForCategory(definitions, category);
  const byId = new Map(definitions.map((field) => [field.id, field]));
  return z
    .record(z.string(), z.unknown(), { error: "Custom fields must be an object of field id → value" })
    .optional()
    .transform((input, ctx): CustomFieldValues => {
      const values: CustomFieldValues = {};
      for (const key of Object.keys(input ?? {})) {
        const field = byId.get(key);
        if (!field) {
          ctx.addIssue({ code: "custom", path: [key], message: `Custom fields: there is no field '${key}'` });
        } else if (field.retired) {
          ctx.addIssue({ code: "custom", path: [key], message: `${field.label} is no longer asked for` });
        } else if (!asked.includes(field)) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `${field.label} is not asked for ${category}`,
          });
        }
      }
      for (const field of asked) {
        const checked = checkCustomFieldValue(field, input?.[field.id]);
        if (checked.error) ctx.addIssue({ code: "custom", path: [field.id], message: checked.error });
        else if (checked.value !== undefined) values[field.id] = checked.value;
      }
      return values;
    });
}

/** Only the values of the fields asked for `category` (the form keeps what was typed for other categories). */
export function pickValuesFor(
  definitions: readonly CustomField[],
  category: TicketCategory,
  values: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const asked = new Set(fieldsForCategory(definitions, category).map((field) => field.id));
  return Object.fromEntries(Object.entries(values ?? {}).filter(([key]) => asked.has(key)));
}

/** How a value reads on the ticket page and in the timeline: choices by their label, ticks as Yes/No. */
export function formatCustomFieldValue(
  field: Pick<CustomField, "type" | "options">,
  value: CustomFieldValue | null,
): string {
  if (value === null) return "—";
  const labelOf = (choice: string) =>
    field.options.find((option) => option.value === choice)?.label ?? choice;
  if (Array.isArray(value)) return value.length === 0 ? "—" : value.map(labelOf).join(", ");
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (field.type === "single_choice" && typeof value === "string") return labelOf(value);
  return String(value);
}

/** A list filter `cf=<fieldId>:<value>`: tickets whose field holds that value (a choice's value, true/false). */
export const customFieldFilterPattern = /^(cf_[0-9a-z]{8,24}):(.{1,200})$/s;
export const customFieldFilterParam = (fieldId: string, value: string) => `${fieldId}:${value}`;
