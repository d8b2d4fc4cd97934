import type { Role } from "#shared/users/roles.ts";
import { type EmailableNotificationType, emailableNotificationTypes } from "./notification.schemas.ts";

const staffOnlyEmailTypes: readonly EmailableNotificationType[] = [
  "mentioned",
  "sla_warning",
  "sla_breached",
];

/**
 * The e-mail types a person may choose in /profile. Only technicians receive new-ticket notifications
 * (the new-ticket broadcast goes to technicians), so only they may have those e-mailed. Only staff can be
 * mentioned (decision 014), and only they hear of service-level warnings and breaches (decision 020),
 * so only they see those choices.
 */
export function emailTypesAvailableTo(role: Role | null): EmailableNotificationType[] {
  const isStaff = role === "technician" || role === "admin";
  return emailableNotificationTypes.filter(
    (type) =>
      (type !== "new_ticket" || role === "technician") && (!staffOnlyEmailTypes.includes(type) || isStaff),
  );
}
