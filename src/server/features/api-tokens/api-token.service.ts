import { nowOf, type ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { conflict, notFound, unauthenticated } from "#server/errors.ts";
import { consumeRateLimit, type RateRule, type RateUsage } from "#server/rate-limit.ts";
import {
  type ApiTokenList,
  type ApiTokenScope,
  apiTokenActiveLimit,
  apiTokenPattern,
  type CreatedApiToken,
} from "#shared/api-tokens/api-token.schemas.ts";
import type { Actor } from "#shared/permissions.ts";
import { roles } from "#shared/users/roles.ts";
import { toApiTokenDto } from "./api-token.presenter.ts";
import {
  countActiveTokensOf,
  findTokensOf,
  findTokenWithOwner,
  insertToken,
  revokeToken as revokeRow,
  touchToken,
} from "./api-token.queries.ts";
import { newTokenSecret, secretMatches } from "./token-secret.ts";

const dayMs = 24 * 60 * 60_000;

export async function listApiTokens(ctx: ServiceContext): Promise<ApiTokenList> {
  return { items: (await findTokensOf(ctx.db, ctx.actor.id)).map(toApiTokenDto) };
}

export async function createApiToken(
  ctx: ServiceContext,
  input: { name: string; scope: ApiTokenScope; expiresInDays: number | null },
): Promise<CreatedApiToken> {
  const now = nowOf(ctx);
  if ((await countActiveTokensOf(ctx.db, ctx.actor.id, now)) >= apiTokenActiveLimit) {
    throw conflict(
      `You already have ${apiTokenActiveLimit} active tokens. Revoke one you no longer use first.`,
    );
  }
  const { id, secret, hash } = newTokenSecret();
  const token = `hd_${id}_${secret}`;
  const row = await insertToken(ctx.db, {
    id,
    userId: ctx.actor.id,
    name: input.name,
    tokenHash: hash,
    prefix: `hd_${id}`,
    scope: input.scope,
    expiresAt: input.expiresInDays === null ? null : new Date(now.getTime() + input.expiresInDays * dayMs),
    createdAt: now,
  });
  return { ...toApiTokenDto(row), token };
}

export async function revokeApiToken(ctx: ServiceContext, id: string): Promise<void> {
  // Another person's token does not exist for the caller.
  if (!(await revokeRow(ctx.db, ctx.actor.id, id, nowOf(ctx)))) throw notFound("Token", id);
}

export interface TokenIdentity {
  actor: Actor;
  tokenId: string;
  scope: ApiTokenScope;
}

const notValid = "This API token is not valid. Create a new one on your profile page.";
const isRole = (value: unknown): value is Actor["role"] & string => roles.includes(value as never);

/**
 * The person an `Authorization: Bearer hd_…` header acts as, with exactly their permissions; 401 when the
 * token is unknown, revoked or expired, or its owner is deactivated or has no role; 429 over the rate limit.
 */
export async function authenticateToken(
  db: Db,
  bearer: string,
  {
    now,
    rateLimit,
    onRateCounted,
  }: { now: Date; rateLimit: RateRule; onRateCounted?: (usage: RateUsage) => void },
): Promise<TokenIdentity> {
  const match = apiTokenPattern.exec(bearer);
  if (!match) throw unauthenticated(notValid);
  const [, id = "", secret = ""] = match;
  const found = await findTokenWithOwner(db, id);
  if (!secretMatches(found?.token.tokenHash, secret) || !found) {
    throw unauthenticated(notValid);
  }
  const { token, role, status } = found;
  if (token.revokedAt)
    throw unauthenticated("This API token was revoked. Create a new one on your profile page.");
  if (token.expiresAt && token.expiresAt <= now) {
    throw unauthenticated(
      `This API token expired on ${token.expiresAt.toISOString()}. Create a new one on your profile page.`,
    );
  }
  if (status === "Inactive") {
    throw unauthenticated(
      "The owner of this API token is deactivated. An administrator can reactivate them.",
    );
  }
  if (!isRole(role)) {
    throw unauthenticated("The owner of this API token has no role yet. Sign in and choose one first.");
  }
  await consumeRateLimit(db, `api-token:${token.id}`, rateLimit, onRateCounted);
  await touchToken(db, token.id, now);
  return { actor: { id: token.userId, role }, tokenId: token.id, scope: token.scope };
}
