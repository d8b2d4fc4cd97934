import { and, type SQL } from "drizzle-orm";
import { nowOf, type ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import type { CustomFieldRow } from "#server/db/schema/index.ts";
import { conflict, forbidden, validationFailed } from "#server/errors.ts";
import { inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { updateTicketDetails } from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import type {
  CustomField,
  EditTicketCustomFieldsInput,
  TicketCustomFields,
} from "#shared/custom-fields/custom-field.schemas.ts";
import {
  type CustomFieldValues,
  customFieldFilterPattern,
  fieldsForCategory,
  formatCustomFieldValue,
  valuesSchemaFor,
} from "#shared/custom-fields/custom-field-values.ts";
import { can, type TicketFacts } from "#shared/permissions.ts";
import type { TicketCategory } from "#shared/tickets/ticket.schemas.ts";
import type { TicketChange } from "#shared/tickets/ticket-edit.ts";
import { toCustomFieldDto } from "./custom-field.presenter.ts";
import {
  findCustomFields,
  findTicketFieldValues,
  replaceTicketFieldValues,
  ticketHasFieldValue,
} from "./custom-field.queries.ts";

interface CheckedFieldValues {
  /** The fields asked for the ticket's category: their stored values are replaced by `values`. */
  fields: CustomFieldRow[];
  values: CustomFieldValues;
}

/**
 * Checks a ticket's custom field values against the definitions (the same builder the create form uses):
 * 400 naming the field; `details` points at it (customFields.<fieldId>) so the form shows it there.
 */
function checkValues(
  rows: CustomFieldRow[],
  category: TicketCategory,
  input: Record<string, unknown> | undefined,
): CheckedFieldValues {
  const definitions = rows.map((row) => toCustomFieldDto(row));
  const parsed = valuesSchemaFor(definitions, category).safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: ["customFields", ...issue.path.map(String)],
      message: issue.message,
    }));
    throw validationFailed(issues.map((issue) => issue.message).join("; "), issues);
  }
  const asked = new Set(fieldsForCategory(definitions, category).map((field) => field.id));
  return { fields: rows.filter((row) => asked.has(row.id)), values: parsed.data };
}

/** For the create service: the values of a new ticket, checked before its transaction starts. */
export async function checkNewTicketFieldValues(
  db: Db,
  category: TicketCategory,
  input: Record<string, unknown> | undefined,
): Promise<CheckedFieldValues> {
  return checkValues(await findCustomFields(db), category, input);
}

/** Stores a new ticket's checked values, in the ticket's own transaction. */
export async function insertNewTicketFieldValues(tx: Db, ticketId: string, checked: CheckedFieldValues) {
  await replaceTicketFieldValues(tx, ticketId, checked.fields, checked.values);
}

function detailsOf(
  rows: CustomFieldRow[],
  category: TicketCategory,
  values: CustomFieldValues,
): TicketCustomFields {
  const fields = rows.map((row) => toCustomFieldDto(row));
  const asked = new Set(fieldsForCategory(fields, category).map((field) => field.id));
  return {
    items: fields
      .filter((field) => asked.has(field.id) || values[field.id] !== undefined)
      .map((field) => ({ field, value: values[field.id] ?? null })),
  };
}

/** GET /api/tickets/:ticketId/custom-fields: whoever may see the ticket reads its Details. */
export async function getTicketCustomFields(
  ctx: ServiceContext,
  ticketId: string,
): Promise<TicketCustomFields> {
  const ticket = await findVisibleTicket(ctx, ticketId);
  const rows = await findCustomFields(ctx.db);
  return detailsOf(rows, ticket.category, await findTicketFieldValues(ctx.db, ticketId, rows));
}

const display = (field: CustomField | CustomFieldRow, value: CustomFieldValues[string] | undefined) =>
  formatCustomFieldValue(field, value ?? null);

/**
 * PUT /api/tickets/:ticketId/custom-fields: staff (can.editTicketDetails) set every field asked for the
 * ticket's category; one "edited" event lists each changed field from → to, so the timeline shows it.
 */
export async function editTicketCustomFields(
  ctx: ServiceContext,
  ticketId: string,
  input: EditTicketCustomFieldsInput,
): Promise<TicketCustomFields> {
  const seen = await findVisibleTicket(ctx, ticketId);
  const ensureMayEdit = (ticket: TicketFacts) => {
    if (ctx.actor.role !== "technician" && ctx.actor.role !== "admin") {
      throw forbidden("Only technicians and administrators can edit a ticket's details");
    }
    if (!can.editTicketDetails(ctx.actor, ticket)) {
      throw ticket.status === "Closed"
        ? conflict("This ticket is closed; only an administrator can correct it.")
        : forbidden("You cannot edit this ticket");
    }
  };
  ensureMayEdit(seen);
  await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    const current = ensureVisible(ctx.actor, locked, ticketId);
    ensureMayEdit(current);
    const rows = await findCustomFields(tx);
    const checked = checkValues(rows, current.category, input.values);
    const before = await findTicketFieldValues(tx, ticketId, rows);
    const changes: TicketChange[] = checked.fields.flatMap((field) => {
      const from = display(field, before[field.id]);
      const to = display(field, checked.values[field.id]);
      return from === to ? [] : [{ field: `cf:${field.id}` as const, label: field.label, from, to }];
    });
    if (changes.length === 0) return;
    const now = nowOf(ctx);
    await replaceTicketFieldValues(tx, ticketId, checked.fields, checked.values);
    await updateTicketDetails(tx, ticketId, { updatedAt: now });
    await recordEvent({ ticketId, type: "edited", actorId: ctx.actor.id, changes, createdAt: now });
  });
  return getTicketCustomFields(ctx, ticketId);
}

/**
 * The list's custom field filters (`cf=<fieldId>:<value>`), each an indexed EXISTS; a filter on a field
 * that does not exist, or a value its type cannot hold, is a 400 naming it.
 */
export async function customFieldFiltersWhere(
  db: Db,
  filters: readonly string[] | undefined,
): Promise<SQL | undefined> {
  if (!filters || filters.length === 0) return undefined;
  const rows = await findCustomFields(db);
  const conditions = filters.map((filter) => {
    const match = customFieldFilterPattern.exec(filter);
    const field = match ? rows.find((row) => row.id === match[1]) : undefined;
    if (!match || !field)
      throw validationFailed(`cf: no custom field to filter on in '${filter.slice(0, 60)}'`);
    const value = match[2]!;
    if (field.type === "number" && !Number.isFinite(Number(value))) {
      throw validationFailed(`cf: ${field.label} filters on a number`);
    }
    if (field.type === "checkbox" && value !== "true" && value !== "false") {
      throw validationFailed(`cf: ${field.label} filters on true or false`);
    }
    if (field.type === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
      throw validationFailed(`cf: ${field.label} filters on a date (YYYY-MM-DD)`);
    }
    return ticketHasFieldValue(field, value);
  });
  return and(...conditions);
}
