import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { teamAssignmentModes } from "#shared/teams/team-assignment.ts";
import { users } from "./users.ts";

const stamp = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * A team of technicians with a queue of its own (decision 069): a ticket belongs to at most one team
 * (tickets.team_id). With no team, everything is as before teams: every technician sees and hears of
 * every unassigned ticket.
 */
export const teams = pgTable(
  "teams",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Optional: one of the members, shown as the team's lead. */
    leadId: text("lead_id").references(() => users.id, { onDelete: "set null" }),
    /** How a new ticket of the team's is given to a member: not at all, in turn, or to the least busy. */
    assignment: text("assignment", { enum: teamAssignmentModes }).notNull().default("off"),
    /** Round robin's place: the member who was given the last ticket. */
    lastAssignedTo: text("last_assigned_to").references(() => users.id, { onDelete: "set null" }),
    /** The team a new ticket goes to when no routing rule matches (decision 069); at most one is. */
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: stamp("created_at").notNull().defaultNow(),
    updatedAt: stamp("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("teams_lower_name_idx").on(sql`lower(${t.name})`),
    uniqueIndex("teams_default_idx").on(t.isDefault).where(sql`${t.isDefault}`),
    check("teams_assignment_check", sql`${t.assignment} in ('off', 'round_robin', 'least_open')`),
  ],
);

/**
 * Who is in a team: technicians, each in any number of teams. A trigger keeps their place in the team's
 * notification audience (`team:<id>`, decision 068) while they are an active technician.
 */
export const teamMembers = pgTable(
  "team_members",
  {
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: stamp("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("team_members_user_idx").on(t.userId)],
);

export type TeamRow = typeof teams.$inferSelect;
export type TeamMemberRow = typeof teamMembers.$inferSelect;
