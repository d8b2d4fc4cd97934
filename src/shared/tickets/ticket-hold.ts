import { z } from "zod";
import type { HoldFacts } from "#shared/permissions.ts";
import { storableText } from "#shared/text/storable-text.ts";
import { commentMaxLength } from "./comment-length.ts";

// On hold (decision 070): a state within In Progress while the team waits on the requester. The four
// statuses and their counts stay as they are; the hold is its own pair of columns on the ticket.

/** The furthest a lift date may lie ahead: a hold is a wait for an answer, not a way to park a ticket. */
export const holdUntilMaxDays = 365;
const dayMs = 86_400_000;

/** When to lift the hold by itself: an instant, or null for "until the requester replies or staff lift it". */
const holdUntilSchema = z.iso
  .datetime({ offset: true, error: "The date to lift the hold must be a date and time" })
  .nullable();

/** PUT /api/tickets/:id/hold: the public comment the requester reads, and optionally when to lift it. */
export const putOnHoldInputSchema = z.object({
  comment: storableText(
    z
      .string({
        error: (issue) =>
          issue.input === undefined ? "A comment for the requester is required" : "Comment must be text",
      })
      .trim()
      .min(1, "A comment for the requester is required")
      .max(commentMaxLength, `Comment must be at most ${commentMaxLength} characters`),
    "Comment",
  ),
  until: holdUntilSchema.optional(),
});
export type PutOnHoldInput = z.infer<typeof putOnHoldInputSchema>;

/** PATCH /api/tickets/:id/hold: a new lift date, or null for none. */
export const changeHoldInputSchema = z.object({ until: holdUntilSchema });
export type ChangeHoldInput = z.infer<typeof changeHoldInputSchema>;

/** Why a hold ended, as its timeline entry says: staff lifted it, the requester replied, its date came, or the status changed. */
export const holdEndReasons = ["staff", "reply", "date", "status"] as const;
export type HoldEndReason = (typeof holdEndReasons)[number];

/** Why `until` cannot be a lift date at `now`, or null: it must lie ahead, and within holdUntilMaxDays. */
export function holdUntilRefusal(until: Date, now: Date): string | null {
  if (until.getTime() <= now.getTime()) return "The date to lift the hold must be in the future.";
  if (until.getTime() > now.getTime() + holdUntilMaxDays * dayMs) {
    return `The date to lift the hold must be within ${holdUntilMaxDays} days.`;
  }
  return null;
}

/** Why this ticket cannot be put on hold now (who may at all is can.changeStatus's), or null. */
export function putOnHoldRefusal(ticket: HoldFacts): string | null {
  if (ticket.onHoldSince !== null) return "This ticket is already on hold.";
  if (ticket.status !== "In Progress") return "Only a ticket In Progress can be put on hold.";
  return null;
}

/** Why this ticket's hold cannot be changed or lifted now, or null. */
export function changeHoldRefusal(ticket: HoldFacts): string | null {
  return ticket.onHoldSince === null || ticket.status !== "In Progress"
    ? "This ticket is not on hold."
    : null;
}

/** A ticket's hold as the DTO carries it: since when, and until when (null: no lift date). */
export const ticketHoldSchema = z.object({
  onHoldSince: z.iso.datetime().nullable(),
  holdUntil: z.iso.datetime().nullable(),
});
