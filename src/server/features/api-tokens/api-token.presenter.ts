import type { ApiTokenRow } from "#server/db/schema/index.ts";
import type { ApiToken } from "#shared/api-tokens/api-token.schemas.ts";

/** A token as its owner sees it: never its secret, never its hash. */
export function toApiTokenDto(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: row.scope,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
