import { and, asc, desc, eq, inArray, isNotNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  type AutomationRuleRow,
  automationRuleRuns,
  automationRules,
  type CustomFieldRow,
  cannedResponses,
  customFields,
  teams,
  tickets,
  users,
} from "#server/db/schema/index.ts";
import { findTicketsFieldValues } from "#server/features/custom-fields/custom-field.queries.ts";
import type { RuleTicket } from "#shared/automation/rule-conditions.ts";

/** Every rule in the order they run. */
export function findAutomationRules(db: Db): Promise<AutomationRuleRow[]> {
  return db.select().from(automationRules).orderBy(asc(automationRules.position), asc(automationRules.id));
}

/** Every rule, locked: adding, changing, moving and deleting take turns, so positions stay one each. */
export function lockAutomationRules(tx: Db): Promise<AutomationRuleRow[]> {
  return tx
    .select()
    .from(automationRules)
    .orderBy(asc(automationRules.position), asc(automationRules.id))
    .for("update");
}

export async function insertAutomationRule(tx: Db, values: typeof automationRules.$inferInsert) {
  const [row] = await tx.insert(automationRules).values(values).returning();
  return row!;
}

export async function updateAutomationRule(
  tx: Db,
  id: string,
  values: Partial<typeof automationRules.$inferInsert>,
) {
  const [row] = await tx.update(automationRules).set(values).where(eq(automationRules.id, id)).returning();
  return row!;
}

export async function deleteAutomationRule(tx: Db, id: string) {
  await tx.delete(automationRules).where(eq(automationRules.id, id));
}

/** Which of these ids are teams, active technicians, active staff, custom fields, shared canned responses. */
export async function findReferences(
  db: Db,
  ids: { teams: string[]; technicians: string[]; staff: string[]; fields: string[]; responses: string[] },
) {
  const none = Promise.resolve([] as Array<{ id: string }>);
  const [teamRows, technicianRows, staffRows, fieldRows, responseRows] = await Promise.all([
    ids.teams.length ? db.select({ id: teams.id }).from(teams).where(inArray(teams.id, ids.teams)) : none,
    ids.technicians.length
      ? db
          .select({ id: users.id })
          .from(users)
          .where(
            and(inArray(users.id, ids.technicians), eq(users.role, "technician"), eq(users.status, "Active")),
          )
      : none,
    ids.staff.length
      ? db
          .select({ id: users.id })
          .from(users)
          .where(
            and(
              inArray(users.id, ids.staff),
              inArray(users.role, ["technician", "admin"]),
              eq(users.status, "Active"),
            ),
          )
      : none,
    ids.fields.length
      ? db.select({ id: customFields.id }).from(customFields).where(inArray(customFields.id, ids.fields))
      : none,
    ids.responses.length
      ? db
          .select({ id: cannedResponses.id })
          .from(cannedResponses)
          .where(and(inArray(cannedResponses.id, ids.responses), eq(cannedResponses.scope, "shared")))
      : none,
  ]);
  const set = (rows: Array<{ id: string }>) => new Set(rows.map((row) => row.id));
  return {
    teams: set(teamRows),
    technicians: set(technicianRows),
    staff: set(staffRows),
    fields: set(fieldRows),
    responses: set(responseRows),
  };
}

/**
 * A page of the open tickets (Open, In Progress), newest first, as the conditions read them; `where` narrows
 * them (a time-based rule's candidates).
 */
export async function findOpenTicketsPage(
  db: Db,
  after: { createdAt: Date; id: string } | null,
  size: number,
  fields: readonly CustomFieldRow[],
  where?: SQL,
): Promise<Array<RuleTicket & { id: string }>> {
  const rows = await db
    .select({
      id: tickets.id,
      title: tickets.title,
      description: tickets.description,
      status: tickets.status,
      priority: tickets.priority,
      category: tickets.category,
      teamId: tickets.teamId,
      assignedTo: tickets.assignedTo,
      tags: tickets.tags,
      department: tickets.department,
      createdAt: tickets.createdAt,
      updatedAt: tickets.updatedAt,
      onHoldSince: tickets.onHoldSince,
    })
    .from(tickets)
    .where(
      and(
        inArray(tickets.status, ["Open", "In Progress"]),
        where,
        after
          ? or(
              lt(tickets.createdAt, after.createdAt),
              and(eq(tickets.createdAt, after.createdAt), lt(tickets.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(tickets.createdAt), desc(tickets.id))
    .limit(size);
  const values = await findTicketsFieldValues(
    db,
    rows.map((row) => row.id),
    fields,
  );
  return rows.map((row) => ({ ...row, customFields: values.get(row.id) ?? {} }));
}

const clockColumns = { created: tickets.createdAt, updated: tickets.updatedAt, on_hold: tickets.onHoldSince };

/**
 * What narrows a time-based rule's candidates in SQL (decision 076): tickets it has not run on, whose every
 * clock has run at least the condition's hours on the wall clock (business hours are fewer, never more),
 * and with the status it asks for. The conditions are then checked in full in memory.
 */
export function timeRuleCandidates(rule: AutomationRuleRow, now: Date): SQL {
  const narrowing = rule.conditions.flatMap((condition) => {
    if (condition.field === "elapsed") {
      const column = clockColumns[condition.since];
      const latest = new Date(now.getTime() - condition.hours * 3_600_000);
      return [isNotNull(column), lte(column, latest)];
    }
    if (condition.field === "status" && condition.op === "is") return [eq(tickets.status, condition.value)];
    return [];
  });
  const notRan = sql`not exists (select 1 from ${automationRuleRuns} where ${automationRuleRuns.ruleId} = ${rule.id} and ${automationRuleRuns.ticketId} = ${tickets.id})`;
  return and(notRan, ...narrowing)!;
}

/**
 * A time-based rule's claim on a ticket (decision 076): true when this transaction is the first to run the
 * rule on it; false when another instance (or an earlier run) already did. Made in the transaction that
 * acts, so a claim stands only with what the rule did.
 */
export async function claimRuleRun(tx: Db, ruleId: string, ticketId: string, at: Date): Promise<boolean> {
  const rows = await tx
    .insert(automationRuleRuns)
    .values({ ruleId, ticketId, ranAt: at })
    .onConflictDoNothing()
    .returning({ ruleId: automationRuleRuns.ruleId });
  return rows.length > 0;
}
