import { sql } from "drizzle-orm";
import { customType, index, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { ticketCategories, ticketPriorities, ticketStatuses } from "#shared/tickets/ticket.schemas.ts";
import { users } from "./users.ts";

export const ticketCategoryEnum = pgEnum("ticket_category", ticketCategories);
export const ticketPriorityEnum = pgEnum("ticket_priority", ticketPriorities);
export const ticketStatusEnum = pgEnum("ticket_status", ticketStatuses);

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const tickets = pgTable(
  "tickets",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    category: ticketCategoryEnum("category").notNull().default("Hardware"),
    priority: ticketPriorityEnum("priority").notNull().default("Low"),
    status: ticketStatusEnum("status").notNull().default("Open"),
    createdBy: text("created_by")
      .notNull()
      .references(() => users.id),
    assignedTo: text("assigned_to").references(() => users.id),
    // Who set it Resolved (spec §2: the technician's "Resolved" card counts these). Kept when the ticket is
    // later Closed, cleared when it goes back to In Progress.
    resolvedBy: text("resolved_by").references(() => users.id),
    department: text("department").notNull().default("General"),
    floor: text("floor").notNull().default("1"),
    officeNumber: text("office_number").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    // Search over the TKT id, title and description; 'simple' so that ids and jargon are not stemmed away.
    search: tsvector("search").generatedAlwaysAs(
      sql`to_tsvector('simple'::regconfig, "id" || ' ' || "title" || ' ' || "description")`,
    ),
  },
  (t) => [
    // One index per role list in the lists' keyset order. Ascending on purpose: scanned backwards it serves
    // `order by created_at desc, id desc` (nulls first); a `desc nulls last` index cannot.
    index("tickets_created_idx").on(t.createdAt, t.id),
    index("tickets_created_by_idx").on(t.createdBy, t.createdAt, t.id),
    index("tickets_assigned_to_idx").on(t.assignedTo, t.createdAt, t.id),
    index("tickets_unassigned_idx").on(t.createdAt, t.id).where(sql`${t.assignedTo} is null`),
    index("tickets_status_idx").on(t.status, t.createdAt, t.id),
    index("tickets_search_idx").using("gin", t.search),
    index("tickets_resolved_by_idx").on(t.resolvedBy).where(sql`${t.resolvedBy} is not null`),
  ],
);

export type TicketRow = typeof tickets.$inferSelect;
