import { randomUUID } from "node:crypto";
import type { ServiceContext } from "#server/context.ts";
import { isUniqueViolation } from "#server/db/connection-errors.ts";
import { conflict, forbidden, notFound } from "#server/errors.ts";
import {
  type CannedResponse,
  type CannedResponseList,
  type CannedResponseScope,
  cannedResponseListLimit,
  type ListCannedResponsesQuery,
  type UpdateCannedResponseInput,
} from "#shared/canned-responses/canned-response.schemas.ts";
import { can } from "#shared/permissions.ts";
import { toCannedResponseDto } from "./canned-response.presenter.ts";
import {
  deleteCannedResponse as deleteRow,
  findCannedResponseById,
  findCannedResponsesFor,
  insertCannedResponse,
  updateCannedResponse as updateRow,
} from "./canned-response.queries.ts";

export const staffOnly = "Only technicians and administrators can use canned responses.";
export const adminsManageShared = "Only administrators can create, edit or delete shared responses.";

function requireStaff(ctx: ServiceContext) {
  if (!can.accessCannedResponses(ctx.actor)) throw forbidden(staffOnly);
}

const titleTaken = (scope: CannedResponseScope, title: string) =>
  conflict(
    scope === "shared"
      ? `A shared response called "${title}" already exists. Choose another title.`
      : `You already have a response called "${title}". Choose another title.`,
  );

export async function listCannedResponses(
  ctx: ServiceContext,
  query: ListCannedResponsesQuery,
): Promise<CannedResponseList> {
  requireStaff(ctx);
  const rows = await findCannedResponsesFor(ctx.db, ctx.actor.id, {
    ...query,
    limit: cannedResponseListLimit,
  });
  return { items: rows.map((row) => toCannedResponseDto(row, row.ownerName)) };
}

export async function createCannedResponse(
  ctx: ServiceContext,
  input: { title: string; body: string; scope: CannedResponseScope },
): Promise<CannedResponse> {
  requireStaff(ctx);
  if (!can.createCannedResponse(ctx.actor, input.scope)) throw forbidden(adminsManageShared);
  try {
    const row = await insertCannedResponse(ctx.db, {
      id: `crs_${randomUUID()}`,
      title: input.title,
      body: input.body,
      scope: input.scope,
      ownerId: ctx.actor.id,
    });
    const saved = await findCannedResponseById(ctx.db, row.id);
    return toCannedResponseDto(row, saved?.ownerName ?? null);
  } catch (error) {
    if (isUniqueViolation(error)) throw titleTaken(input.scope, input.title);
    throw error;
  }
}

/** Another person's personal response does not exist for the caller (404); a shared one is only admins' to change (403). */
async function findManageable(ctx: ServiceContext, id: string) {
  requireStaff(ctx);
  const row = await findCannedResponseById(ctx.db, id);
  if (!row || !can.viewCannedResponse(ctx.actor, row)) throw notFound("Response", id);
  if (!can.manageCannedResponse(ctx.actor, row)) throw forbidden(adminsManageShared);
  return row;
}

export async function updateCannedResponse(
  ctx: ServiceContext,
  id: string,
  input: UpdateCannedResponseInput,
): Promise<CannedResponse> {
  const existing = await findManageable(ctx, id);
  try {
    const row = await updateRow(ctx.db, id, input);
    if (!row) throw notFound("Response", id);
    return toCannedResponseDto(row, existing.ownerName);
  } catch (error) {
    if (isUniqueViolation(error)) throw titleTaken(existing.scope, input.title ?? existing.title);
    throw error;
  }
}

export async function deleteCannedResponse(ctx: ServiceContext, id: string): Promise<void> {
  await findManageable(ctx, id);
  if (!(await deleteRow(ctx.db, id))) throw notFound("Response", id);
}
