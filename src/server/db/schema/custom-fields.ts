import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import type { CustomFieldChoice, CustomFieldType } from "#shared/custom-fields/custom-field.schemas.ts";
import { ticketCategoryEnum, tickets } from "./tickets.ts";

const stamp = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

// The fields administrators define (docs/decisions/022-custom-fields.md).
export const customFields = pgTable("custom_fields", {
  id: text("id").primaryKey(),
  label: text("label").notNull(),
  type: text("type").$type<CustomFieldType>().notNull(),
  /** Choices with stable values; empty for the other types. */
  options: jsonb("options").$type<CustomFieldChoice[]>().notNull().default([]),
  /** Null: asked for every category. */
  category: ticketCategoryEnum("category"),
  required: boolean("required").notNull().default(false),
  position: integer("position").notNull(),
  helpText: text("help_text").notNull().default(""),
  /** Hidden from forms and filters since; the values on tickets stay readable. */
  retiredAt: stamp("retired_at"),
  createdAt: stamp("created_at").notNull().defaultNow(),
  updatedAt: stamp("updated_at").notNull().defaultNow(),
});

export type CustomFieldRow = typeof customFields.$inferSelect;

// One row per value (a multiple choice: one row per chosen option), in the column of the field's type, so
// that a list filter is an EXISTS through a b-tree on (field, value, ticket) whatever the number of tickets.
export const ticketFieldValues = pgTable(
  "ticket_field_values",
  {
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    fieldId: text("field_id")
      .notNull()
      .references(() => customFields.id),
    textValue: text("text_value"),
    numberValue: doublePrecision("number_value"),
    dateValue: date("date_value", { mode: "string" }),
    boolValue: boolean("bool_value"),
  },
  (t) => [
    index("ticket_field_values_ticket_idx").on(t.ticketId, t.fieldId),
    index("ticket_field_values_text_idx")
      .on(t.fieldId, t.textValue, t.ticketId)
      .where(sql`${t.textValue} is not null`),
    index("ticket_field_values_number_idx")
      .on(t.fieldId, t.numberValue, t.ticketId)
      .where(sql`${t.numberValue} is not null`),
    index("ticket_field_values_date_idx")
      .on(t.fieldId, t.dateValue, t.ticketId)
      .where(sql`${t.dateValue} is not null`),
    index("ticket_field_values_bool_idx")
      .on(t.fieldId, t.boolValue, t.ticketId)
      .where(sql`${t.boolValue} is not null`),
  ],
);
