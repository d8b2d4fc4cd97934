import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import { ticketCategories } from "#shared/tickets/ticket.schemas.ts";

/**
 * Custom fields (docs/decisions/022-custom-fields.md): extra questions administrators add
 * to the create form, for every category or one. A field's type never changes once tickets hold values;
 * its choices keep their stored value when renamed; retiring hides it from forms and filters only.
 */
export const customFieldTypes = [
  "text",
  "number",
  "single_choice",
  "multiple_choice",
  "checkbox",
  "date",
] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];

export const customFieldTypeLabels: Record<CustomFieldType, string> = {
  text: "Text",
  number: "Number",
  single_choice: "Single choice",
  multiple_choice: "Multiple choice",
  checkbox: "Checkbox",
  date: "Date",
};

export const isChoiceType = (type: CustomFieldType) => type === "single_choice" || type === "multiple_choice";

export const customFieldIdPattern = /^cf_[0-9a-z]{8,24}$/;
export const customFieldIdSchema = z.string().regex(customFieldIdPattern, "Not a custom field id");

/** A choice's value is what tickets store and filters use: set once, kept when the label is renamed. */
export const choiceValuePattern = /^[a-z0-9][a-z0-9-]{0,59}$/;

const text = (label: string, max: number) =>
  storableText(
    z
      .string({ error: `${label} must be text` })
      .trim()
      .max(max, `${label} must be at most ${max} characters`),
    label,
  );

export const customFieldChoiceSchema = z.object({ value: z.string(), label: z.string() });
export type CustomFieldChoice = z.infer<typeof customFieldChoiceSchema>;

const choiceInputSchema = z.object(
  {
    /** Absent for a new choice: the server derives one from the label. */
    value: z
      .string({ error: "Options: a choice's value must be text" })
      .regex(choiceValuePattern, "Options: a choice's value must be lowercase letters, digits and dashes")
      .optional(),
    label: text("Options: a choice's label", 80).pipe(
      z.string().min(1, "Options: every choice needs a label"),
    ),
  },
  { error: "Options: each choice must be an object with a label" },
);

/** What an administrator sends to add or change a field. */
export const customFieldInputSchema = z
  .object({
    label: text("Label", 80).pipe(z.string().min(1, "Label is required")),
    type: z.enum(customFieldTypes, {
      error: `Type must be one of ${customFieldTypes.join(", ")}`,
    }),
    /** Null: asked for every category. */
    category: z
      .enum(ticketCategories, { error: `Category must be ${ticketCategories.join(", ")} or empty for all` })
      .nullable()
      .default(null),
    required: z.boolean({ error: "Required must be true or false" }).default(false),
    helpText: text("Help text", 300).default(""),
    options: z
      .array(choiceInputSchema, { error: "Options must be a list of choices" })
      .max(50, "Options: at most 50 choices")
      .default([]),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (!isChoiceType(input.type)) {
      if (input.options.length > 0) {
        ctx.addIssue({
          code: "custom",
          path: ["options"],
          message: "Options: only choice fields have options",
        });
      }
      return;
    }
    if (input.options.length < 2) {
      ctx.addIssue({ code: "custom", path: ["options"], message: "Options: at least two choices" });
      return;
    }
    const labels = new Set<string>();
    const values = new Set<string>();
    for (const option of input.options) {
      const key = option.label.toLowerCase();
      if (labels.has(key)) {
        ctx.addIssue({
          code: "custom",
          path: ["options"],
          message: `Options: duplicate choice '${option.label}'`,
        });
        return;
      }
      labels.add(key);
      if (option.value !== undefined) {
        if (values.has(option.value)) {
          ctx.addIssue({
            code: "custom",
            path: ["options"],
            message: `Options: duplicate choice '${option.value}'`,
          });
          return;
        }
        values.add(option.value);
      }
    }
  });
export type CustomFieldInput = z.input<typeof customFieldInputSchema>;
export type CustomFieldInputParsed = z.output<typeof customFieldInputSchema>;

export const customFieldOrderInputSchema = z
  .object({
    fieldIds: z
      .array(customFieldIdSchema, { error: "fieldIds: send every field's id in the new order" })
      .min(1, "fieldIds: send every field's id in the new order")
      .max(500),
  })
  .strict();
export type CustomFieldOrderInput = z.infer<typeof customFieldOrderInputSchema>;

export const customFieldRetiredInputSchema = z
  .object({ retired: z.boolean({ error: "retired must be true or false" }) })
  .strict();
export type CustomFieldRetiredInput = z.infer<typeof customFieldRetiredInputSchema>;

/** A definition as the app reads it (create form, filters, ticket page, admin list). */
export const customFieldSchema = z.object({
  id: z.string(),
  label: z.string(),
  type: z.enum(customFieldTypes),
  category: z.enum(ticketCategories).nullable(),
  required: z.boolean(),
  helpText: z.string(),
  options: z.array(customFieldChoiceSchema),
  position: z.number().int(),
  retired: z.boolean(),
  /** Admin list only: whether tickets hold values (the type is then fixed). */
  hasValues: z.boolean().optional(),
});
export type CustomField = z.infer<typeof customFieldSchema>;

export const customFieldListSchema = z.object({ items: z.array(customFieldSchema) });
export type CustomFieldList = z.infer<typeof customFieldListSchema>;

export const activeCustomFieldsQuerySchema = z.object({
  category: z.enum(ticketCategories, { error: `category must be ${ticketCategories.join(", ")}` }).optional(),
});

export const customFieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

/**
 * A ticket's Details: the fields asked for its category (value null when empty) and any other field that
 * holds a value, a retired one included (retired: true, read only).
 */
export const ticketCustomFieldsSchema = z.object({
  items: z.array(z.object({ field: customFieldSchema, value: customFieldValueSchema.nullable() })),
});
export type TicketCustomFields = z.infer<typeof ticketCustomFieldsSchema>;

/** Staff's edit of a ticket's Details: every asked field's value (absent or null clears an optional one). */
export const editTicketCustomFieldsInputSchema = z
  .object({
    values: z.record(z.string(), z.unknown(), { error: "values must be an object of field id → value" }),
  })
  .strict();
export type EditTicketCustomFieldsInput = z.infer<typeof editTicketCustomFieldsInputSchema>;
