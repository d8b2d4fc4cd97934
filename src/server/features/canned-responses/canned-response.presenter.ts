import type { CannedResponse } from "#shared/canned-responses/canned-response.schemas.ts";
import type { CannedResponseRow } from "../../db/schema/index.ts";

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
