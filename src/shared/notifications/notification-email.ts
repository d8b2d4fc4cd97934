import type { Role } from "#shared/users/roles.ts";
import { type EmailableNotificationType, emailableNotificationTypes } from "./notification.schemas.ts";

/** A new ticket and a ticket moved to a team are told to technicians (all, or the team's), never to others. */
const technicianOnlyEmailTypes: readonly EmailableNotificationType[] = ["new_ticket", "ticket_team"];

const staffOnlyEmailTypes: readonly EmailableNotificationType[] = [
  // Decision 011: internal notes never reach users.
  "internal_note",
  "mentioned",
  "sla_warning",
  "sla_breached",
  // Decision 070: a lifted hold is told to the ticket's assignee.
  "ticket_hold_lifted",
  // Decision 076: an automation rule tells staff only.
  "rule_notice",
];

/** Decision 080: only administrators hear that a webhook was switched off. */
const adminOnlyEmailTypes: readonly EmailableNotificationType[] = ["webhook_disabled"];

/**
 * The e-mail types a person may choose in /profile. Only technicians receive new-ticket notifications
 * (the new-ticket broadcast goes to technicians), so only they may have those e-mailed. Only staff can be
 * mentioned (decision 014), and only they hear of internal notes, service-level warnings and breaches
 * (decision 020), lifted holds and automation rules' notices, so only they see those choices; only
 * administrators hear of a webhook switched off (decision 080). The profile
 * page offers exactly these.
 */
export function emailTypesAvailableTo(role: Role | null): EmailableNotificationType[] {
  const isStaff = role === "technician" || role === "admin";
  return emailableNotificationTypes.filter(
    (type) =>
      (!technicianOnlyEmailTypes.includes(type) || role === "technician") &&
      (!staffOnlyEmailTypes.includes(type) || isStaff) &&
      (!adminOnlyEmailTypes.includes(type) || role === "admin"),
  );
}
