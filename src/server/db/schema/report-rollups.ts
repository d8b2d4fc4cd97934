import { boolean, date, integer, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { ticketCategoryEnum, ticketPriorityEnum } from "./tickets.ts";

// Reports' daily rollups (decision 027): per calendar day in the business calendar's time zone, kept
// exact by triggers on `tickets` (migration 0025_report_rollup_triggers: every insert, update, delete and
// truncate, whatever code path writes it) and rebuilt in the same transaction when that time zone changes.
// A year of reports sums a few tens of thousands of these rows instead of reading a million tickets.

/** The time zone the rollups are counted in; no row (or another zone) means: read the tickets directly. */
export const reportRollupState = pgTable("report_rollup_state", {
  singleton: boolean("singleton").primaryKey().default(true),
  timeZone: text("time_zone").notNull(),
});

/** Tickets opened per day (created_at) by category, priority and department. */
export const reportOpenedDays = pgTable(
  "report_opened_days",
  {
    day: date("day").notNull(),
    category: ticketCategoryEnum("category").notNull(),
    priority: ticketPriorityEnum("priority").notNull(),
    department: text("department").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.category, t.priority, t.department] })],
);

/** Tickets done (left the backlog: tickets.done_at) per day. */
export const reportDoneDays = pgTable("report_done_days", {
  day: date("day").primaryKey(),
  count: integer("count").notNull(),
});

/**
 * Durations per day and bucket (tickets.first_response_bucket / resolution_bucket: bucket b holds
 * 1.1^b to 1.1^(b+1) seconds): first responses by the day the ticket was opened, resolutions by the day
 * it was resolved.
 */
export const reportDurationDays = pgTable(
  "report_duration_days",
  {
    measure: text("measure", { enum: ["first_response", "resolution"] }).notNull(),
    day: date("day").notNull(),
    bucket: smallint("bucket").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.measure, t.day, t.bucket] })],
);

/**
 * Ratings per day (submitted_at) by technician (who resolved the ticket, else its assignee: '' for
 * nobody) and rating; moved by the triggers when a ticket's resolver or assignee changes.
 */
export const reportFeedbackDays = pgTable(
  "report_feedback_days",
  {
    day: date("day").notNull(),
    technicianId: text("technician_id").notNull(),
    rating: smallint("rating").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.technicianId, t.rating] })],
);
