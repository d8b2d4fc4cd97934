import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

// Decision 014: who asked to hear about a ticket beyond its creator and assignee. Whether a follower is
// still told is decided at notification time (can.viewTicket then), so a row outlives a lost visibility.
export const ticketFollowers = pgTable(
  "ticket_followers",
  {
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.userId] }), index("ticket_followers_user_idx").on(t.userId)],
);
