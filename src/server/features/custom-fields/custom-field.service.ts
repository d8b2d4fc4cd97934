import { randomBytes } from "node:crypto";
import { nowOf, type ServiceContext } from "#server/context.ts";
import type { CustomFieldRow } from "#server/db/schema/index.ts";
import { notFound, ruleViolation, validationFailed } from "#server/errors.ts";
import { insertAdminChange } from "#server/features/settings/settings.queries.ts";
import { requireSettingsManager } from "#server/features/settings/settings.service.ts";
import type {
  CustomField,
  CustomFieldChoice,
  CustomFieldInputParsed,
  CustomFieldList,
  CustomFieldOrderInput,
  CustomFieldRetiredInput,
} from "#shared/custom-fields/custom-field.schemas.ts";
import { fieldsForCategory } from "#shared/custom-fields/custom-field-values.ts";
import type { TicketCategory } from "#shared/tickets/ticket.schemas.ts";
import { toCustomFieldDto, toCustomFieldSnapshot } from "./custom-field.presenter.ts";
import {
  customFieldHasValues,
  findCustomFields,
  findCustomFieldsWithValueFlag,
  insertCustomField,
  lockCustomFields,
  updateCustomField,
} from "./custom-field.queries.ts";

const area = "custom-fields";
const newFieldId = () => `cf_${randomBytes(8).toString("hex")}`;

/** Every definition for Admin settings, retired ones included, with whether tickets hold values. */
export async function listCustomFieldsForAdmin(ctx: ServiceContext): Promise<CustomFieldList> {
  requireSettingsManager(ctx);
  const rows = await findCustomFieldsWithValueFlag(ctx.db);
  return { items: rows.map((row) => toCustomFieldDto(row.field, row.hasValues)) };
}

/** GET /api/custom-fields: the active fields (of one category's form, when given), for everyone signed in. */
export async function listActiveCustomFields(
  ctx: ServiceContext,
  category?: TicketCategory,
): Promise<CustomFieldList> {
  const fields = (await findCustomFields(ctx.db)).map((row) => toCustomFieldDto(row));
  const active = category ? fieldsForCategory(fields, category) : fields.filter((field) => !field.retired);
  return { items: active };
}

/** "Serial number" → "serial-number"; a value another choice has gets a number. */
function choiceValueFor(label: string, taken: Set<string>): string {
  const base =
    label
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 50) || "choice";
  let value = base;
  for (let n = 2; taken.has(value); n++) value = `${base}-${n}`;
  taken.add(value);
  return value;
}

/** The options to store: existing values kept, new choices given a value; never a choice removed once used. */
function storedOptions(input: CustomFieldInputParsed, before: CustomFieldChoice[] = []): CustomFieldChoice[] {
  const taken = new Set(input.options.flatMap((option) => (option.value ? [option.value] : [])));
  for (const old of before) taken.add(old.value);
  return input.options.map((option) => ({
    value: option.value ?? choiceValueFor(option.label, taken),
    label: option.label,
  }));
}

export async function createCustomField(
  ctx: ServiceContext,
  input: CustomFieldInputParsed,
): Promise<CustomField> {
  requireSettingsManager(ctx);
  if (input.options.some((option) => option.value !== undefined)) {
    throw validationFailed(
      "Options: a new field's choices get their values from their labels; send labels only",
    );
  }
  const at = nowOf(ctx);
  const row = await ctx.db.transaction(async (tx) => {
    const existing = await lockCustomFields(tx);
    const inserted = await insertCustomField(tx, {
      id: newFieldId(),
      label: input.label,
      type: input.type,
      category: input.category,
      required: input.required,
      helpText: input.helpText,
      options: storedOptions(input),
      position: Math.max(0, ...existing.map((field) => field.position + 1)),
      createdAt: at,
      updatedAt: at,
    });
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area,
      summary: `Added the custom field “${inserted.label}”`,
      before: null,
      after: toCustomFieldSnapshot(inserted),
      at,
    });
    return inserted;
  });
  return toCustomFieldDto(row, false);
}

function findIn(fields: CustomFieldRow[], fieldId: string) {
  const field = fields.find((candidate) => candidate.id === fieldId);
  if (!field) throw notFound("Custom field", fieldId);
  return field;
}

/**
 * Changes a field's label, help, category, required flag and choices (renamed or added). Its type may
 * change only while no ticket holds a value; a choice tickets may hold is never removed.
 */
export async function updateCustomFieldDefinition(
  ctx: ServiceContext,
  fieldId: string,
  input: CustomFieldInputParsed,
): Promise<CustomField> {
  requireSettingsManager(ctx);
  const at = nowOf(ctx);
  const { row, hasValues } = await ctx.db.transaction(async (tx) => {
    const before = findIn(await lockCustomFields(tx), fieldId);
    const hasValues = await customFieldHasValues(tx, fieldId);
    if (input.type !== before.type && hasValues) {
      throw ruleViolation(
        `Type: “${before.label}” already has values on tickets, so its type stays ${before.type.replace("_", " ")}`,
      );
    }
    const known = new Set(before.options.map((option) => option.value));
    const unknown = input.options.find((option) => option.value !== undefined && !known.has(option.value));
    if (unknown) throw validationFailed(`Options: there is no choice '${unknown.value}' to rename`);
    if (input.type === before.type) {
      const kept = new Set(input.options.flatMap((option) => (option.value ? [option.value] : [])));
      const removed = before.options.find((option) => !kept.has(option.value));
      if (removed) {
        throw validationFailed(
          `Options: the choice '${removed.label}' cannot be removed (tickets may hold it); rename it or retire the field`,
        );
      }
    }
    const options = storedOptions(input, before.options);
    const changed =
      before.label !== input.label ||
      before.type !== input.type ||
      before.category !== input.category ||
      before.required !== input.required ||
      before.helpText !== input.helpText ||
      JSON.stringify(before.options) !== JSON.stringify(options);
    if (!changed) return { row: before, hasValues };
    const after = await updateCustomField(tx, fieldId, {
      label: input.label,
      type: input.type,
      category: input.category,
      required: input.required,
      helpText: input.helpText,
      options,
      updatedAt: at,
    });
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area,
      summary: `Changed the custom field “${after.label}”`,
      before: toCustomFieldSnapshot(before),
      after: toCustomFieldSnapshot(after),
      at,
    });
    return { row: after, hasValues };
  });
  return toCustomFieldDto(row, hasValues);
}

/** Puts the fields in the order given (every field's id, each once). */
export async function reorderCustomFields(
  ctx: ServiceContext,
  { fieldIds }: CustomFieldOrderInput,
): Promise<CustomFieldList> {
  requireSettingsManager(ctx);
  const at = nowOf(ctx);
  await ctx.db.transaction(async (tx) => {
    const fields = await lockCustomFields(tx);
    const known = new Set(fields.map((field) => field.id));
    if (
      new Set(fieldIds).size !== fieldIds.length ||
      fieldIds.length !== fields.length ||
      fieldIds.some((id) => !known.has(id))
    ) {
      throw validationFailed("fieldIds: send every custom field's id once, in the new order");
    }
    const before = fields.map((field) => field.id);
    if (before.join() === fieldIds.join()) return;
    for (const [position, id] of fieldIds.entries()) {
      await updateCustomField(tx, id, { position, updatedAt: at });
    }
    const labelOf = new Map(fields.map((field) => [field.id, field.label]));
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area,
      summary: "Reordered the custom fields",
      before: before.map((id) => labelOf.get(id)),
      after: fieldIds.map((id) => labelOf.get(id)),
      at,
    });
  });
  return listCustomFieldsForAdmin(ctx);
}

/** Retires a field (gone from forms and filters, its values still shown on tickets) or brings it back. */
export async function setCustomFieldRetired(
  ctx: ServiceContext,
  fieldId: string,
  { retired }: CustomFieldRetiredInput,
): Promise<CustomField> {
  requireSettingsManager(ctx);
  const at = nowOf(ctx);
  const row = await ctx.db.transaction(async (tx) => {
    const before = findIn(await lockCustomFields(tx), fieldId);
    if ((before.retiredAt !== null) === retired) return before;
    const after = await updateCustomField(tx, fieldId, { retiredAt: retired ? at : null, updatedAt: at });
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area,
      summary: `${retired ? "Retired" : "Restored"} the custom field “${after.label}”`,
      before: toCustomFieldSnapshot(before),
      after: toCustomFieldSnapshot(after),
      at,
    });
    return after;
  });
  return toCustomFieldDto(row, await customFieldHasValues(ctx.db, fieldId));
}
