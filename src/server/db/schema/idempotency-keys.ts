import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Decision 078: the answers of POST requests sent with an `Idempotency-Key`, kept 24 hours so that a retry
 * gets the first answer again instead of a second ticket. One row per caller (`user:<id>` or
 * `token:<id>`), route and key; `statusCode` and `responseBody` stay null while the first request is still
 * being processed.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    caller: text("caller").notNull(),
    /** The route's pattern, e.g. `POST /api/tickets/:ticketId/comments`. */
    route: text("route").notNull(),
    key: text("key").notNull(),
    /** SHA-256 (hex) of the request's path and body: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    statusCode: integer("status_code"),
    responseBody: text("response_body"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.caller, t.route, t.key] }),
    index("idempotency_keys_created_at_idx").on(t.createdAt),
  ],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
