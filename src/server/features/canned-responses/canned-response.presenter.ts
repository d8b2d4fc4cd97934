import type { CannedResponseRow } from "#server/db/schema/index.ts";
import type { CannedResponse } from "#shared/canned-responses/canned-response.schemas.ts";

export function toCannedResponseDto(row: CannedResponseRow, ownerName: string | null): CannedResponse {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    scope: row.scope,
    ownerId: row.ownerId,
    ownerName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
