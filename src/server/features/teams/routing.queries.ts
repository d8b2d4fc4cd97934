import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  type CustomFieldRow,
  customFields,
  type RoutingRuleRow,
  routingRules,
  teams,
} from "#server/db/schema/index.ts";
import type { RoutingConditions } from "#shared/teams/routing.ts";
import type { TicketCategory } from "#shared/tickets/ticket.schemas.ts";

/**
 * What routing a new ticket needs, in one statement (one round trip in the creating transaction, always
 * one row): the rules' conditions in order, and the default team.
 */
export async function findRoutingConditions(
  db: Db,
): Promise<{ rules: RoutingConditions[]; defaultTeamId: string | null }> {
  const result = await db.execute(sql`
    select (select ${teams.id} from ${teams} where ${teams.isDefault} limit 1) as default_team_id,
           coalesce((select json_agg(json_build_object(
                       'category', r.category, 'department', r.department,
                       'fieldId', r.custom_field_id, 'value', r.custom_field_value,
                       'titleWords', r.title_words, 'teamId', r.team_id) order by r.position, r.id)
                     from ${routingRules} r), '[]'::json) as rules`);
  const row = (result as unknown as { rows: Array<{ default_team_id: string | null; rules: unknown }> })
    .rows[0]!;
  const raw = (typeof row.rules === "string" ? JSON.parse(row.rules) : row.rules) as Array<{
    category: TicketCategory | null;
    department: string | null;
    fieldId: string | null;
    value: string | null;
    titleWords: string[];
    teamId: string;
  }>;
  return {
    defaultTeamId: row.default_team_id,
    rules: raw.map((rule) => ({
      category: rule.category,
      department: rule.department,
      customField: rule.fieldId === null ? null : { fieldId: rule.fieldId, value: rule.value ?? "" },
      titleWords: rule.titleWords,
      teamId: rule.teamId,
    })),
  };
}

/** A rule with its team's name and its custom field's definition, for the admin page. */
export interface RoutingRuleWithNames {
  rule: RoutingRuleRow;
  teamName: string;
  field: CustomFieldRow | null;
}

/** Every rule in the order they are tried. */
export async function findRoutingRules(db: Db): Promise<RoutingRuleWithNames[]> {
  return db
    .select({ rule: routingRules, teamName: teams.name, field: customFields })
    .from(routingRules)
    .innerJoin(teams, eq(teams.id, routingRules.teamId))
    .leftJoin(customFields, eq(customFields.id, routingRules.customFieldId))
    .orderBy(asc(routingRules.position), asc(routingRules.id));
}

/** Every rule under a lock: positions are decided on them. */
export async function lockRoutingRules(tx: Db): Promise<RoutingRuleRow[]> {
  return tx
    .select()
    .from(routingRules)
    .orderBy(asc(routingRules.position), asc(routingRules.id))
    .for("update");
}

export async function insertRoutingRule(tx: Db, values: typeof routingRules.$inferInsert) {
  const [row] = await tx.insert(routingRules).values(values).returning();
  return row!;
}

export async function updateRoutingRule(
  tx: Db,
  id: string,
  values: Partial<Omit<RoutingRuleRow, "id" | "createdAt">> & Pick<RoutingRuleRow, "updatedAt">,
) {
  const [row] = await tx.update(routingRules).set(values).where(eq(routingRules.id, id)).returning();
  return row!;
}

export async function deleteRoutingRule(tx: Db, id: string) {
  await tx.delete(routingRules).where(eq(routingRules.id, id));
}

/** The default team's id, or null. */
export async function findDefaultTeamId(db: Db): Promise<string | null> {
  const [row] = await db.select({ id: teams.id }).from(teams).where(eq(teams.isDefault, true));
  return row?.id ?? null;
}

export async function findCustomFieldById(db: Db, id: string): Promise<CustomFieldRow | undefined> {
  const [row] = await db.select().from(customFields).where(eq(customFields.id, id));
  return row;
}
