import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { FieldChange, UserChangeAction } from "#shared/users/user-management.schemas.ts";
import { users } from "./users.ts";

// A person's history in user management: one row per action, its field changes as a JSON list, written in
// the same transaction as the change itself.
export const userChanges = pgTable(
  "user_changes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Null once the acting admin's account is gone; the entry itself stays.
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").$type<UserChangeAction>().notNull(),
    changes: jsonb("changes").$type<FieldChange[]>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("user_changes_user_idx").on(t.userId, t.createdAt, t.id)],
);

export type UserChangeRow = typeof userChanges.$inferSelect;
