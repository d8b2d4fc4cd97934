import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { ticketLinkKinds } from "#shared/ticket-links/ticket-link.schemas.ts";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

// Links between two tickets (decision 074), one row per pair, read from either side. The row says what
// ticket_id is to linked_ticket_id: related to it, a duplicate of it, or a child of it (linked_ticket_id
// is the parent). Staff only make and see them; a requester sees a link only where it points them to a
// ticket they may see.
export const ticketLinks = pgTable(
  "ticket_links",
  {
    id: text("id").primaryKey(),
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    linkedTicketId: text("linked_ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ticketLinkKinds }).notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    check("ticket_links_not_itself_check", sql`${t.ticketId} <> ${t.linkedTicketId}`),
    // One link between two tickets, whichever side made it.
    uniqueIndex("ticket_links_pair_idx").on(
      sql`least(${t.ticketId}, ${t.linkedTicketId})`,
      sql`greatest(${t.ticketId}, ${t.linkedTicketId})`,
    ),
    index("ticket_links_ticket_idx").on(t.ticketId),
    index("ticket_links_linked_idx").on(t.linkedTicketId, t.kind),
  ],
);

export type TicketLinkRow = typeof ticketLinks.$inferSelect;
