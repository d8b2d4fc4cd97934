import type { MacroActions } from "#shared/macros/macro.schemas.ts";

/**
 * What a rule does when its conditions hold (decision 076): a macro's changes (decision 075) except the
 * hold, whose public comment a rule cannot write, and except "me", which means nobody to a rule; and what
 * only a rule does: an internal note, and a shared canned reply to the requester.
 */
export interface RuleActions extends Omit<MacroActions, "assigneeId" | "hold"> {
  /** A technician's id, or null: back to the queue. */
  assigneeId?: string | null;
  /** An internal note, written by the rule. */
  note?: string;
  /** A shared canned response posted to the requester as a public comment, its placeholders filled. */
  replyCannedResponseId?: string;
}
