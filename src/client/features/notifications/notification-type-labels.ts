import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { NotificationType } from "#shared/notifications/notification.schemas.ts";

/**
 * The kinds of notification as the settings and the unsubscribe page name them, in the active language
 * (notificationTypeLabels in #shared/notifications/notification.schemas.ts holds the English the server uses).
 */
export const notificationTypeLabels: Record<NotificationType, MessageDescriptor> = {
  new_ticket: msg`New tickets (technicians)`,
  ticket_comment: msg`Comments on my tickets`,
  ticket_status: msg`Status changes on my tickets`,
  ticket_assigned: msg`My ticket was assigned`,
  ticket_feedback: msg`Feedback on tickets I handled`,
  internal_note: msg`Internal notes on tickets I handle`,
  mentioned: msg`Someone mentioned me (staff)`,
  ticket_edited: msg`Corrections to my tickets' details`,
  sla_warning: msg`A service-level target is due soon (staff)`,
  sla_breached: msg`A service-level target was missed (staff)`,
  ticket_auto_closed: msg`My resolved tickets closed automatically`,
  ticket_hold_lifted: msg`A ticket I handle is no longer on hold (staff)`,
  ticket_auto_resolved: msg`My tickets on hold resolved automatically`,
  ticket_team: msg`A ticket moved to my team (technicians)`,
  rule_notice: msg`An automation rule asks me to look at a ticket (staff)`,
  known_issue: msg`Updates on known issues I follow`,
  webhook_disabled: msg`A webhook was switched off after failed deliveries (admins)`,
  test: msg`Test notifications`,
};
