import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { CannedResponseScope } from "#shared/canned-responses/canned-response.schemas.ts";
import { users } from "./users.ts";

// Saved replies (decision 013). A personal one belongs to its owner alone; a shared one is every staff
// member's, and owner_id names the admin who wrote it.
export const cannedResponses = pgTable(
  "canned_responses",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    scope: text("scope").$type<CannedResponseScope>().notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    check("canned_responses_scope_check", sql`${t.scope} in ('personal', 'shared')`),
    // One title per person among their own, and one among the shared ones (case-insensitive), so the
    // picker never shows two entries a person cannot tell apart.
    uniqueIndex("canned_responses_personal_title_idx")
      .on(t.ownerId, sql`lower(${t.title})`)
      .where(sql`${t.scope} = 'personal'`),
    uniqueIndex("canned_responses_shared_title_idx")
      .on(sql`lower(${t.title})`)
      .where(sql`${t.scope} = 'shared'`),
    index("canned_responses_owner_idx").on(t.ownerId),
  ],
);

export type CannedResponseRow = typeof cannedResponses.$inferSelect;
