import type { ServiceContext } from "#server/context.ts";
import { isUniqueViolation } from "#server/db/connection-errors.ts";
import { AppError } from "#server/errors.ts";
import { findActiveAdminIds, findUserByEmail, findUserById } from "#server/features/users/user.queries.ts";
import { insertAccount } from "#server/features/users/user-account.service.ts";
import {
  changeProvisionedUser,
  emailTaken,
  type ProvisionedFields,
} from "#server/features/users/user-management.service.ts";
import { can } from "#shared/permissions.ts";
import {
  type ScimListQuery,
  type ScimPatch,
  type ScimUser,
  type ScimUserInput,
  scimUrn,
} from "#shared/scim/scim.schemas.ts";
import { lastAdminRule, selfDeactivationRule } from "#shared/users/user-management.schemas.ts";
import { ScimError, userNotFound } from "./scim-error.ts";
import { parseScimFilter } from "./scim-filter.ts";
import { applyPatch } from "./scim-patch.ts";
import { fieldsOfState, stateOfInput, stateOfRow, toScimUser } from "./scim-user.mapping.ts";
import {
  countScimUsers,
  findScimUsersPage,
  findUserByExternalId,
  whereOfFilter,
} from "./scim-user.queries.ts";

/** The most resources one page answers (ServiceProviderConfig's filter.maxResults). */
export const scimMaxResults = 100;

function requireProvisioning(ctx: ServiceContext) {
  // The token acts as the administrator who created it (scim-token.service.ts); this holds while they are one.
  if (!can.manageUsers(ctx.actor))
    throw new ScimError(403, "Only an administrator's SCIM token can provision people.");
}

const duplicate = (detail: string) => new ScimError(409, detail, "uniqueness");

export async function listScimUsers(ctx: ServiceContext, baseURL: string, query: ScimListQuery) {
  requireProvisioning(ctx);
  const where = whereOfFilter(query.filter === undefined ? null : parseScimFilter(query.filter));
  // RFC 7644 §3.4.2.4: a startIndex below 1 is 1; a negative count is 0.
  const startIndex = Math.max(1, query.startIndex ?? 1);
  const count = Math.min(scimMaxResults, Math.max(0, query.count ?? scimMaxResults));
  const [rows, totalResults] = await Promise.all([
    count === 0 ? [] : findScimUsersPage(ctx.db, where, { offset: startIndex - 1, limit: count }),
    countScimUsers(ctx.db, where),
  ]);
  return {
    schemas: [scimUrn.listResponse],
    totalResults,
    startIndex,
    itemsPerPage: rows.length,
    Resources: rows.map((row) => toScimUser(row, baseURL)),
  };
}

export async function getScimUser(ctx: ServiceContext, baseURL: string, id: string): Promise<ScimUser> {
  requireProvisioning(ctx);
  const row = await findUserById(ctx.db, id);
  if (!row) throw userNotFound(id);
  return toScimUser(row, baseURL);
}

/**
 * POST /Users: a new person with the role user, Active unless the body says otherwise, without a password
 * (they sign in by single sign-on or choose one with "Forgot password"), through the account-creation path
 * of Add user (insertAccount). 409 uniqueness when the e-mail address or externalId has an account already.
 */
export async function createScimUser(
  ctx: ServiceContext,
  baseURL: string,
  input: ScimUserInput,
): Promise<ScimUser> {
  requireProvisioning(ctx);
  const fields = fieldsOfState(stateOfInput(input));
  await refuseTaken(ctx, fields, null);
  const row = await ctx.db
    .transaction((tx) =>
      insertAccount(
        tx,
        ctx.actor.id,
        {
          name: fields.name,
          email: fields.email,
          role: "user",
          department: fields.department,
          status: fields.status,
          externalId: fields.externalId,
        },
        "provisioned",
      ),
    )
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw duplicate(emailTaken);
      throw error;
    });
  if (!row) throw duplicate(emailTaken);
  return toScimUser(row, baseURL);
}

/** PUT /Users/{id}: the body replaces what SCIM says of the person (never their role). */
export function replaceScimUser(ctx: ServiceContext, baseURL: string, id: string, input: ScimUserInput) {
  requireProvisioning(ctx);
  return change(ctx, baseURL, id, (current) => fieldsOfState(stateOfInput(input), current));
}

/** PATCH /Users/{id}: the operations applied to what SCIM says of the person now. */
export function patchScimUser(ctx: ServiceContext, baseURL: string, id: string, patch: ScimPatch) {
  requireProvisioning(ctx);
  return change(ctx, baseURL, id, (current) =>
    fieldsOfState(applyPatch(stateOfRow(current), patch), current),
  );
}

/**
 * DELETE /Users/{id}: the person is deactivated, not removed. Tickets are never deleted, and each names
 * its requester; so the account stays, Inactive, with its history (decision 081).
 */
export async function deactivateScimUser(ctx: ServiceContext, baseURL: string, id: string): Promise<void> {
  requireProvisioning(ctx);
  await change(ctx, baseURL, id, (current) => ({
    ...fieldsOfState(stateOfRow(current), current),
    status: "Inactive",
  }));
}

async function change(
  ctx: ServiceContext,
  baseURL: string,
  id: string,
  next: (current: Parameters<typeof stateOfRow>[0]) => ProvisionedFields,
): Promise<ScimUser> {
  if (!(await findUserById(ctx.db, id))) throw userNotFound(id);
  const row = await changeProvisionedUser(ctx, id, (current) => next(current)).catch(
    async (error: unknown) => {
      throw await scimErrorOf(ctx, id, error);
    },
  );
  return toScimUser(row, baseURL);
}

/** The user-management service's refusals, as an identity provider reads them. */
async function scimErrorOf(ctx: ServiceContext, id: string, error: unknown): Promise<unknown> {
  if (error instanceof ScimError) return error;
  if (isUniqueViolation(error)) return duplicate("Another person has this e-mail address or externalId.");
  if (!(error instanceof AppError)) return error;
  if (error.code === "not_found") return userNotFound(id);
  if (error.code === "conflict" && error.message === emailTaken) return duplicate(emailTaken);
  if (error.message === lastAdminRule) {
    return new ScimError(
      400,
      `${lastAdminRule} Make another person an active administrator in Helpdesk first; ${await nameOf(ctx, id)} stays active.`,
    );
  }
  if (error.message === selfDeactivationRule) {
    const lastAdmin = (await findActiveAdminIds(ctx.db)).length <= 1;
    return new ScimError(
      400,
      `${await nameOf(ctx, id)} is the administrator this SCIM token acts for${lastAdmin ? ", and the last active administrator" : ""}, so they stay active. Make another person an active administrator in Helpdesk, create the SCIM token as them, then try again.`,
    );
  }
  return error;
}

const nameOf = async (ctx: ServiceContext, id: string) => (await findUserById(ctx.db, id))?.email ?? id;

async function refuseTaken(ctx: ServiceContext, fields: ProvisionedFields, selfId: string | null) {
  const byEmail = await findUserByEmail(ctx.db, fields.email);
  if (byEmail && byEmail.id !== selfId)
    throw duplicate(`A person with the userName ${fields.email} already exists.`);
  if (fields.externalId) {
    const byExternalId = await findUserByExternalId(ctx.db, fields.externalId);
    if (byExternalId && byExternalId.id !== selfId) {
      throw duplicate(`A person with the externalId ${fields.externalId} already exists.`);
    }
  }
}
