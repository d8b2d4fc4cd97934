import { integer, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { ticketStatusEnum } from "./tickets.ts";

/**
 * Dashboard counts kept exact by triggers on `tickets` (decision 039, migration 0029_ticket_counts): every
 * insert, update, delete and truncate adjusts them in the same transaction, whatever code path writes.
 * `scope` names a set of tickets: `all`, `unassigned`, `a:<user>` (assigned to), `c:<user>` (created by),
 * `ca:<user>` (created by and assigned to that person), `cu:<user>` (created by, unassigned) and
 * `r:<user>` (resolved by). A dashboard sums a few dozen rows instead of counting a million tickets.
 * `slot` spreads one count over up to 16 rows (by database session) so that concurrent writers do not
 * queue on one hot row; readers add the slots up.
 */
export const ticketCounts = pgTable(
  "ticket_counts",
  {
    scope: text("scope").notNull(),
    status: ticketStatusEnum("status").notNull(),
    slot: smallint("slot").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.status, t.slot] })],
);
