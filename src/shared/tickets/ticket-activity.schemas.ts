import { z } from "zod";
import { attachmentIdsSchema, attachmentSchema } from "#shared/attachments/attachment.schemas.ts";
import { slaTargets } from "#shared/service-levels/sla-escalation.ts";
import { autoAssignmentModes } from "#shared/teams/team-assignment.ts";
import { storableText } from "#shared/text/storable-text.ts";
import { ticketLinkRelations } from "#shared/ticket-links/ticket-link.schemas.ts";
import { commentMaxLength } from "./comment-length.ts";
import { ticketStatuses } from "./ticket.schemas.ts";
import { ticketChangeSchema } from "./ticket-edit.ts";
import { holdEndReasons } from "./ticket-hold.ts";
import { changeableStatuses } from "./ticket-status.ts";

export const changeStatusInputSchema = z.object({
  status: z.enum(changeableStatuses, { error: "Status must be In Progress, Resolved or Closed" }),
});
export type ChangeStatusInput = z.infer<typeof changeStatusInputSchema>;

export const addCommentInputSchema = z.object({
  message: storableText(
    z
      .string({ error: "Comment must be text" })
      .trim()
      .min(1, "Comment cannot be empty")
      .max(commentMaxLength, `Comment must be at most ${commentMaxLength} characters`),
    "Comment",
  ),
  /** An internal note: staff only, never shown to users (decision 011). */
  isInternal: z.boolean({ error: "isInternal must be true or false" }).optional(),
  /** Files uploaded beforehand with POST /api/attachments; an internal note's files are staff-only too. */
  attachmentIds: attachmentIdsSchema.optional(),
  /**
   * The newest timeline entry (an event id of GET …/activity) the writer was shown when they began. When
   * given, the comment is refused with 409 if someone else changed the ticket since (decision 072); left
   * out, the comment is added whatever happened meanwhile.
   */
  seenEventId: z
    .string({ error: "seenEventId must be text" })
    .regex(/^EVT[0-9A-Za-z_-]{1,60}$/, "seenEventId must be an event id (EVT…)")
    .optional(),
});
export type AddCommentInput = z.infer<typeof addCommentInputSchema>;

/**
 * The 409 answer's `details` when a comment's writer had not seen the ticket's latest changes (decision 072):
 * `latestEventId` is the newest entry they had not seen.
 */
export const staleReplyReason = "ticket_changed_since_seen";
export interface StaleReplyDetails {
  reason: typeof staleReplyReason;
  latestEventId: string;
}
export const staleReplyMessage =
  "This ticket changed while you were writing. Look at what changed, then send again.";

/** Rating 1–5, each with its label. */
export const ratings = [1, 2, 3, 4, 5] as const;
export type Rating = (typeof ratings)[number];
export const isRating = (value: number): value is Rating => ratings.some((rating) => rating === value);

export const ratingLabels: Record<Rating, string> = {
  1: "Very Dissatisfied",
  2: "Dissatisfied",
  3: "Neutral",
  4: "Satisfied",
  5: "Very Satisfied",
};
export const defaultRating = 5;

export const feedbackInputSchema = z.object({
  rating: z
    .number({ error: "Rating must be a whole number from 1 to 5" })
    .int("Rating must be a whole number from 1 to 5")
    .min(1, "Rating must be a whole number from 1 to 5")
    .max(5, "Rating must be a whole number from 1 to 5"),
  comment: storableText(
    z.string({ error: "Feedback must be text" }).trim().max(2000, "Feedback must be at most 2000 characters"),
    "Feedback",
  ).default(""),
});
export type FeedbackInput = z.infer<typeof feedbackInputSchema>;

export const commentSchema = z.object({
  commentId: z.string(),
  ticketId: z.string(),
  authorId: z.string(),
  authorName: z.string().nullable(),
  message: z.string(),
  isInternal: z.boolean(),
  timestamp: z.iso.datetime(),
  attachments: z.array(attachmentSchema),
});
export type Comment = z.infer<typeof commentSchema>;

export const feedbackSchema = z.object({
  rating: z.number().int().min(1).max(5),
  comment: z.string(),
  submittedBy: z.string(),
  submittedAt: z.iso.datetime(),
});
export type Feedback = z.infer<typeof feedbackSchema>;

export const ticketEventTypes = [
  "created",
  "assigned",
  "status_changed",
  "commented",
  "feedback",
  "reassigned",
  "internal_note",
  "edited",
  // Recorded by the escalation job (decision 020), with no actor.
  "sla_warning",
  "sla_breached",
  "auto_closed",
  // On hold (decision 070): put on hold (with its lift date), a new lift date, the hold's end and why,
  // and the job's resolution of a ticket that waited too long.
  "put_on_hold",
  "hold_changed",
  "taken_off_hold",
  "auto_resolved",
  // A ticket moved to another team, or out of any (decision 069): staff only.
  "team_changed",
  // A team gave a new ticket to one of its members (decision 073), with no actor.
  "auto_assigned",
  // Tags added or removed (decision 071): staff only, and nobody is notified.
  "tags_changed",
  // Links between tickets and merging (decision 074): a link made or removed (recorded on both tickets,
  // staff only), a duplicate merged into another ("merged" on the duplicate, which its requester sees;
  // "merged_in" on the ticket it went into, staff only).
  "linked",
  "unlinked",
  "merged",
  "merged_in",
  // Automation rules (decision 076), with no actor: a rule's notice to people or teams, and a rule that
  // could not change the ticket (its changes undone) with the reason. Staff only.
  "rule_notified",
  "rule_refused",
  // A major incident declared (or its headline changed) and its declaration ended (decision 077): staff only.
  "incident_declared",
  "incident_ended",
] as const;
export type TicketEventType = (typeof ticketEventTypes)[number];

/**
 * Events only staff see on the timeline: internal notes, the escalation job's warnings and breaches, team
 * moves and tag changes (a requester is not shown the team nor the tags, decisions 069, 071), and links and
 * what was merged in (decision 074: a link names tickets a requester may not see).
 */
export const staffOnlyEventTypes = [
  "internal_note",
  "sla_warning",
  "sla_breached",
  "team_changed",
  "tags_changed",
  "linked",
  "unlinked",
  "merged_in",
  "rule_notified",
  "rule_refused",
  "incident_declared",
  "incident_ended",
] as const satisfies readonly TicketEventType[];

export const ticketEventSchema = z.object({
  id: z.string(),
  type: z.enum(ticketEventTypes),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  fromStatus: z.enum(ticketStatuses).nullable(),
  toStatus: z.enum(ticketStatuses).nullable(),
  /**
   * A comment's or note's text; a "rule_notified" event's people and teams told, by the names they had then;
   * a "rule_refused" event's reason. Null otherwise.
   */
  message: z.string().nullable(),
  rating: z.number().int().nullable(),
  /** A "reassigned" event's people: null on the other side means the queue (unassigned). */
  fromAssigneeName: z.string().nullable(),
  toAssigneeName: z.string().nullable(),
  /** An "edited" event's fields, each from → to (decision 015); null for every other type. */
  changes: z.array(ticketChangeSchema).nullable(),
  /** An "sla_warning" or "sla_breached" event's target and the due time it was about; null otherwise. */
  slaTarget: z.enum(slaTargets).nullable(),
  dueAt: z.iso.datetime().nullable(),
  /**
   * An "auto_closed" event's days without activity (the setting when it closed), an "auto_resolved" one's
   * business days on hold; null for every other type.
   */
  idleDays: z.number().int().nullable(),
  /** A "put_on_hold" or "hold_changed" event's lift date (null: none); null for every other type. */
  holdUntil: z.iso.datetime().nullable(),
  /** A "taken_off_hold" event's reason; null for every other type. */
  holdEnd: z.enum(holdEndReasons).nullable(),
  /** A "team_changed" event's teams by the names they had then; null on a side means no team. */
  fromTeamName: z.string().nullable(),
  toTeamName: z.string().nullable(),
  /** An "auto_assigned" event's team as it is called now (null once gone) and how it chose (decision 073). */
  teamName: z.string().nullable(),
  assignmentMode: z.enum(autoAssignmentModes).nullable(),
  /** A "tags_changed" event's tags added and removed (decision 071); null for every other type. */
  tagsAdded: z.array(z.string()).nullable(),
  tagsRemoved: z.array(z.string()).nullable(),
  /**
   * A "linked", "unlinked", "merged" or "merged_in" event's other ticket (decision 074): the one linked, the
   * one merged into ("merged"), the duplicate merged in ("merged_in"); null for every other type.
   */
  linkedTicketId: z.string().nullable(),
  /** A "linked" or "unlinked" event's link as this ticket reads it; null for every other type. */
  linkRelation: z.enum(ticketLinkRelations).nullable(),
  /**
   * The macro whose application made this change (decision 075), by the name it had then, and the one
   * application it belongs to: the timeline shows the events of one batch as one entry. Staff only: a
   * requester sees the changes as they would see them made one by one.
   */
  via: z
    .object({
      kind: z.enum(["macro", "rule", "incident"]),
      id: z.string(),
      name: z.string(),
      batchId: z.string(),
    })
    .nullable(),
  at: z.iso.datetime(),
});
export type TicketEvent = z.infer<typeof ticketEventSchema>;

/** Everything the ticket page shows below the ticket itself. */
export const ticketActivitySchema = z.object({
  comments: z.array(commentSchema),
  feedback: feedbackSchema.nullable(),
  events: z.array(ticketEventSchema),
  /** Files attached to the ticket itself when it was raised (a comment's are in the comment). */
  attachments: z.array(attachmentSchema),
});
export type TicketActivity = z.infer<typeof ticketActivitySchema>;
