import { randomBytes } from "node:crypto";
import { nowOf, type ServiceContext } from "#server/context.ts";
import { isUniqueViolation } from "#server/db/connection-errors.ts";
import { AppError, conflict, forbidden, notFound, ruleViolation, validationFailed } from "#server/errors.ts";
import { countTicketListFor } from "#server/features/tickets/ticket.service.ts";
import { can } from "#shared/permissions.ts";
import {
  maxPersonalViews,
  normalizeViewQuery,
  parseViewQuery,
  type SavedView,
  type ViewInput,
  type ViewList,
} from "#shared/views/view.schemas.ts";
import {
  countPersonalViews,
  deleteView as deleteRow,
  findViewsFor,
  findVisibleView,
  insertView,
  teamExists,
  updateView as updateRow,
  type ViewWithNames,
} from "./view.queries.ts";

/** At most this many views are listed (a person's own are at most maxPersonalViews). */
const viewListLimit = 100;

const newViewId = () => `view_${randomBytes(8).toString("hex")}`;

function requireViewer(ctx: ServiceContext) {
  if (!can.saveViews(ctx.actor)) throw forbidden("Choose a role before saving views");
}

const nameTaken = (input: Pick<ViewInput, "name" | "sharing">) =>
  conflict(
    input.sharing === "personal"
      ? `You already have a view called “${input.name}”. Choose another name.`
      : `A shared view called “${input.name}” already exists. Choose another name.`,
  );

/** The list's refusals of a stored query: the view is shown without a count rather than failing the menu. */
const uncountable = new Set(["validation_failed", "forbidden", "not_found", "rule_violation"]);

/**
 * How many tickets the view shows to the one who looks, as its list's total would say (decision 071):
 * through the list's own count path. Null when the view's filters are not theirs to use.
 */
async function countOf(ctx: ServiceContext, query: string): Promise<SavedView["count"]> {
  const parsed = parseViewQuery(query);
  if (!parsed.success) return null;
  try {
    return await countTicketListFor(ctx, parsed.data);
  } catch (error) {
    if (error instanceof AppError && uncountable.has(error.code)) return null;
    throw error;
  }
}

async function toViewDto(ctx: ServiceContext, view: ViewWithNames): Promise<SavedView> {
  return {
    id: view.id,
    name: view.name,
    query: view.query,
    sharing: view.sharing,
    teamId: view.teamId,
    teamName: view.teamName,
    ownerId: view.ownerId,
    ownerName: view.ownerName,
    canManage: can.manageView(ctx.actor, view),
    count: await countOf(ctx, view.query),
  };
}

/** GET /api/views: the views the caller may open, each with its count for them. */
export async function listViews(ctx: ServiceContext): Promise<ViewList> {
  requireViewer(ctx);
  const rows = await findViewsFor(ctx.db, ctx.actor, viewListLimit);
  const items: SavedView[] = [];
  // One after the other: each count is a bounded statement, and a person has a few views.
  for (const row of rows) items.push(await toViewDto(ctx, row));
  return { items };
}

/**
 * What is stored of a view: its query string in normal form, checked against the list's request schema
 * and then as the list itself would check it for the one saving it (a filter they may not use is refused
 * as the list refuses it). Sharing is an administrator's, with a team that exists.
 */
async function checkedInput(ctx: ServiceContext, input: ViewInput) {
  if (input.sharing !== "personal" && !can.shareViews(ctx.actor)) {
    throw forbidden("Only administrators can share a view with staff or a team");
  }
  if (input.sharing === "team" && !(input.teamId && (await teamExists(ctx.db, input.teamId)))) {
    throw validationFailed(`teamId: there is no team '${input.teamId}'`, [
      { path: ["teamId"], message: "Choose one of the teams" },
    ]);
  }
  const query = normalizeViewQuery(input.query);
  const parsed = parseViewQuery(query);
  if (!parsed.success) throw validationFailed(`query: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  await countTicketListFor(ctx, parsed.data);
  return {
    name: input.name,
    query,
    sharing: input.sharing,
    teamId: input.sharing === "team" ? input.teamId : null,
  };
}

/** POST /api/views: a new view, personal unless an administrator shares it. */
export async function createView(ctx: ServiceContext, input: ViewInput): Promise<SavedView> {
  requireViewer(ctx);
  const values = await checkedInput(ctx, input);
  if (values.sharing === "personal" && (await countPersonalViews(ctx.db, ctx.actor.id)) >= maxPersonalViews) {
    throw ruleViolation(`You can keep at most ${maxPersonalViews} views; delete one first.`);
  }
  const id = newViewId();
  try {
    await insertView(ctx.db, {
      id,
      ownerId: ctx.actor.id,
      ...values,
      createdAt: nowOf(ctx),
      updatedAt: nowOf(ctx),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input);
    throw error;
  }
  return toViewDto(ctx, (await findVisibleView(ctx.db, ctx.actor, id))!);
}

/** A view the caller may not open does not exist for them (404); one they may not change is 403. */
async function findManageable(ctx: ServiceContext, id: string) {
  requireViewer(ctx);
  const view = await findVisibleView(ctx.db, ctx.actor, id);
  if (!view) throw notFound("View", id);
  if (!can.manageView(ctx.actor, view)) {
    throw forbidden("Only administrators can change or delete a shared view");
  }
  return view;
}

/** PUT /api/views/:viewId: renames it, or saves other filters or sharing under it (the whole view). */
export async function updateView(ctx: ServiceContext, id: string, input: ViewInput): Promise<SavedView> {
  const view = await findManageable(ctx, id);
  const values = await checkedInput(ctx, input);
  // A personal view keeps its owner when an administrator shares it; it then counts as shared.
  try {
    await updateRow(ctx.db, view.id, { ...values, updatedAt: nowOf(ctx) });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input);
    throw error;
  }
  const updated = await findVisibleView(ctx.db, ctx.actor, id);
  if (!updated) throw notFound("View", id);
  return toViewDto(ctx, updated);
}

/** DELETE /api/views/:viewId. */
export async function deleteView(ctx: ServiceContext, id: string): Promise<void> {
  const view = await findManageable(ctx, id);
  await deleteRow(ctx.db, view.id);
}
