import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import { commentSchema } from "#shared/tickets/ticket-activity.schemas.ts";
import type { Role } from "#shared/users/roles.ts";

/** Who may be mentioned (and shows up in the staff directory): active technicians and administrators. */
export const mentionableRoles = ["technician", "admin"] as const satisfies readonly Role[];

/** GET /api/staff?q=: the staff directory the @-autocomplete reads. */
export const staffDirectoryQuerySchema = z.object({
  q: storableText(
    z.string({ error: "q must be text" }).trim().max(100, "The search must be at most 100 characters"),
    "The search",
  ).default(""),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(50, "limit must be at most 50")
    .default(8),
});
export type StaffDirectoryQuery = z.infer<typeof staffDirectoryQuerySchema>;

export const staffMemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(mentionableRoles),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

/** Why a mention notified nobody, told to its author (the comment is saved either way). */
export const mentionRefusals = ["not_staff", "inactive", "cannot_see_ticket", "unknown"] as const;
export type MentionRefusal = (typeof mentionRefusals)[number];
export const mentionRefusalLabels: Record<MentionRefusal, string> = {
  not_staff: "only technicians and administrators can be mentioned",
  inactive: "their account is deactivated",
  cannot_see_ticket: "they cannot see this ticket",
  unknown: "no such person",
};

export const mentionOutcomeSchema = z.object({
  notified: z.array(z.object({ userId: z.string(), name: z.string() })),
  notNotified: z.array(z.object({ userId: z.string(), name: z.string(), reason: z.enum(mentionRefusals) })),
});
export type MentionOutcome = z.infer<typeof mentionOutcomeSchema>;

/** POST /api/tickets/:ticketId/comments answers the comment and what became of its mentions. */
export const addedCommentSchema = commentSchema.extend({ mentions: mentionOutcomeSchema });
export type AddedComment = z.infer<typeof addedCommentSchema>;

/** What the author reads when some mentions notified nobody, or null when every mention was delivered. */
export function unnotifiedMentionsMessage({ notNotified }: MentionOutcome): string | null {
  if (notNotified.length === 0) return null;
  const reasons = notNotified.map((m) => `@${m.name} (${mentionRefusalLabels[m.reason]})`);
  return `Saved, but not notified: ${reasons.join("; ")}.`;
}
