import type { Clock } from "#server/clock.ts";
import type { Db } from "#server/db/client.ts";
import type { AutomationRuleRow, CustomFieldRow } from "#server/db/schema/index.ts";
import type { Dispatcher } from "#server/events/dispatcher.ts";
import {
  findCustomFields,
  findTicketsFieldValues,
} from "#server/features/custom-fields/custom-field.queries.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import { inTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { lockTicket } from "#server/features/ticket-records/ticket.queries.ts";
import type { Job, JobLog } from "#server/jobs/job-runner.ts";
import { conditionsHold } from "#shared/automation/rule-conditions.ts";
import type { BusinessCalendar } from "#shared/service-levels/business-calendar.schemas.ts";
import { claimRuleRun, findOpenTicketsPage, timeRuleCandidates } from "./automation-rule.queries.ts";
import { applyRule, findEnabledRules } from "./run-rules.ts";

// Time-based automation rules (decision 076): a scheduled job looks at the open tickets each enabled time
// rule has not run on, and applies the rule to each one whose conditions hold, once: the rule's run row,
// inserted in the transaction that acts, is the claim that two instances cannot both make.

interface TimeRulesContext {
  db: Db;
  clock: Clock;
  log: Pick<JobLog, "info" | "error">;
  dispatcher?: Dispatcher;
}

const jobName = "automation-time-rules";
/** Candidates are read this many at a time, newest first, and at most candidatesMax per rule and run. */
const pageSize = 500;
const candidatesMax = 20_000;

interface Facts {
  calendar: BusinessCalendar;
  fields: readonly CustomFieldRow[];
}

/**
 * Applies `rule` to one ticket if its conditions still hold under the ticket's lock and no run has claimed
 * the pair: the claim, the rule's changes (or its refusal) and their notices commit together.
 */
async function runOnTicket(ctx: TimeRulesContext, rule: AutomationRuleRow, ticketId: string, facts: Facts) {
  const { db, clock, dispatcher, log } = ctx;
  const logError = (error: unknown, message: string) => log.error({ job: jobName, err: error }, message);
  return inTransaction({ db, dispatcher, clock }, async (tx, recordEvent, attempt) => {
    const ticket = await lockTicket(tx, ticketId);
    if (!ticket || (ticket.status !== "Open" && ticket.status !== "In Progress")) return false;
    const now = clock.now();
    const values = await findTicketsFieldValues(tx, [ticketId], facts.fields);
    const context = { changedBy: null, now, calendar: facts.calendar };
    if (!conditionsHold(rule.conditions, { ...ticket, customFields: values.get(ticketId) ?? {} }, context)) {
      return false;
    }
    if (!(await claimRuleRun(tx, rule.id, ticketId, now))) return false;
    await applyRule({ ticket, rule, fallbackAuthorId: null, clock, attempt, recordEvent, logError });
    return true;
  });
}

/** One time rule over its candidates. Returns how many tickets it ran on (applied or refused). */
async function runTimeRule(ctx: TimeRulesContext, rule: AutomationRuleRow, facts: Facts) {
  let ran = 0;
  let read = 0;
  let after: { createdAt: Date; id: string } | null = null;
  while (read < candidatesMax) {
    const now = ctx.clock.now();
    const where = timeRuleCandidates(rule, now);
    const page = await findOpenTicketsPage(ctx.db, after, pageSize, facts.fields, where);
    read += page.length;
    const context = { changedBy: null, now, calendar: facts.calendar };
    for (const ticket of page) {
      if (!conditionsHold(rule.conditions, ticket, context)) continue;
      if (await runOnTicket(ctx, rule, ticket.id, facts)) ran++;
    }
    if (page.length < pageSize) break;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
  return ran;
}

/** Runs every enabled time-based rule, in their order. Returns how many (rule, ticket) runs it made. */
export async function runTimeRulesNow(ctx: TimeRulesContext): Promise<number> {
  const rules = await findEnabledRules(ctx.db, "time");
  if (rules.length === 0) return 0;
  const [calendar, fields] = await Promise.all([
    readSetting(ctx.db, "business-calendar"),
    findCustomFields(ctx.db),
  ]);
  let total = 0;
  for (const rule of rules) {
    const ran = await runTimeRule(ctx, rule, { calendar, fields });
    if (ran > 0) {
      ctx.log.info(
        { job: jobName, rule: rule.id, tickets: ran },
        `Automation: the time-based rule “${rule.name}” ran on ${ran} tickets`,
      );
    }
    total += ran;
  }
  return total;
}

/** The scheduled job (every minute by default) that runs the time-based automation rules. */
export function automationTimeRulesJob({ intervalMs = 60_000 }: { intervalMs?: number } = {}): Job {
  return { name: jobName, intervalMs, run: async (ctx) => ({ done: await runTimeRulesNow(ctx) }) };
}
