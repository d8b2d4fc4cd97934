import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { type CustomFieldRow, customFields, ticketFieldValues, tickets } from "#server/db/schema/index.ts";
import type { CustomFieldValue, CustomFieldValues } from "#shared/custom-fields/custom-field-values.ts";

const hasValuesSql = sql<boolean>`exists (select 1 from ${ticketFieldValues} where ${ticketFieldValues.fieldId} = ${customFields.id})`;

/** Every definition, retired ones included, in the form's order. */
export async function findCustomFields(db: Db): Promise<CustomFieldRow[]> {
  return db.select().from(customFields).orderBy(asc(customFields.position), asc(customFields.id));
}

/** Every definition with whether tickets hold values for it (the admin list). */
export async function findCustomFieldsWithValueFlag(db: Db) {
  return db
    .select({ field: customFields, hasValues: hasValuesSql })
    .from(customFields)
    .orderBy(asc(customFields.position), asc(customFields.id));
}

/** All definitions under a lock: positions and the "type is fixed once used" rule are decided on them. */
export async function lockCustomFields(tx: Db): Promise<CustomFieldRow[]> {
  return tx
    .select()
    .from(customFields)
    .orderBy(asc(customFields.position), asc(customFields.id))
    .for("update");
}

export async function customFieldHasValues(db: Db, fieldId: string): Promise<boolean> {
  const [row] = await db
    .select({ fieldId: ticketFieldValues.fieldId })
    .from(ticketFieldValues)
    .where(eq(ticketFieldValues.fieldId, fieldId))
    .limit(1);
  return row !== undefined;
}

export async function insertCustomField(tx: Db, values: typeof customFields.$inferInsert) {
  const [row] = await tx.insert(customFields).values(values).returning();
  return row!;
}

export async function updateCustomField(
  tx: Db,
  id: string,
  values: Partial<Omit<CustomFieldRow, "id" | "createdAt">> & Pick<CustomFieldRow, "updatedAt">,
) {
  const [row] = await tx.update(customFields).set(values).where(eq(customFields.id, id)).returning();
  return row!;
}

type ValueColumns = Pick<
  typeof ticketFieldValues.$inferInsert,
  "textValue" | "numberValue" | "dateValue" | "boolValue"
>;

/** Which column holds a value of this type. */
function columnsFor(type: CustomFieldRow["type"], value: CustomFieldValue | string): ValueColumns {
  if (type === "number") return { numberValue: Number(value) };
  if (type === "date") return { dateValue: String(value) };
  if (type === "checkbox") return { boolValue: value === true || value === "true" };
  return { textValue: String(value) };
}

/** A ticket's stored values, one entry per field (a multiple choice's rows gathered in a list). */
export async function findTicketFieldValues(
  db: Db,
  ticketId: string,
  fields: readonly CustomFieldRow[],
): Promise<CustomFieldValues> {
  return (await findTicketsFieldValues(db, [ticketId], fields)).get(ticketId) ?? {};
}

/** Several tickets' stored values in one statement, by ticket (a ticket without any is left out). */
export async function findTicketsFieldValues(
  db: Db,
  ticketIds: readonly string[],
  fields: readonly CustomFieldRow[],
): Promise<Map<string, CustomFieldValues>> {
  const byTicket = new Map<string, CustomFieldValues>();
  if (ticketIds.length === 0) return byTicket;
  const rows = await db
    .select()
    .from(ticketFieldValues)
    .where(
      ticketIds.length === 1
        ? eq(ticketFieldValues.ticketId, ticketIds[0]!)
        : inArray(ticketFieldValues.ticketId, [...ticketIds]),
    );
  const typeOf = new Map(fields.map((field) => [field.id, field.type]));
  for (const row of rows) {
    const values = byTicket.get(row.ticketId) ?? {};
    const type = typeOf.get(row.fieldId);
    if (type === "multiple_choice") {
      const list = (values[row.fieldId] as string[] | undefined) ?? [];
      values[row.fieldId] = [...list, row.textValue ?? ""];
    } else if (type === "number") values[row.fieldId] = row.numberValue ?? 0;
    else if (type === "date") values[row.fieldId] = row.dateValue ?? "";
    else if (type === "checkbox") values[row.fieldId] = row.boolValue ?? false;
    else values[row.fieldId] = row.textValue ?? "";
    byTicket.set(row.ticketId, values);
  }
  return byTicket;
}

/** Replaces the ticket's values of `fieldIds` with `values` (a field left out of `values` ends empty). */
export async function replaceTicketFieldValues(
  tx: Db,
  ticketId: string,
  fields: readonly CustomFieldRow[],
  values: CustomFieldValues,
) {
  if (fields.length === 0) return;
  await tx.delete(ticketFieldValues).where(
    and(
      eq(ticketFieldValues.ticketId, ticketId),
      inArray(
        ticketFieldValues.fieldId,
        fields.map((field) => field.id),
      ),
    ),
  );
  const rows = fields.flatMap((field) => {
    const value = values[field.id];
    if (value === undefined) return [];
    const each = Array.isArray(value) ? value : [value];
    return each.map((item) => ({ ticketId, fieldId: field.id, ...columnsFor(field.type, item) }));
  });
  if (rows.length > 0) await tx.insert(ticketFieldValues).values(rows);
}

/**
 * A list filter on one field: EXISTS through the (field, value, ticket) index of the field's column, so
 * the filter stays indexed at a million tickets (bench/custom-field-filter.ts).
 */
export function ticketHasFieldValue(field: CustomFieldRow, value: string): SQL {
  const columns = columnsFor(field.type, value);
  const [column, stored] =
    columns.numberValue !== undefined
      ? [ticketFieldValues.numberValue, columns.numberValue]
      : columns.dateValue !== undefined
        ? [ticketFieldValues.dateValue, columns.dateValue]
        : columns.boolValue !== undefined
          ? [ticketFieldValues.boolValue, columns.boolValue]
          : [ticketFieldValues.textValue, columns.textValue];
  return sql`exists (select 1 from ${ticketFieldValues} where ${ticketFieldValues.fieldId} = ${field.id} and ${column} = ${stored} and ${ticketFieldValues.ticketId} = ${tickets.id})`;
}
