import type { CustomFieldRow } from "#server/db/schema/index.ts";
import type { CustomField } from "#shared/custom-fields/custom-field.schemas.ts";

export function toCustomFieldDto(row: CustomFieldRow, hasValues?: boolean): CustomField {
  return {
    id: row.id,
    label: row.label,
    type: row.type,
    category: row.category,
    required: row.required,
    helpText: row.helpText,
    options: row.options,
    position: row.position,
    retired: row.retiredAt !== null,
    ...(hasValues === undefined ? {} : { hasValues }),
  };
}

/** What the admin change history keeps of a field (no timestamps: they are the history line's own). */
export function toCustomFieldSnapshot(row: CustomFieldRow) {
  const { createdAt: _createdAt, updatedAt: _updatedAt, ...rest } = row;
  return { ...rest, retiredAt: row.retiredAt?.toISOString() ?? null };
}
