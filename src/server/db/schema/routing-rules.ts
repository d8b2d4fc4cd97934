import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { customFields } from "./custom-fields.ts";
import { teams } from "./teams.ts";
import { ticketCategoryEnum } from "./tickets.ts";

const stamp = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * Administrators' rules that put a new ticket in a team (decision 069), tried by position: the first whose
 * every condition holds decides. A condition left empty holds for every ticket; a rule has at least one.
 * A team's rules go with it; a custom field is retired, never deleted, so its rules stay (and match the
 * values tickets still hold).
 */
export const routingRules = pgTable(
  "routing_rules",
  {
    id: text("id").primaryKey(),
    position: integer("position").notNull(),
    category: ticketCategoryEnum("category"),
    department: text("department"),
    customFieldId: text("custom_field_id").references(() => customFields.id, { onDelete: "cascade" }),
    customFieldValue: text("custom_field_value"),
    /** Words or phrases of which the title must contain one (whole words, any case). */
    titleWords: text("title_words").array().notNull().default(sql`'{}'::text[]`),
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    createdAt: stamp("created_at").notNull().defaultNow(),
    updatedAt: stamp("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("routing_rules_team_idx").on(t.teamId),
    check(
      "routing_rules_condition_check",
      sql`${t.category} is not null or ${t.department} is not null or ${t.customFieldId} is not null or cardinality(${t.titleWords}) > 0`,
    ),
    check(
      "routing_rules_custom_field_check",
      sql`(${t.customFieldId} is null) = (${t.customFieldValue} is null)`,
    ),
  ],
);

export type RoutingRuleRow = typeof routingRules.$inferSelect;
