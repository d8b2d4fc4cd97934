import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import type { ServiceContext, TicketAutomation } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { type AutomationRuleRow, automationRules } from "#server/db/schema/index.ts";
import { AppError } from "#server/errors.ts";
import { findCannedResponseById } from "#server/features/canned-responses/canned-response.queries.ts";
import {
  findCustomFields,
  findTicketsFieldValues,
} from "#server/features/custom-fields/custom-field.queries.ts";
import { runSteps, type StepRecipe } from "#server/features/macros/apply-macro.service.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import type { RecordEvent } from "#server/features/ticket-events/ticket-transaction.ts";
import { lockTicket, type TicketFields } from "#server/features/ticket-records/ticket.queries.ts";
import type { LogError } from "#server/log-error.ts";
import { conditionsHold, type RuleContext, type RuleTicket } from "#shared/automation/rule-conditions.ts";
import { type Actor, isStaff } from "#shared/permissions.ts";

/** The enabled rules of a trigger, in the order they run. */
function findEnabledRules(db: Db, trigger: "created" | "changed"): Promise<AutomationRuleRow[]> {
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

/**
 * The automation rules (decision 076), as the write path runs them after a change: the enabled rules of the
 * trigger in their order, each once, each on the ticket as the rules before it left it. A rule whose
 * conditions hold applies its changes in a savepoint through the macros' steps, every event marked with the
 * rule and one batch; a step refused (a status the ticket cannot take now) undoes that rule's changes and is
 * logged, and the rules after it still run. The changes are the rule's (no person is named on its events),
 * made with an administrator's rights; its note or reply is written as the administrator who wrote the rule.
 */
export function createTicketAutomation({ logError }: { logError: LogError }): TicketAutomation {
  return {
    async afterChange({ tx, ticketId, trigger, actor, clock, attempt }) {
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
        const via = {
          viaKind: "rule" as const,
          viaId: rule.id,
          viaName: rule.name,
          batchId: `arb_${randomUUID()}`,
        };
        const current = ticket;
        // With an administrator's rights, as the administrator who wrote it: its note or reply is theirs.
        const author = rule.createdBy ?? actor.id;
        const ruleCtx: ServiceContext = { db: tx, actor: { id: author, role: "admin" }, clock };
        try {
          await attempt(async (savepoint, record) => {
            // The rule's own events: no person made them.
            const recordEvent: RecordEvent = (event) => record({ ...event, actorId: null });
            // Each step reads the ticket as the step before left it (runSteps).
            const held = { tx: savepoint, recordEvent, ticket: current };
            for (const recipe of await recipesOf(savepoint, rule)) {
              await runSteps(ruleCtx, held, recipe, { dryRun: false, via });
            }
          });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          logError(error, `automation rule "${rule.name}" (${rule.id}) did not apply to ticket ${ticketId}`);
        }
        // The ticket as this rule left it, for the rules after it.
        ticket = (await lockTicket(tx, ticketId)) ?? current;
      }
    },
  };
}
