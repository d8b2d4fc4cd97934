import type { Role } from "../users/roles.ts";
import { type EmailableNotificationType, emailableNotificationTypes } from "./notification.schemas.ts";

/**
 * The e-mail types a person may choose in /profile. Only technicians receive new-ticket notifications
 * (spec §6: broadcasts go to technicians), so only they may have those e-mailed.
 */
export function emailTypesAvailableTo(role: Role | null): EmailableNotificationType[] {
  return role === "technician"
    ? [...emailableNotificationTypes]
    : emailableNotificationTypes.filter((type) => type !== "new_ticket");
}
