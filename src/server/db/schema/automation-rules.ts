import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { RuleActions } from "#shared/automation/rule-actions.ts";
import { type RuleCondition, ruleTriggers } from "#shared/automation/rule-conditions.ts";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

const stamp = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * Administrators' automation rules (decision 076): when a ticket is created or changed, or when a clock runs
 * out, and its conditions hold, a rule's actions change the ticket through the same write path as a
 * person's change. Rules run by position; a new rule starts switched off, to be tried first.
 */
export const automationRules = pgTable(
  "automation_rules",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    position: integer("position").notNull(),
    enabled: boolean("enabled").notNull().default(false),
    trigger: text("trigger", { enum: ruleTriggers }).notNull(),
    conditions: jsonb("conditions").$type<RuleCondition[]>().notNull().default(sql`'[]'::jsonb`),
    actions: jsonb("actions").$type<RuleActions>().notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: stamp("created_at").notNull().defaultNow(),
    updatedAt: stamp("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("automation_rules_name_idx").on(sql`lower(${t.name})`),
    index("automation_rules_trigger_idx").on(t.trigger, t.position).where(sql`${t.enabled}`),
    check("automation_rules_trigger_check", sql`${t.trigger} in ('created', 'changed', 'time')`),
  ],
);

/**
 * A time-based rule's runs: one per rule and ticket, so that each of its actions happens once whichever
 * instance's job gets there first (the insert is the claim).
 */
export const automationRuleRuns = pgTable(
  "automation_rule_runs",
  {
    ruleId: text("rule_id")
      .notNull()
      .references(() => automationRules.id, { onDelete: "cascade" }),
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    ranAt: stamp("ran_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.ruleId, t.ticketId] }),
    index("automation_rule_runs_ticket_idx").on(t.ticketId),
  ],
);

export type AutomationRuleRow = typeof automationRules.$inferSelect;
