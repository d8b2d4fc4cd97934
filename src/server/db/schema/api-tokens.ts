import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { ApiTokenScope } from "#shared/api-tokens/api-token.schemas.ts";
import { users } from "./users.ts";

// Personal API tokens (docs/decisions/024). The secret is never stored: only its
// SHA-256, looked up by the token's id (the part between "hd_" and the second "_").
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The token's first characters ("hd_<id>"), shown so that a person can recognise it. */
    prefix: text("prefix").notNull(),
    scope: text("scope").$type<ApiTokenScope>().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    check("api_tokens_scope_check", sql`${t.scope} in ('read', 'write')`),
    index("api_tokens_user_created_idx").on(t.userId, t.createdAt),
  ],
);

export type ApiTokenRow = typeof apiTokens.$inferSelect;
