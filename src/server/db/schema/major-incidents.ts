import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

// Decision 077: a major incident's public updates. Each is also posted as a public comment on the incident
// and on its affected tickets; this row is what its public face (the known issue) shows to anyone allowed.
export const incidentUpdates = pgTable(
  "incident_updates",
  {
    id: text("id").primaryKey(),
    incidentId: text("incident_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("incident_updates_incident_idx").on(t.incidentId, t.createdAt)],
);

// Decision 077: people who follow a known issue instead of raising a ticket. Following grants sight of the
// incident's public face only, never of the ticket (decision 014).
export const incidentSubscribers = pgTable(
  "incident_subscribers",
  {
    incidentId: text("incident_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.incidentId, t.userId] }),
    index("incident_subscribers_user_idx").on(t.userId),
  ],
);

export type IncidentUpdateRow = typeof incidentUpdates.$inferSelect;
