import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

// Decision 023: what administrators configure in Admin settings, one row per area ("business-calendar",
// "sla-policies", "auto-close", "departments", …). The value is checked by the area's shared zod schema on
// the way in and again on the way out (a row written by an older version falls back to the default).
export const appSettings = pgTable("app_settings", {
  area: text("area").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
});

// The admin change history: one row per change an administrator made to the configuration (settings,
// custom fields), with the value before and after, written in the same transaction as the change.
export const adminChanges = pgTable(
  "admin_changes",
  {
    id: text("id").primaryKey(),
    /** Null once the acting admin's account is gone; the entry itself stays. */
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    area: text("area").notNull(),
    /** One line a person reads in the history ("Changed the SLA policies"). */
    summary: text("summary").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index("admin_changes_created_idx").on(t.createdAt, t.id),
    index("admin_changes_area_idx").on(t.area, t.createdAt, t.id),
  ],
);

export type AdminChangeRow = typeof adminChanges.$inferSelect;
