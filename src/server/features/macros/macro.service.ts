import { randomUUID } from "node:crypto";
import type { ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { isUniqueViolation } from "#server/db/connection-errors.ts";
import { conflict, forbidden, notFound, validationFailed } from "#server/errors.ts";
import { findTeams } from "#server/features/teams/team.queries.ts";
import { findUserById } from "#server/features/users/user.queries.ts";
import {
  type Macro,
  type MacroActions,
  type MacroList,
  type MacroScope,
  macroAssigneeMe,
  macroContentRefusal,
  macroListLimit,
  type NewMacro,
  type UpdateMacroInput,
} from "#shared/macros/macro.schemas.ts";
import { can } from "#shared/permissions.ts";
import { toMacroDto } from "./macro.presenter.ts";
import {
  deleteMacro as deleteRow,
  findMacroById,
  findMacrosFor,
  insertMacro,
  updateMacro as updateRow,
} from "./macro.queries.ts";

// Macros (decision 075): kept and shared as canned responses are (decision 013).

export const staffOnly = "Only technicians and administrators can use macros.";
export const adminsManageShared = "Only administrators can create, edit or delete shared macros.";

export function requireMacroAccess(ctx: ServiceContext) {
  if (!can.accessMacros(ctx.actor)) throw forbidden(staffOnly);
}

const titleTaken = (scope: MacroScope, title: string) =>
  conflict(
    scope === "shared"
      ? `A shared macro called "${title}" already exists. Choose another title.`
      : `You already have a macro called "${title}". Choose another title.`,
  );

const invalid = (path: string, message: string) =>
  validationFailed(`${path}: ${message}`, [{ path: path.split("."), message }]);

/** The team and the assignee a macro names must exist (and be an active technician) when it is saved. */
async function ensureActionsExist(db: Db, actions: MacroActions) {
  if (actions.teamId) {
    if ((await findTeams(db, actions.teamId)).length === 0) {
      throw invalid("actions.teamId", `There is no team '${actions.teamId}'`);
    }
  }
  if (actions.assigneeId && actions.assigneeId !== macroAssigneeMe) {
    const person = await findUserById(db, actions.assigneeId);
    if (person?.role !== "technician" || person.status !== "Active") {
      throw invalid("actions.assigneeId", `${person?.name ?? "That person"} is not an active technician`);
    }
  }
}

/** Another person's personal macro does not exist for the caller (404), as a canned response's does. */
export async function findUsableMacro(ctx: ServiceContext, id: string) {
  requireMacroAccess(ctx);
  const row = await findMacroById(ctx.db, id);
  if (!row || !can.viewMacro(ctx.actor, row)) throw notFound("Macro", id);
  return row;
}

export async function listMacros(ctx: ServiceContext): Promise<MacroList> {
  requireMacroAccess(ctx);
  const rows = await findMacrosFor(ctx.db, ctx.actor.id, macroListLimit);
  return { items: rows.map((row) => toMacroDto(row, row.ownerName)) };
}

export async function createMacro(ctx: ServiceContext, input: NewMacro): Promise<Macro> {
  requireMacroAccess(ctx);
  if (!can.createMacro(ctx.actor, input.scope)) throw forbidden(adminsManageShared);
  await ensureActionsExist(ctx.db, input.actions);
  try {
    const row = await insertMacro(ctx.db, { id: `mac_${randomUUID()}`, ...input, ownerId: ctx.actor.id });
    return toMacroDto(row, (await findMacroById(ctx.db, row.id))?.ownerName ?? null);
  } catch (error) {
    if (isUniqueViolation(error)) throw titleTaken(input.scope, input.title);
    throw error;
  }
}

export async function updateMacro(ctx: ServiceContext, id: string, input: UpdateMacroInput): Promise<Macro> {
  const existing = await findUsableMacro(ctx, id);
  if (!can.manageMacro(ctx.actor, existing)) throw forbidden(adminsManageShared);
  const next = {
    body: input.body ?? existing.body,
    replyVisibility: input.replyVisibility ?? existing.replyVisibility,
    actions: input.actions ?? existing.actions,
  };
  const refusal = macroContentRefusal(next.body, next.replyVisibility, next.actions);
  if (refusal) throw invalid(refusal.path, refusal.message);
  if (input.actions) await ensureActionsExist(ctx.db, input.actions);
  try {
    const row = await updateRow(ctx.db, id, { ...next, ...(input.title ? { title: input.title } : {}) });
    if (!row) throw notFound("Macro", id);
    return toMacroDto(row, existing.ownerName);
  } catch (error) {
    if (isUniqueViolation(error)) throw titleTaken(existing.scope, input.title ?? existing.title);
    throw error;
  }
}

export async function deleteMacro(ctx: ServiceContext, id: string): Promise<void> {
  const existing = await findUsableMacro(ctx, id);
  if (!can.manageMacro(ctx.actor, existing)) throw forbidden(adminsManageShared);
  if (!(await deleteRow(ctx.db, id))) throw notFound("Macro", id);
}
