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
  /** Tells these staff members and the members of these teams (a notification, and e-mail if they chose). */
  notify?: RuleNotify;
}

/** Whom a rule tells: staff members' ids and teams' ids, at least one of either. */
export interface RuleNotify {
  userIds: string[];
  teamIds: string[];
}

/** How many people and teams one rule may tell. */
export const ruleNotifyMax = 20;
