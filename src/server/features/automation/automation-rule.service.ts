import { randomBytes } from "node:crypto";
import { nowOf, type ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import type { AutomationRuleRow } from "#server/db/schema/index.ts";
import { conflict, forbidden, notFound, validationFailed } from "#server/errors.ts";
import { findCustomFields } from "#server/features/custom-fields/custom-field.queries.ts";
import { insertAdminChange } from "#server/features/settings/settings.queries.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import {
  type AutomationRule,
  type AutomationRuleInputParsed,
  type AutomationRuleList,
  type AutomationRuleTry,
  automationRulesMax,
  ruleTrySampleSize,
} from "#shared/automation/automation-rule.schemas.ts";
import { conditionsHold, type RuleCondition } from "#shared/automation/rule-conditions.ts";
import { can } from "#shared/permissions.ts";
import {
  deleteAutomationRule,
  findAutomationRules,
  findOpenTicketsPage,
  findReferences,
  insertAutomationRule,
  lockAutomationRules,
  updateAutomationRule,
} from "./automation-rule.queries.ts";

export const automationArea = "automation";
const newRuleId = () => `ar_${randomBytes(8).toString("hex")}`;

/** "Try" reads the open tickets a page at a time, and stops after this many (the answer says how many). */
const tryPageSize = 500;
export const tryTicketsMax = 20_000;

export function requireAutomationManager(ctx: ServiceContext) {
  if (!can.manageAutomation(ctx.actor)) throw forbidden("Only administrators can manage automation rules.");
}

function toDto(row: AutomationRuleRow): AutomationRule {
  return {
    id: row.id,
    name: row.name,
    position: row.position,
    enabled: row.enabled,
    trigger: row.trigger,
    conditions: row.conditions,
    actions: row.actions,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listAutomationRules(ctx: ServiceContext): Promise<AutomationRuleList> {
  requireAutomationManager(ctx);
  return { rules: (await findAutomationRules(ctx.db)).map(toDto) };
}

const referenceError = (path: Array<string | number>, message: string) =>
  validationFailed(`${message}`, [{ path, message }]);

/**
 * What a rule names must exist now: its teams, the technician it assigns to, the staff it tells, its custom
 * fields, its canned reply (a shared one: a rule speaks for the whole desk). A name deleted later makes the
 * rule's action fail at run time, said in the ticket's timeline (decision 076).
 */
async function checkReferences(db: Db, { conditions, actions }: AutomationRuleInputParsed) {
  const conditionTeams = conditions.flatMap((c) => (c.field === "team" && c.value ? [c.value] : []));
  const conditionPeople = conditions.flatMap((c) => (c.field === "assignee" && c.value ? [c.value] : []));
  const fieldIds = conditions.flatMap((c) => (c.field === "custom_field" ? [c.fieldId] : []));
  const notify = actions.notify ?? { userIds: [], teamIds: [] };
  const teamIds = [...conditionTeams, ...(actions.teamId ? [actions.teamId] : []), ...notify.teamIds];
  const found = await findReferences(db, {
    teams: teamIds,
    technicians: [...conditionPeople, ...(actions.assigneeId ? [actions.assigneeId] : [])],
    staff: notify.userIds,
    fields: fieldIds,
    responses: actions.replyCannedResponseId ? [actions.replyCannedResponseId] : [],
  });
  for (const [index, condition] of conditions.entries()) {
    if (condition.field === "team" && condition.value && !found.teams.has(condition.value))
      throw referenceError(["conditions", index, "value"], "Conditions: choose one of the teams");
    if (condition.field === "assignee" && condition.value && !found.technicians.has(condition.value))
      throw referenceError(["conditions", index, "value"], "Conditions: choose an active technician");
    if (condition.field === "custom_field" && !found.fields.has(condition.fieldId))
      throw referenceError(["conditions", index, "fieldId"], "Conditions: choose one of the custom fields");
  }
  if (actions.teamId && !found.teams.has(actions.teamId))
    throw referenceError(["actions", "teamId"], "Team: choose one of the teams");
  if (actions.assigneeId && !found.technicians.has(actions.assigneeId))
    throw referenceError(["actions", "assigneeId"], "Assign to: choose an active technician");
  for (const [index, userId] of notify.userIds.entries()) {
    if (!found.staff.has(userId))
      throw referenceError(["actions", "notify", "userIds", index], "Notify: choose active staff members");
  }
  for (const [index, teamId] of notify.teamIds.entries()) {
    if (!found.teams.has(teamId))
      throw referenceError(["actions", "notify", "teamIds", index], "Notify: choose one of the teams");
  }
  if (actions.replyCannedResponseId && !found.responses.has(actions.replyCannedResponseId))
    throw referenceError(["actions", "replyCannedResponseId"], "Reply: choose a shared canned response");
}

const nameTaken = (name: string) => conflict(`There is already a rule named “${name}”. Choose another name.`);
const isNameClash = (error: unknown) =>
  String(
    (error as { cause?: { constraint?: string } })?.cause?.constraint ?? (error as Error)?.message,
  ).includes("automation_rules_name_idx");

const snapshotOf = ({ createdAt: _c, updatedAt: _u, ...rule }: AutomationRuleRow) => rule;

function findIn(rules: AutomationRuleRow[], ruleId: string) {
  const rule = rules.find((candidate) => candidate.id === ruleId);
  if (!rule) throw notFound("Automation rule", ruleId);
  return rule;
}

/**
 * Adds or changes a rule named `name`: a name another rule has, whatever its case, is 409, found among the
 * locked rules or, for one added at the same moment, by the unique index.
 */
async function withUniqueName(
  name: string,
  work: (refuseTaken: (rules: AutomationRuleRow[], except?: string) => void) => Promise<AutomationRuleRow>,
): Promise<AutomationRule> {
  const refuseTaken = (rules: AutomationRuleRow[], except?: string) => {
    if (rules.some((rule) => rule.id !== except && rule.name.toLowerCase() === name.toLowerCase()))
      throw nameTaken(name);
  };
  try {
    return toDto(await work(refuseTaken));
  } catch (error) {
    if (isNameClash(error)) throw nameTaken(name);
    throw error;
  }
}

export async function addAutomationRule(
  ctx: ServiceContext,
  input: AutomationRuleInputParsed,
): Promise<AutomationRule> {
  requireAutomationManager(ctx);
  const at = nowOf(ctx);
  return withUniqueName(input.name, (refuseTaken) =>
    ctx.db.transaction(async (tx) => {
      const existing = await lockAutomationRules(tx);
      if (existing.length >= automationRulesMax) {
        throw conflict(
          `There are already ${automationRulesMax} automation rules. Delete one you no longer use first.`,
        );
      }
      refuseTaken(existing);
      await checkReferences(tx, input);
      const row = await insertAutomationRule(tx, {
        id: newRuleId(),
        position: Math.max(0, ...existing.map((rule) => rule.position + 1)),
        ...input,
        createdBy: ctx.actor.id,
        createdAt: at,
        updatedAt: at,
      });
      await insertAdminChange(tx, {
        actorId: ctx.actor.id,
        area: automationArea,
        summary: `Added the automation rule “${row.name}”`,
        before: null,
        after: snapshotOf(row),
        at,
      });
      return row;
    }),
  );
}

export async function changeAutomationRule(
  ctx: ServiceContext,
  ruleId: string,
  input: AutomationRuleInputParsed,
): Promise<AutomationRule> {
  requireAutomationManager(ctx);
  const at = nowOf(ctx);
  return withUniqueName(input.name, (refuseTaken) =>
    ctx.db.transaction(async (tx) => {
      const rules = await lockAutomationRules(tx);
      const before = findIn(rules, ruleId);
      refuseTaken(rules, ruleId);
      await checkReferences(tx, input);
      const after = await updateAutomationRule(tx, ruleId, { ...input, updatedAt: at });
      if (JSON.stringify(snapshotOf(before)) !== JSON.stringify(snapshotOf(after))) {
        await insertAdminChange(tx, {
          actorId: ctx.actor.id,
          area: automationArea,
          summary: `Changed the automation rule “${after.name}”`,
          before: snapshotOf(before),
          after: snapshotOf(after),
          at,
        });
      }
      return after;
    }),
  );
}

/** Switches a rule on or off: the one change made most often, without sending the rule again. */
export async function setAutomationRuleEnabled(
  ctx: ServiceContext,
  ruleId: string,
  { enabled }: { enabled: boolean },
): Promise<AutomationRule> {
  requireAutomationManager(ctx);
  const at = nowOf(ctx);
  return toDto(
    await ctx.db.transaction(async (tx) => {
      const before = findIn(await lockAutomationRules(tx), ruleId);
      if (before.enabled === enabled) return before;
      const after = await updateAutomationRule(tx, ruleId, { enabled, updatedAt: at });
      await insertAdminChange(tx, {
        actorId: ctx.actor.id,
        area: automationArea,
        summary: `${enabled ? "Switched on" : "Switched off"} the automation rule “${after.name}”`,
        before: before.enabled,
        after: enabled,
        at,
      });
      return after;
    }),
  );
}

export async function removeAutomationRule(ctx: ServiceContext, ruleId: string): Promise<void> {
  requireAutomationManager(ctx);
  const at = nowOf(ctx);
  await ctx.db.transaction(async (tx) => {
    const before = findIn(await lockAutomationRules(tx), ruleId);
    await deleteAutomationRule(tx, ruleId);
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area: automationArea,
      summary: `Deleted the automation rule “${before.name}”`,
      before: snapshotOf(before),
      after: null,
      at,
    });
  });
}

/** Puts the rules in the order given (every rule's id, each once): the order they run in. */
export async function reorderAutomationRules(
  ctx: ServiceContext,
  { ruleIds }: { ruleIds: string[] },
): Promise<AutomationRuleList> {
  requireAutomationManager(ctx);
  const at = nowOf(ctx);
  await ctx.db.transaction(async (tx) => {
    const rules = await lockAutomationRules(tx);
    const known = new Set(rules.map((rule) => rule.id));
    if (
      new Set(ruleIds).size !== ruleIds.length ||
      ruleIds.length !== rules.length ||
      ruleIds.some((id) => !known.has(id))
    ) {
      throw validationFailed("ruleIds: send every automation rule's id once, in the new order");
    }
    const before = rules.map((rule) => rule.id);
    if (before.join() === ruleIds.join()) return;
    for (const [position, id] of ruleIds.entries()) {
      await updateAutomationRule(tx, id, { position, updatedAt: at });
    }
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area: automationArea,
      summary: "Reordered the automation rules",
      before,
      after: ruleIds,
      at,
    });
  });
  return listAutomationRules(ctx);
}

/**
 * "Try": how many open tickets (Open, In Progress) the conditions hold for now, before the rule is switched
 * on. Who changed a ticket is not known while trying, so that condition is taken as holding; the actions
 * are not run. Reads at most tryTicketsMax tickets, newest first, and says how many it read.
 */
export async function tryAutomationRule(
  ctx: ServiceContext,
  conditions: RuleCondition[],
): Promise<AutomationRuleTry> {
  requireAutomationManager(ctx);
  const [calendar, fields] = await Promise.all([
    readSetting(ctx.db, "business-calendar"),
    findCustomFields(ctx.db),
  ]);
  const known = conditions.filter((condition) => condition.field !== "changed_by");
  const context = { changedBy: null, now: nowOf(ctx), calendar };
  const result: AutomationRuleTry = { matched: 0, checked: 0, tickets: [] };
  let after: { createdAt: Date; id: string } | null = null;
  while (result.checked < tryTicketsMax) {
    const page = await findOpenTicketsPage(ctx.db, after, tryPageSize, fields);
    for (const ticket of page) {
      result.checked++;
      if (!conditionsHold(known, ticket, context)) continue;
      result.matched++;
      if (result.tickets.length < ruleTrySampleSize) {
        result.tickets.push({ id: ticket.id, title: ticket.title, status: ticket.status });
      }
    }
    if (page.length < tryPageSize) break;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
  return result;
}
