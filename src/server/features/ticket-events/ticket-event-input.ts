import type { EventValues } from "#server/features/ticket-records/ticket-activity.queries.ts";

/** A ticket event as a service records it: its timeline row's values, and what only the write path reads. */
export type TicketEventInput = EventValues & {
  /**
   * The people a comment or note mentions who may be told (resolveMentions): each gets one `mentioned`
   * notification instead of the event's usual one.
   */
  mentionedUserIds?: readonly string[];
  /** A "rule_notified" event's recipients (decision 076): the staff and team members the rule tells. */
  noticeUserIds?: readonly string[];
  /** A "taken_off_hold" event's hold began then: the SLA step moves the resolution on by the time held. */
  heldSince?: Date;
};
