import { randomUUID } from "node:crypto";
import type { ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { AppError, forbidden, ruleViolation } from "#server/errors.ts";
import { resolveMentions } from "#server/features/mentions/mention.service.ts";
import { changeTagsUnderLock } from "#server/features/tags/tag.service.ts";
import { findTeams } from "#server/features/teams/team.queries.ts";
import { changeTeamUnderLock } from "#server/features/teams/ticket-team.service.ts";
import {
  type HeldTicket,
  inTicketTransaction,
  type RecordEvent,
} from "#server/features/ticket-events/ticket-transaction.ts";
import {
  findTicketById,
  lockTicket,
  type TicketFields,
} from "#server/features/ticket-records/ticket.queries.ts";
import { ensureVisible, findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { currentTicketFor } from "#server/features/ticket-records/ticket-view.ts";
import { assignToMeUnderLock, assignUnderLock } from "#server/features/tickets/assign-ticket.service.ts";
import { editUnderLock } from "#server/features/tickets/edit-ticket.service.ts";
import { putOnHoldUnderLock, takeOffHoldUnderLock } from "#server/features/tickets/hold-ticket.service.ts";
import { addCommentUnderLock } from "#server/features/tickets/ticket-activity.service.ts";
import { changeStatusUnderLock } from "#server/features/tickets/ticket-status.service.ts";
import { findPeopleByIds } from "#server/features/users/user.queries.ts";
import { consoleLogError } from "#server/log-error.ts";
import { fillPlaceholders } from "#shared/canned-responses/fill-placeholders.ts";
import {
  type BulkMacroInput,
  type MacroApplication,
  type MacroPreview,
  type MacroStep,
  type MacroStepKind,
  macroAssigneeMe,
  macroStepKinds,
} from "#shared/macros/macro.schemas.ts";
import { can } from "#shared/permissions.ts";
import type { BulkResult } from "#shared/tickets/ticket-bulk.ts";
import type { MacroWithOwner } from "./macro.queries.ts";
import { findUsableMacro } from "./macro.service.ts";

// Applying a macro (decision 075): one ticket transaction in which each step is the very code the single
// action runs under the ticket's lock (its rules, permission checks, messages and event), every event
// marked with the macro and one batch id. A refused step undoes the whole application.

type Run = (held: HeldTicket) => Promise<unknown>;
/**
 * What a step runner applies: a macro, or an automation rule's changes and its note or reply (decision 076),
 * which use the same steps.
 */
export type StepRecipe = Pick<MacroWithOwner, "id" | "title" | "body" | "replyVisibility" | "actions">;
/** Who made the changes, on each event they record: the macro or rule, and the one application. */
export interface StepVia {
  viaKind: "macro" | "rule";
  viaId: string;
  viaName: string;
  batchId: string;
}
/** A step as planned against the ticket as it is now: what it shows, and how to run it (none: already so). */
type Planned = { view: Omit<MacroStep, "outcome" | "reason">; run: Run | null };

/** How a refusal names its step: "Status: This ticket is already Resolved." */
const stepLabels: Record<MacroStepKind, string> = {
  hold_off: "Off hold",
  assignee: "Assignee",
  status: "Status",
  priority: "Priority",
  team: "Team",
  tags: "Tags",
  reply: "Reply",
  hold_on: "On hold",
};

const view = (kind: MacroStepKind, from: string | null, to: string | null): Planned["view"] => ({
  kind,
  from,
  to,
  tagsAdded: [],
  tagsRemoved: [],
  visibility: null,
});

/** The reply as it will be posted: the placeholders a canned response has (decision 013) filled for this ticket. */
async function replyText(db: Db, ctx: ServiceContext, ticketId: string, body: string) {
  const ticket = (await findTicketById(db, ticketId))!;
  const [agent] = await findPeopleByIds(db, [ctx.actor.id]);
  return fillPlaceholders(body, {
    ticket: {
      ticketId: ticket.id,
      title: ticket.title,
      status: ticket.status,
      priority: ticket.priority,
      category: ticket.category,
    },
    creatorName: ticket.createdByName,
    agentName: agent?.name ?? null,
  });
}

async function nameOf(db: Db, personId: string | null) {
  if (personId === null) return null;
  const [person] = await findPeopleByIds(db, [personId]);
  return person?.name ?? personId;
}

async function teamNameOf(db: Db, teamId: string | null) {
  if (teamId === null) return null;
  const [team] = await findTeams(db, teamId);
  return team?.name ?? teamId;
}

async function planAssignee(ctx: ServiceContext, tx: Db, ticket: TicketFields, assigneeId: string | null) {
  const target = assigneeId === macroAssigneeMe ? ctx.actor.id : assigneeId;
  const shown = view("assignee", await nameOf(tx, ticket.assignedTo), await nameOf(tx, target));
  if (ticket.assignedTo === target) return { view: shown, run: null };
  // A technician who applies "me" to an unassigned ticket takes it, as their Assign to Me button does.
  const takes = target === ctx.actor.id && ctx.actor.role === "technician" && ticket.assignedTo === null;
  const run: Run = takes
    ? (held) => assignToMeUnderLock(ctx, held)
    : (held) => assignUnderLock(ctx, held, target);
  return { view: shown, run };
}

/** The reply, or the hold it opens (the hold's public comment is the reply, decision 070). */
async function planReply(
  ctx: ServiceContext,
  tx: Db,
  ticket: TicketFields,
  macro: StepRecipe,
  kind: "reply" | "hold_on",
): Promise<Planned | null> {
  const opensHold = macro.actions.hold === "on";
  if (kind === "hold_on" && !opensHold) return null;
  if (kind === "hold_on" && ticket.onHoldSince) return { view: view("hold_on", null, null), run: null };
  // Already on hold, a hold macro's reply is a comment of its own.
  const isHoldReply = kind === "hold_on" || (opensHold && ticket.onHoldSince === null);
  if (kind === "reply" && (macro.body === "" || isHoldReply)) return null;
  const text = await replyText(tx, ctx, ticket.id, macro.body);
  const isInternal = !isHoldReply && macro.replyVisibility === "internal";
  const run: Run = async (held) => {
    const { message, notifyIds } = await resolveMentions(held.tx, ctx.actor, held.ticket, text);
    if (isHoldReply) return putOnHoldUnderLock(ctx, held, { message, notifyIds, holdUntil: null });
    return addCommentUnderLock(ctx, held, { message, isInternal, notifyIds });
  };
  return { view: { ...view(kind, null, text), visibility: isInternal ? "internal" : "public" }, run };
}

/** What step `kind` of the macro does to the ticket as it is now; null when the macro has no such step. */
async function planStep(
  ctx: ServiceContext,
  tx: Db,
  ticket: TicketFields,
  macro: StepRecipe,
  kind: MacroStepKind,
): Promise<Planned | null> {
  const { actions } = macro;
  switch (kind) {
    case "hold_off":
      if (actions.hold !== "off") return null;
      return {
        view: view(kind, null, null),
        run: ticket.onHoldSince ? (held) => takeOffHoldUnderLock(ctx, held) : null,
      };
    case "assignee":
      return actions.assigneeId === undefined ? null : planAssignee(ctx, tx, ticket, actions.assigneeId);
    case "status": {
      const status = actions.status;
      if (status === undefined) return null;
      // A major incident resolved by a macro resolves its tickets with the macro's public reply (decision 077).
      const note =
        status === "Resolved" && macro.body !== "" && macro.replyVisibility === "public"
          ? await replyText(tx, ctx, ticket.id, macro.body)
          : undefined;
      const run: Run = (held) => changeStatusUnderLock(ctx, held, status, { resolutionNote: note });
      return { view: view(kind, ticket.status, status), run: ticket.status === status ? null : run };
    }
    case "priority": {
      const priority = actions.priority;
      if (priority === undefined) return null;
      const run: Run = (held) => editUnderLock(ctx, held, { priority });
      return { view: view(kind, ticket.priority, priority), run: ticket.priority === priority ? null : run };
    }
    case "team": {
      const teamId = actions.teamId;
      if (teamId === undefined) return null;
      const shown = view(kind, await teamNameOf(tx, ticket.teamId), await teamNameOf(tx, teamId));
      const run: Run = (held) => changeTeamUnderLock(ctx, held, teamId);
      return { view: shown, run: ticket.teamId === teamId ? null : run };
    }
    case "tags": {
      const add = actions.addTags ?? [];
      const remove = actions.removeTags ?? [];
      if (add.length === 0 && remove.length === 0) return null;
      const tagsAdded = add.filter((tag) => !ticket.tags.includes(tag));
      const tagsRemoved = remove.filter((tag) => ticket.tags.includes(tag));
      const run: Run = (held) => changeTagsUnderLock(ctx, held, { add, remove });
      const changes = tagsAdded.length + tagsRemoved.length > 0;
      return { view: { ...view(kind, null, null), tagsAdded, tagsRemoved }, run: changes ? run : null };
    }
    case "reply":
    case "hold_on":
      return planReply(ctx, tx, ticket, macro, kind);
  }
}

/** The order the steps run in (macroStepKinds says why). */
function stepOrder(ctx: ServiceContext, ticket: TicketFields, macro: StepRecipe): MacroStepKind[] {
  const { assigneeId, status } = macro.actions;
  const target = assigneeId === macroAssigneeMe ? ctx.actor.id : assigneeId;
  const losesSight = target !== undefined && !can.viewTicket(ctx.actor, { ...ticket, assignedTo: target });
  const reopens = status === "In Progress";
  const moved: readonly MacroStepKind[] = ["hold_off", "assignee", "status"];
  const middle = macroStepKinds.filter((kind) => !moved.includes(kind));
  const first: MacroStepKind[] = ["hold_off", ...(losesSight ? [] : ["assignee" as const])];
  const last: MacroStepKind[] = losesSight ? ["assignee"] : [];
  return reopens ? [...first, "status", ...middle, ...last] : [...first, ...middle, "status", ...last];
}

const macroVia = (macro: StepRecipe): StepVia => ({
  viaKind: "macro",
  viaId: macro.id,
  viaName: macro.title,
  batchId: `mab_${randomUUID()}`,
});

/**
 * Runs the macro's steps on the locked ticket, each on the ticket as the step before left it. A dry run
 * (the preview) runs each step in a savepoint and goes on past a refusal, noting it; the caller then
 * rolls everything back. For real, a refusal throws, naming its step, and the transaction undoes the rest.
 */
export async function runSteps(
  ctx: ServiceContext,
  { tx, recordEvent, ticket: locked }: HeldTicket,
  macro: StepRecipe,
  { dryRun, via = macroVia(macro) }: { dryRun: boolean; via?: StepVia },
): Promise<MacroStep[]> {
  const recordVia: RecordEvent = (event) => recordEvent({ ...event, ...via });
  const steps: MacroStep[] = [];
  for (const kind of stepOrder(ctx, locked, macro)) {
    // The row as the previous step left it (the lock is already held: this waits for nothing).
    const ticket = (await lockTicket(tx, locked.id)) ?? locked;
    const planned = await planStep(ctx, tx, ticket, macro, kind);
    if (!planned) continue;
    if (!planned.run) {
      steps.push({ ...planned.view, outcome: "unchanged", reason: null });
      continue;
    }
    const run = planned.run;
    try {
      if (dryRun) await tx.transaction((savepoint) => run({ tx: savepoint, recordEvent: recordVia, ticket }));
      else await run({ tx, recordEvent: recordVia, ticket });
      steps.push({ ...planned.view, outcome: "change", reason: null });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (!dryRun) throw new AppError(error.code, `${stepLabels[kind]}: ${error.message}`, error.details);
      steps.push({ ...planned.view, outcome: "refused", reason: error.message });
    }
  }
  return steps;
}

/** Staff who may see the ticket and the macro; anyone else is refused before anything is read. */
async function usableMacroFor(ctx: ServiceContext, ticketId: string, macroId: string) {
  if (!can.accessMacros(ctx.actor)) throw forbidden("Only technicians and administrators can use macros.");
  await findVisibleTicket(ctx, ticketId);
  return findUsableMacro(ctx, macroId);
}

/** Thrown to roll a preview's dry run back, carrying what it found. */
class PreviewDone extends Error {
  constructor(readonly steps: MacroStep[]) {
    super("preview done");
  }
}

/** GET /api/tickets/:ticketId/macros/:macroId/preview: what each step would do to this ticket now. */
export async function previewMacro(
  ctx: ServiceContext,
  ticketId: string,
  macroId: string,
): Promise<MacroPreview> {
  const macro = await usableMacroFor(ctx, ticketId, macroId);
  try {
    await inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
      const ticket = ensureVisible(ctx.actor, locked, ticketId);
      throw new PreviewDone(await runSteps(ctx, { tx, recordEvent, ticket }, macro, { dryRun: true }));
    });
  } catch (error) {
    if (!(error instanceof PreviewDone)) throw error;
    const canApply =
      error.steps.every((step) => step.outcome !== "refused") &&
      error.steps.some((step) => step.outcome === "change");
    return { macroId: macro.id, title: macro.title, steps: error.steps, canApply };
  }
  throw new Error("previewMacro: the dry run did not end");
}

const nothingToChange = "Nothing to change: this ticket is already as the macro would leave it.";

async function applyToTicket(ctx: ServiceContext, ticketId: string, macro: MacroWithOwner) {
  return inTicketTransaction(ctx, ticketId, async (tx, recordEvent, locked) => {
    const ticket = ensureVisible(ctx.actor, locked, ticketId);
    const steps = await runSteps(ctx, { tx, recordEvent, ticket }, macro, { dryRun: false });
    if (!steps.some((step) => step.outcome === "change")) throw ruleViolation(nothingToChange);
    return steps;
  });
}

/** POST /api/tickets/:ticketId/macros/:macroId/apply: every step or none. */
export async function applyMacro(
  ctx: ServiceContext,
  ticketId: string,
  macroId: string,
): Promise<MacroApplication> {
  const macro = await usableMacroFor(ctx, ticketId, macroId);
  const steps = await applyToTicket(ctx, ticketId, macro);
  return { ticket: await currentTicketFor(ctx, ticketId), steps };
}

/**
 * POST /api/tickets/bulk/macro: the macro on each ticket in its own transaction, in the order given, as
 * the other bulk actions do (decision 015); a ticket the caller may not see is "not found", as alone.
 */
export async function applyMacroInBulk(
  ctx: ServiceContext,
  { ticketIds, macroId }: BulkMacroInput,
): Promise<BulkResult> {
  if (!can.changeInBulk(ctx.actor))
    throw forbidden("Only technicians and administrators can change tickets in bulk");
  const macro = await findUsableMacro(ctx, macroId);
  const result: BulkResult = { changed: [], refused: [] };
  for (const ticketId of ticketIds) {
    try {
      await findVisibleTicket(ctx, ticketId);
      await applyToTicket(ctx, ticketId, macro);
      result.changed.push(ticketId);
    } catch (error) {
      if (!(error instanceof AppError)) {
        (ctx.dispatcher?.logError ?? consoleLogError)(error, `macro ${macroId} on ticket ${ticketId} failed`);
      }
      result.refused.push({
        ticketId,
        message:
          error instanceof AppError ? error.message : "This ticket could not be changed just now; try again.",
      });
    }
  }
  return result;
}
