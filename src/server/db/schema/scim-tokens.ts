import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

// The bearer tokens an identity provider provisions people with over SCIM (decision 081). Like personal API
// tokens (decision 024) only the secret's SHA-256 is kept, looked up by the id between "scim_" and the
// second "_". A token acts as the administrator who created it: when they are gone, so is the token.
export const scimTokens = pgTable(
  "scim_tokens",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The token's first characters ("scim_<id>"), shown so that an administrator can recognise it. */
    prefix: text("prefix").notNull(),
    createdBy: text("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [index("scim_tokens_created_idx").on(t.createdAt)],
);

export type ScimTokenRow = typeof scimTokens.$inferSelect;
