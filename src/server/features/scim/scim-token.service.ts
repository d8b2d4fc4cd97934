import { nowOf, type ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { conflict, forbidden, notFound } from "#server/errors.ts";
import { newTokenSecret, secretMatches } from "#server/features/api-tokens/token-secret.ts";
import { insertAdminChange } from "#server/features/settings/settings.queries.ts";
import { consumeRateLimit, type RateRule, type RateUsage } from "#server/rate-limit.ts";
import { type Actor, can } from "#shared/permissions.ts";
import {
  type CreatedScimToken,
  type ScimTokenList,
  scimBasePath,
  scimTokenActiveLimit,
  scimTokenPattern,
} from "#shared/scim/scim-token.schemas.ts";
import { ScimError } from "./scim-error.ts";
import {
  countActiveScimTokens,
  findActiveScimTokens,
  findScimTokenWithCreator,
  insertScimToken,
  revokeScimToken as revokeRow,
  touchScimToken,
} from "./scim-token.queries.ts";

export const notAllowedToManageProvisioning = "Only administrators can manage provisioning (SCIM) tokens.";

function requireProvisioningManager(ctx: ServiceContext) {
  if (!can.manageProvisioning(ctx.actor)) throw forbidden(notAllowedToManageProvisioning);
}

export async function listScimTokens(ctx: ServiceContext, baseURL: string): Promise<ScimTokenList> {
  requireProvisioningManager(ctx);
  const rows = await findActiveScimTokens(ctx.db);
  return {
    baseUrl: `${baseURL}${scimBasePath}`,
    items: rows.map(({ token, createdByName }) => ({
      id: token.id,
      name: token.name,
      prefix: token.prefix,
      createdAt: token.createdAt.toISOString(),
      createdByName,
      lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    })),
  };
}

export async function createScimToken(
  ctx: ServiceContext,
  input: { name: string },
): Promise<CreatedScimToken> {
  requireProvisioningManager(ctx);
  if ((await countActiveScimTokens(ctx.db)) >= scimTokenActiveLimit) {
    throw conflict(
      `There are already ${scimTokenActiveLimit} SCIM tokens. Revoke one that is no longer used first.`,
    );
  }
  const { id, secret, hash } = newTokenSecret();
  const at = nowOf(ctx);
  const row = await ctx.db.transaction(async (tx) => {
    const made = await insertScimToken(tx, {
      id,
      name: input.name,
      tokenHash: hash,
      prefix: `scim_${id}`,
      createdBy: ctx.actor.id,
      createdAt: at,
    });
    // In the admins' change history: who let an identity provider create and deactivate people, and when.
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area: "provisioning",
      summary: `Created the SCIM token “${made.name}”`,
      before: null,
      after: { name: made.name, prefix: made.prefix },
      at,
    });
    return made;
  });
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    createdByName: null,
    lastUsedAt: null,
    token: `scim_${id}_${secret}`,
  };
}

export async function revokeScimToken(ctx: ServiceContext, id: string): Promise<void> {
  requireProvisioningManager(ctx);
  const at = nowOf(ctx);
  await ctx.db.transaction(async (tx) => {
    const revoked = await revokeRow(tx, id, at);
    if (!revoked) throw notFound("SCIM token", id);
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area: "provisioning",
      summary: `Revoked the SCIM token “${revoked.name}”`,
      before: revoked,
      after: null,
      at,
    });
  });
}

const notValid = "This SCIM token is not valid. Create one in Admin settings › Provisioning (SCIM).";

/**
 * The administrator an `Authorization: Bearer scim_…` header acts for (decision 081): 401 in SCIM's shape
 * when the token is absent, unknown or revoked, or its creator is no longer an active administrator; 429
 * over the rate limit.
 */
export async function authenticateScimToken(
  db: Db,
  bearer: string | null,
  {
    now,
    rateLimit,
    onRateCounted,
  }: { now: Date; rateLimit: RateRule; onRateCounted?: (usage: RateUsage) => void },
): Promise<Actor> {
  const match = bearer === null ? null : scimTokenPattern.exec(bearer);
  if (!match) throw new ScimError(401, notValid);
  const [, id = "", secret = ""] = match;
  const found = await findScimTokenWithCreator(db, id);
  if (!secretMatches(found?.token.tokenHash, secret) || !found) throw new ScimError(401, notValid);
  if (found.token.revokedAt) {
    throw new ScimError(
      401,
      "This SCIM token was revoked. Create a new one in Admin settings › Provisioning (SCIM).",
    );
  }
  if (found.role !== "admin" || found.status !== "Active") {
    throw new ScimError(
      401,
      "The administrator who created this SCIM token is no longer an active administrator. Create a new token.",
    );
  }
  await consumeRateLimit(db, `scim-token:${id}`, rateLimit, onRateCounted);
  await touchScimToken(db, id, now);
  return { id: found.token.createdBy, role: "admin" };
}
