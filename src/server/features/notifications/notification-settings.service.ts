import type { ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { notFound, ruleViolation, validationFailed } from "#server/errors.ts";
import {
  defaultEmailNotificationTypes,
  type EmailableNotificationType,
  type NotificationSettings,
  notificationTypeLabels,
  type UnsubscribeResult,
} from "#shared/notifications/notification.schemas.ts";
import { emailTypesAvailableTo } from "#shared/notifications/notification-email.ts";
import type { Role } from "#shared/users/roles.ts";
import {
  findSettingsOwner,
  removeEmailType,
  upsertNotificationSettings,
} from "./notification-mail.queries.ts";
import { verifyUnsubscribeToken } from "./unsubscribe-token.ts";

// Only what the person's role may choose is shown: a former technician's stored new-ticket choice is
// inert (they get no new-ticket notifications) and must not make the /profile form unsaveable.
const visibleChoices = (role: Role | null, stored: readonly string[]) =>
  emailTypesAvailableTo(role).filter((type) => stored.includes(type));

export async function getNotificationSettings(ctx: ServiceContext): Promise<NotificationSettings> {
  const owner = await findSettingsOwner(ctx.db, ctx.actor.id);
  if (!owner) throw notFound("User");
  return {
    emailTypes: visibleChoices(ctx.actor.role, owner.emailTypes ?? defaultEmailNotificationTypes),
    soundsMuted: owner.soundsMuted ?? false,
  };
}

export async function updateNotificationSettings(
  ctx: ServiceContext,
  input: NotificationSettings,
): Promise<NotificationSettings> {
  const available = emailTypesAvailableTo(ctx.actor.role);
  const refused = input.emailTypes.filter((type) => !available.includes(type));
  if (refused.length > 0) {
    throw ruleViolation(
      `${refused.map((type) => notificationTypeLabels[type]).join(", ")}: only technicians receive these notifications.`,
    );
  }
  await upsertNotificationSettings(ctx.db, {
    userId: ctx.actor.id,
    emailTypes: available.filter((type) => input.emailTypes.includes(type)),
    soundsMuted: input.soundsMuted,
  });
  return getNotificationSettings(ctx);
}

const invalidLink = () => validationFailed("This unsubscribe link is not valid.");

/** Turns off the one type of e-mail a signed unsubscribe link names, for the one person it names. */
export async function unsubscribeByToken(
  db: Db,
  secret: string,
  token: string,
): Promise<UnsubscribeResult & { type: EmailableNotificationType }> {
  const claim = verifyUnsubscribeToken(secret, token);
  if (!claim) throw invalidLink();
  const owner = await findSettingsOwner(db, claim.userId);
  // A deleted account's link is as void as a forged one.
  if (!owner) throw invalidLink();
  await removeEmailType(db, claim.userId, claim.type, defaultEmailNotificationTypes);
  return { email: owner.email, type: claim.type };
}
