import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import type { Clock } from "#server/clock.ts";
import type { AttemptInSavepoint, ServiceContext, TicketAutomation } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { type AutomationRuleRow, automationRules } from "#server/db/schema/index.ts";
import { AppError, conflict } from "#server/errors.ts";
import { findCannedResponseById } from "#server/features/canned-responses/canned-response.queries.ts";
import {
  findCustomFields,
  findTicketsFieldValues,
} from "#server/features/custom-fields/custom-field.queries.ts";
import { runSteps, type StepRecipe } from "#server/features/macros/apply-macro.service.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import { findMembersOf, findPeopleForTeam, findTeams } from "#server/features/teams/team.queries.ts";
import type { RecordEvent } from "#server/features/ticket-events/ticket-transaction.ts";
import { lockTicket, type TicketFields } from "#server/features/ticket-records/ticket.queries.ts";
import type { LogError } from "#server/log-error.ts";
import type { RuleNotify } from "#shared/automation/rule-actions.ts";
import {
  conditionsHold,
  type RuleContext,
  type RuleTicket,
  type RuleTrigger,
} from "#shared/automation/rule-conditions.ts";
import { type Actor, isStaff } from "#shared/permissions.ts";

/** The enabled rules of a trigger, in the order they run. */
export function findEnabledRules(db: Db, trigger: RuleTrigger): Promise<AutomationRuleRow[]> {
  return db
    .select()
    .from(automationRules)
    .where(and(eq(automationRules.enabled, true), eq(automationRules.trigger, trigger)))
    .orderBy(asc(automationRules.position), asc(automationRules.id));
}

/** Who made the change, as a "changed by" condition reads it: the ticket's requester, or staff. */
function changedByOf(actor: Actor, ticket: TicketFields): RuleContext["changedBy"] {
  if (actor.id === ticket.createdBy) return "requester";
  return isStaff(actor) ? "staff" : null;
}

/**
 * A rule's changes as steps of a macro (decision 075): the same code and checks as a person's change. The
 * internal note is the first recipe's reply; a canned reply to the requester a second one.
 */
async function recipesOf(db: Db, rule: AutomationRuleRow): Promise<StepRecipe[]> {
  const { note, replyCannedResponseId, ...changes } = rule.actions;
  const recipes: StepRecipe[] = [
    { id: rule.id, title: rule.name, body: note ?? "", replyVisibility: "internal", actions: changes },
  ];
  if (replyCannedResponseId) {
    const response = await findCannedResponseById(db, replyCannedResponseId);
    if (response?.scope === "shared") {
      recipes.push({
        id: rule.id,
        title: rule.name,
        body: response.body,
        replyVisibility: "public",
        actions: {},
      });
    }
  }
  return recipes;
}

/** Whom a rule's notice reaches: the active staff it names and its teams' active technicians, and their names. */
async function noticeOf(db: Db, { userIds, teamIds }: RuleNotify) {
  const [people, teamRows, members] = await Promise.all([
    findPeopleForTeam(db, userIds),
    teamIds.length ? findTeams(db) : Promise.resolve([]),
    findMembersOf(db, teamIds),
  ]);
  const staff = people.filter((person) => person.status === "Active" && person.role !== "user");
  const teamsNamed = teamRows.filter((team) => teamIds.includes(team.id));
  const technicians = members.filter((member) => member.status === "Active" && member.role === "technician");
  return {
    userIds: [...new Set([...staff, ...technicians].map((person) => person.id))],
    names: [...staff.map((person) => person.name), ...teamsNamed.map((team) => team.name)].join(", "),
  };
}

/** One rule whose conditions hold, applied to a locked ticket (decision 076), by the write path or the time job. */
export interface RuleApplication {
  /** The ticket as the rule finds it, under the transaction's lock. */
  ticket: TicketFields;
  rule: AutomationRuleRow;
  /** Who writes the rule's note or reply when the administrator who wrote the rule is gone (null: nobody). */
  fallbackAuthorId: string | null;
  clock?: Clock;
  attempt: AttemptInSavepoint;
  /** Records outside the rule's savepoint: its refusal. */
  recordEvent: RecordEvent;
  logError: LogError;
}

/**
 * Applies a rule's changes in a savepoint through the macros' steps, every event the rule's own (no person
 * named, the rule and one batch), then its notice. A step refused (a status the ticket cannot take now, an
 * assignee deactivated since) undoes that rule's changes and notice, and a "rule_refused" entry says why.
 * The changes are made with an administrator's rights; its note or reply is written as the administrator
 * who wrote the rule. Returns whether it applied.
 */
export async function applyRule({
  ticket,
  rule,
  fallbackAuthorId,
  clock,
  attempt,
  recordEvent,
  logError,
}: RuleApplication): Promise<boolean> {
  const via = {
    viaKind: "rule" as const,
    viaId: rule.id,
    viaName: rule.name,
    batchId: `arb_${randomUUID()}`,
  };
  const author = rule.createdBy ?? fallbackAuthorId;
  try {
    if (!author && (rule.actions.note || rule.actions.replyCannedResponseId)) {
      throw conflict("The administrator who wrote this rule is gone, so its note or reply has no author.");
    }
    await attempt(async (savepoint, record) => {
      // The rule's own events: no person made them.
      const ruleEvent: RecordEvent = (event) => record({ ...event, actorId: null });
      const ruleCtx: ServiceContext = {
        db: savepoint,
        actor: { id: author ?? "", role: "admin" },
        clock,
      };
      // Each step reads the ticket as the step before left it (runSteps).
      const held = { tx: savepoint, recordEvent: ruleEvent, ticket };
      for (const recipe of await recipesOf(savepoint, rule)) {
        await runSteps(ruleCtx, held, recipe, { dryRun: false, via });
      }
      if (rule.actions.notify) {
        const notice = await noticeOf(savepoint, rule.actions.notify);
        if (notice.userIds.length > 0) {
          await ruleEvent({
            ticketId: ticket.id,
            type: "rule_notified",
            ...via,
            note: notice.names,
            noticeUserIds: notice.userIds,
            createdAt: clock?.now(),
          });
        }
      }
    });
    return true;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    logError(error, `automation rule "${rule.name}" (${rule.id}) did not apply to ticket ${ticket.id}`);
    await recordEvent({
      ticketId: ticket.id,
      type: "rule_refused",
      actorId: null,
      ...via,
      note: error.message,
      createdAt: clock?.now(),
    });
    return false;
  }
}

/**
 * The automation rules (decision 076), as the write path runs them after a change: the enabled rules of the
 * trigger in their order, each once, each on the ticket as the rules before it left it (applyRule). A
 * refused rule does not stop the rules after it.
 */
export function createTicketAutomation({ logError }: { logError: LogError }): TicketAutomation {
  return {
    async afterChange({ tx, ticketId, trigger, actor, clock, attempt, recordEvent }) {
      const rules = await findEnabledRules(tx, trigger);
      if (rules.length === 0) return;
      const [calendar, fields] = await Promise.all([
        readSetting(tx, "business-calendar"),
        findCustomFields(tx),
      ]);
      const found = await lockTicket(tx, ticketId);
      if (!found) return;
      let ticket: TicketFields = found;
      // Read once: no rule changes a custom field, the requester or the time.
      const values = await findTicketsFieldValues(tx, [ticketId], fields);
      const context = { changedBy: changedByOf(actor, ticket), now: clock?.now() ?? new Date(), calendar };
      for (const rule of rules) {
        if (ticket.status === "Closed") return;
        const facts: RuleTicket = { ...ticket, customFields: values.get(ticketId) ?? {} };
        if (!conditionsHold(rule.conditions, facts, context)) continue;
        const application = { ticket, rule, fallbackAuthorId: actor.id, clock, attempt, recordEvent };
        if (await applyRule({ ...application, logError })) {
          // The ticket as this rule left it, for the rules after it.
          ticket = (await lockTicket(tx, ticketId)) ?? ticket;
        }
      }
    },
  };
}
