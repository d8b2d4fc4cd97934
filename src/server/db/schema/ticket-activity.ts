import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { slaTargets } from "#shared/service-levels/sla-escalation.ts";
import { autoAssignmentModes } from "#shared/teams/team-assignment.ts";
import { ticketLinkRelations } from "#shared/ticket-links/ticket-link.schemas.ts";
import { ticketEventTypes } from "#shared/tickets/ticket-activity.schemas.ts";
import type { TicketChange } from "#shared/tickets/ticket-edit.ts";
import { holdEndReasons } from "#shared/tickets/ticket-hold.ts";
import { teams } from "./teams.ts";
import { ticketStatusEnum, tickets } from "./tickets.ts";
import { users } from "./users.ts";

export const ticketComments = pgTable(
  "ticket_comments",
  {
    id: text("id").primaryKey(),
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    authorId: text("author_id")
      .notNull()
      .references(() => users.id),
    message: text("message").notNull(),
    isInternal: boolean("is_internal").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("ticket_comments_ticket_idx").on(t.ticketId, t.createdAt)],
);

// One per ticket; the creator may change it while Resolved.
export const ticketFeedback = pgTable(
  "ticket_feedback",
  {
    ticketId: text("ticket_id")
      .primaryKey()
      .references(() => tickets.id, { onDelete: "cascade" }),
    rating: integer("rating").notNull(),
    comment: text("comment").notNull().default(""),
    submittedBy: text("submitted_by")
      .notNull()
      .references(() => users.id),
    submittedAt: timestamp("submitted_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    check("ticket_feedback_rating_check", sql`${t.rating} between 1 and 5`),
    // Reports read the ratings given in a range from the index alone (decision 027).
    index("ticket_feedback_submitted_idx").on(t.submittedAt, t.rating),
  ],
);

export const ticketEventTypeEnum = pgEnum("ticket_event_type", ticketEventTypes);
export const slaTargetEnum = pgEnum("sla_target", slaTargets);
export const holdEndReasonEnum = pgEnum("hold_end_reason", holdEndReasons);

export const ticketEvents = pgTable(
  "ticket_events",
  {
    id: text("id").primaryKey(),
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    type: ticketEventTypeEnum("type").notNull(),
    actorId: text("actor_id").references(() => users.id),
    fromStatus: ticketStatusEnum("from_status"),
    toStatus: ticketStatusEnum("to_status"),
    commentId: text("comment_id").references(() => ticketComments.id, { onDelete: "cascade" }),
    rating: integer("rating"),
    // A "reassigned" event's people; null on either side means the queue.
    fromAssigneeId: text("from_assignee_id").references(() => users.id),
    toAssigneeId: text("to_assignee_id").references(() => users.id),
    // An "edited" event's fields, from → to. A description is at most 5000 characters each side, so the
    // whole history of a ticket stays small; PostgreSQL compresses (TOAST) the longer ones out of line.
    changes: jsonb("changes").$type<TicketChange[]>(),
    // An "sla_warning" or "sla_breached" event's target and the due time it was about (the due time may
    // move later, when the priority changes; the entry keeps what was said).
    slaTarget: slaTargetEnum("sla_target"),
    dueAt: timestamp("due_at", { withTimezone: true, precision: 3 }),
    // An "auto_closed" event's days without activity, as the setting said when it closed the ticket; an
    // "auto_resolved" one's business days on hold (decision 070).
    idleDays: integer("idle_days"),
    // A "put_on_hold" or "hold_changed" event's lift date (null: none), and a "taken_off_hold" event's reason.
    holdUntil: timestamp("hold_until", { withTimezone: true, precision: 3 }),
    holdEnd: holdEndReasonEnum("hold_end"),
    // A "team_changed" event's teams by the names they had then (decision 069): the entry keeps what was
    // said when a team is renamed or deleted. Null on a side: no team.
    fromTeamName: text("from_team_name"),
    toTeamName: text("to_team_name"),
    // An "auto_assigned" event's team and how it chose (decision 073): the timeline names the team as it is
    // called now, and says "a team" once the team is gone.
    teamId: text("team_id").references(() => teams.id, { onDelete: "set null" }),
    assignmentMode: text("assignment_mode", { enum: autoAssignmentModes }),
    // A "tags_changed" event's tags added and removed (decision 071).
    tagsAdded: text("tags_added").array(),
    tagsRemoved: text("tags_removed").array(),
    // A "linked", "unlinked", "merged" or "merged_in" event's other ticket, and for a link how this ticket
    // reads it (decision 074: related, duplicate_of, has_duplicate, parent, child; a text column, so the
    // relation's two directions need no enum). No foreign key: the entry keeps naming a ticket deleted since.
    linkedTicketId: text("linked_ticket_id"),
    linkKind: text("link_kind", { enum: ticketLinkRelations }),
    // Changes a macro or an automation rule made (decisions 075, 076): which one, by the name it had then,
    // and the one application they belong to, which the timeline shows as one entry.
    // Decision 077: 'incident' marks what a major incident's update or resolution posted on a ticket.
    viaKind: text("via_kind", { enum: ["macro", "rule", "incident"] }),
    viaId: text("via_id"),
    viaName: text("via_name"),
    batchId: text("batch_id"),
    // A "rule_notified" event's people and teams told, by the names they had then; a "rule_refused" event's
    // reason (decision 076).
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("ticket_events_ticket_idx").on(t.ticketId, t.createdAt)],
);

export type TicketCommentRow = typeof ticketComments.$inferSelect;
export type TicketFeedbackRow = typeof ticketFeedback.$inferSelect;
export type TicketEventRow = typeof ticketEvents.$inferSelect;
