import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { MacroActions } from "#shared/macros/macro.schemas.ts";
import { users } from "./users.ts";

// Macros (decision 075): a reply and the changes that go with it, applied to a ticket in one step. Scopes
// as canned responses have them (decision 013): personal to its owner, or shared with every staff member
// and managed by admins.
export const macros = pgTable(
  "macros",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    // The reply it posts; empty when it only changes the ticket.
    body: text("body").notNull().default(""),
    // Whether that reply is a public comment or an internal note.
    replyVisibility: text("reply_visibility", { enum: ["public", "internal"] })
      .notNull()
      .default("public"),
    actions: jsonb("actions").$type<MacroActions>().notNull().default(sql`'{}'::jsonb`),
    scope: text("scope", { enum: ["personal", "shared"] }).notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    check("macros_scope_check", sql`${t.scope} in ('personal', 'shared')`),
    uniqueIndex("macros_personal_title_idx")
      .on(t.ownerId, sql`lower(${t.title})`)
      .where(sql`${t.scope} = 'personal'`),
    uniqueIndex("macros_shared_title_idx").on(sql`lower(${t.title})`).where(sql`${t.scope} = 'shared'`),
    index("macros_owner_idx").on(t.ownerId),
  ],
);

export type MacroRow = typeof macros.$inferSelect;
