import type { EventValues } from "#server/features/ticket-records/ticket-activity.queries.ts";
import type { NotificationType } from "#shared/notifications/notification.schemas.ts";

/** The notification each kind of ticket event gives its recipients. */
export const notificationTypeOf: Record<EventValues["type"], NotificationType> = {
  created: "new_ticket",
  commented: "ticket_comment",
  status_changed: "ticket_status",
  assigned: "ticket_assigned",
  feedback: "ticket_feedback",
  reassigned: "ticket_assigned",
  internal_note: "internal_note",
  edited: "ticket_edited",
  sla_warning: "sla_warning",
  sla_breached: "sla_breached",
  auto_closed: "ticket_auto_closed",
  // Decision 070: putting on hold and a new lift date notify nobody (the hold's public comment is its own
  // "commented" event), nor does staff's own lifting; a hold lifted by the requester's reply or at its date
  // tells the assignee.
  put_on_hold: "ticket_status",
  hold_changed: "ticket_status",
  taken_off_hold: "ticket_hold_lifted",
  auto_resolved: "ticket_auto_resolved",
  team_changed: "ticket_team",
  auto_assigned: "ticket_assigned",
  // Decision 071: a tag change notifies nobody (recipientsOf); the type is only what the row would be.
  tags_changed: "ticket_edited",
  // Decision 074: links and what was merged in are staff's and notify nobody (recipientsOf); a merge closes
  // the duplicate, which its requester hears as a status change (their "status changes" e-mail choice).
  linked: "ticket_edited",
  unlinked: "ticket_edited",
  merged: "ticket_status",
  merged_in: "ticket_edited",
  // Decision 076: a rule's notice to the people and teams it names; a refused rule tells nobody.
  rule_notified: "rule_notice",
  rule_refused: "rule_notice",
  // Decision 077: declaring and ending a major incident notify nobody (recipientsOf).
  incident_declared: "ticket_edited",
  incident_ended: "ticket_edited",
};
