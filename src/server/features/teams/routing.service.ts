import { randomBytes } from "node:crypto";
import { nowOf, type ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import type { CustomFieldRow, RoutingRuleRow } from "#server/db/schema/index.ts";
import { conflict, notFound, validationFailed } from "#server/errors.ts";
import { insertAdminChange } from "#server/features/settings/settings.queries.ts";
import { type CustomFieldValue, formatCustomFieldValue } from "#shared/custom-fields/custom-field-values.ts";
import { type RoutableTicket, routeTicket } from "#shared/teams/routing.ts";
import {
  type DefaultTeamInput,
  type Routing,
  type RoutingOrderInput,
  type RoutingRule,
  type RoutingRuleInputParsed,
  routingRulesMax,
} from "#shared/teams/routing-rule.schemas.ts";
import {
  deleteRoutingRule,
  findCustomFieldById,
  findDefaultTeamId,
  findRoutingConditions,
  findRoutingRules,
  insertRoutingRule,
  lockRoutingRules,
  type RoutingRuleWithNames,
  updateRoutingRule,
} from "./routing.queries.ts";
import { findTeams, lockTeam, setDefaultTeamRow } from "./team.queries.ts";
import { requireTeamManager, teamsArea } from "./team.service.ts";

const newRuleId = () => `rr_${randomBytes(8).toString("hex")}`;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The team a new ticket goes to (decision 069): the first rule that matches, else the default team, else
 * none. Read in the creating transaction, so the ticket's row has its team before its event is recorded.
 */
export async function routeNewTicket(tx: Db, ticket: RoutableTicket): Promise<string | null> {
  const { rules, defaultTeamId } = await findRoutingConditions(tx);
  return routeTicket(rules, defaultTeamId, ticket);
}

/** A rule's stored value as the field's type reads it (what formatCustomFieldValue expects). */
function typedValue(field: CustomFieldRow, value: string): CustomFieldValue {
  if (field.type === "checkbox") return value === "true";
  if (field.type === "number") return Number(value);
  return value;
}

function toRoutingRuleDto({ rule, teamName, field }: RoutingRuleWithNames): RoutingRule {
  const value = rule.customFieldValue;
  return {
    id: rule.id,
    position: rule.position,
    category: rule.category,
    department: rule.department,
    customField:
      rule.customFieldId === null || value === null
        ? null
        : {
            fieldId: rule.customFieldId,
            fieldLabel: field?.label ?? rule.customFieldId,
            value,
            valueLabel: field ? formatCustomFieldValue(field, typedValue(field, value)) : value,
          },
    titleWords: rule.titleWords,
    teamId: rule.teamId,
    teamName,
  };
}

export async function getRouting(ctx: ServiceContext): Promise<Routing> {
  requireTeamManager(ctx);
  const [rules, defaultTeamId] = await Promise.all([findRoutingRules(ctx.db), findDefaultTeamId(ctx.db)]);
  return { rules: rules.map(toRoutingRuleDto), defaultTeamId };
}

const fieldValueError = (message: string) =>
  validationFailed(`Custom field value: ${message}`, [{ path: ["customField", "value"], message }]);

/**
 * The value a rule stores for a field, checked against its definition: one of a choice field's choices
 * (by value or label), true or false for a tick box, a number, a date, or text.
 */
function storedFieldValue(field: CustomFieldRow, raw: string): string {
  const value = raw.trim();
  switch (field.type) {
    case "single_choice":
    case "multiple_choice": {
      const choice = field.options.find(
        (option) => option.value === value || option.label.toLowerCase() === value.toLowerCase(),
      );
      if (!choice) throw fieldValueError(`'${value}' is not one of the choices of ${field.label}`);
      return choice.value;
    }
    case "checkbox":
      if (value !== "true" && value !== "false") throw fieldValueError(`${field.label} is true or false`);
      return value;
    case "number":
      if (!Number.isFinite(Number(value))) throw fieldValueError(`${field.label} is a number`);
      return String(Number(value));
    case "date":
      if (!datePattern.test(value)) throw fieldValueError(`${field.label} is a date (YYYY-MM-DD)`);
      return value;
    case "text":
      return value;
  }
}

/** The row values of a rule, checked: its team exists, its custom field exists and is asked, its value fits. */
async function ruleValues(tx: Db, input: RoutingRuleInputParsed) {
  if (!(await lockTeam(tx, input.teamId))) {
    throw validationFailed(`Team: there is no team '${input.teamId}'`, [
      { path: ["teamId"], message: "Choose one of the teams" },
    ]);
  }
  let customFieldValue: string | null = null;
  if (input.customField) {
    const field = await findCustomFieldById(tx, input.customField.fieldId);
    if (!field) {
      throw validationFailed(`Custom field: there is no field '${input.customField.fieldId}'`, [
        { path: ["customField", "fieldId"], message: "Choose one of the custom fields" },
      ]);
    }
    if (field.retiredAt !== null) {
      throw validationFailed(`Custom field: ${field.label} is retired`, [
        { path: ["customField", "fieldId"], message: `${field.label} is retired` },
      ]);
    }
    customFieldValue = storedFieldValue(field, input.customField.value);
  }
  return {
    category: input.category,
    department: input.department,
    customFieldId: input.customField?.fieldId ?? null,
    customFieldValue,
    titleWords: input.titleWords,
    teamId: input.teamId,
  };
}

async function ruleDtoOf(db: Db, ruleId: string): Promise<RoutingRule> {
  const found = (await findRoutingRules(db)).find((entry) => entry.rule.id === ruleId);
  if (!found) throw notFound("Routing rule", ruleId);
  return toRoutingRuleDto(found);
}

const snapshotOf = ({ createdAt: _c, updatedAt: _u, ...rule }: RoutingRuleRow) => rule;

export async function addRoutingRule(
  ctx: ServiceContext,
  input: RoutingRuleInputParsed,
): Promise<RoutingRule> {
  requireTeamManager(ctx);
  const at = nowOf(ctx);
  const id = await ctx.db.transaction(async (tx) => {
    const existing = await lockRoutingRules(tx);
    if (existing.length >= routingRulesMax) {
      throw conflict(
        `There are already ${routingRulesMax} routing rules. Delete one you no longer use first.`,
      );
    }
    const row = await insertRoutingRule(tx, {
      id: newRuleId(),
      position: Math.max(0, ...existing.map((rule) => rule.position + 1)),
      ...(await ruleValues(tx, input)),
      createdAt: at,
      updatedAt: at,
    });
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area: teamsArea,
      summary: "Added a routing rule",
      before: null,
      after: snapshotOf(row),
      at,
    });
    return row.id;
  });
  return ruleDtoOf(ctx.db, id);
}

function findIn(rules: RoutingRuleRow[], ruleId: string) {
  const rule = rules.find((candidate) => candidate.id === ruleId);
  if (!rule) throw notFound("Routing rule", ruleId);
  return rule;
}

export async function changeRoutingRule(
  ctx: ServiceContext,
  ruleId: string,
  input: RoutingRuleInputParsed,
): Promise<RoutingRule> {
  requireTeamManager(ctx);
  const at = nowOf(ctx);
  await ctx.db.transaction(async (tx) => {
    const before = findIn(await lockRoutingRules(tx), ruleId);
    const after = await updateRoutingRule(tx, ruleId, { ...(await ruleValues(tx, input)), updatedAt: at });
    if (JSON.stringify(snapshotOf(before)) === JSON.stringify(snapshotOf(after))) return;
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area: teamsArea,
      summary: "Changed a routing rule",
      before: snapshotOf(before),
      after: snapshotOf(after),
      at,
    });
  });
  return ruleDtoOf(ctx.db, ruleId);
}

export async function removeRoutingRule(ctx: ServiceContext, ruleId: string): Promise<void> {
  requireTeamManager(ctx);
  const at = nowOf(ctx);
  await ctx.db.transaction(async (tx) => {
    const before = findIn(await lockRoutingRules(tx), ruleId);
    await deleteRoutingRule(tx, ruleId);
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area: teamsArea,
      summary: "Deleted a routing rule",
      before: snapshotOf(before),
      after: null,
      at,
    });
  });
}

/** Puts the rules in the order given (every rule's id, each once): the order they are tried in. */
export async function reorderRoutingRules(
  ctx: ServiceContext,
  { ruleIds }: RoutingOrderInput,
): Promise<Routing> {
  requireTeamManager(ctx);
  const at = nowOf(ctx);
  await ctx.db.transaction(async (tx) => {
    const rules = await lockRoutingRules(tx);
    const known = new Set(rules.map((rule) => rule.id));
    if (
      new Set(ruleIds).size !== ruleIds.length ||
      ruleIds.length !== rules.length ||
      ruleIds.some((id) => !known.has(id))
    ) {
      throw validationFailed("ruleIds: send every routing rule's id once, in the new order");
    }
    const before = rules.map((rule) => rule.id);
    if (before.join() === ruleIds.join()) return;
    for (const [position, id] of ruleIds.entries()) {
      await updateRoutingRule(tx, id, { position, updatedAt: at });
    }
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area: teamsArea,
      summary: "Reordered the routing rules",
      before,
      after: ruleIds,
      at,
    });
  });
  return getRouting(ctx);
}

/** The team a ticket no rule matches goes to; null: no team (as before teams). */
export async function setDefaultTeam(ctx: ServiceContext, { teamId }: DefaultTeamInput): Promise<Routing> {
  requireTeamManager(ctx);
  const at = nowOf(ctx);
  await ctx.db.transaction(async (tx) => {
    if (teamId !== null && !(await lockTeam(tx, teamId))) {
      throw validationFailed(`Default team: there is no team '${teamId}'`, [
        { path: ["teamId"], message: "Choose one of the teams" },
      ]);
    }
    const before = await findDefaultTeamId(tx);
    if (before === teamId) return;
    await setDefaultTeamRow(tx, teamId, at);
    const names = new Map((await findTeams(tx)).map((team) => [team.id, team.name]));
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area: teamsArea,
      summary: teamId ? `Made “${names.get(teamId)}” the default team` : "Removed the default team",
      before: before === null ? null : (names.get(before) ?? before),
      after: teamId === null ? null : (names.get(teamId) ?? teamId),
      at,
    });
  });
  return getRouting(ctx);
}
