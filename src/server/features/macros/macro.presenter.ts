import type { MacroRow } from "#server/db/schema/index.ts";
import type { Macro } from "#shared/macros/macro.schemas.ts";

export function toMacroDto(row: MacroRow, ownerName: string | null): Macro {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    replyVisibility: row.replyVisibility,
    actions: row.actions,
    scope: row.scope,
    ownerId: row.ownerId,
    ownerName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
