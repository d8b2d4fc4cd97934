import { createHmac, timingSafeEqual } from "node:crypto";
import {
  type EmailableNotificationType,
  emailableNotificationTypes,
} from "#shared/notifications/notification.schemas.ts";

const version = "1";

// A key of its own, derived from the auth secret with a label, so that an unsubscribe signature can
// never be mistaken for (or replayed as) any other value signed with that secret.
const keyFrom = (secret: string) =>
  createHmac("sha256", secret).update(`helpdesk unsubscribe token v${version}`).digest();

const sign = (secret: string, payload: string) =>
  createHmac("sha256", keyFrom(secret)).update(payload).digest();

/**
 * The token of a mail's unsubscribe link: who and which type, signed (HMAC-SHA256). It never expires on
 * purpose: all it can do is turn one type of e-mail off for one person, which they can undo in /profile,
 * and a link in an old mail should keep working. Changing the auth secret invalidates every link.
 */
export function createUnsubscribeToken(secret: string, userId: string, type: EmailableNotificationType) {
  const payload = `${version}.${Buffer.from(userId).toString("base64url")}.${type}`;
  return `${payload}.${sign(secret, payload).toString("base64url")}`;
}

/** The person and type a token names, or null when it is malformed or its signature does not match. */
export function verifyUnsubscribeToken(
  secret: string,
  token: string,
): { userId: string; type: EmailableNotificationType } | null {
  const parts = token.split(".");
  if (parts.length !== 4) return null;
  const [tokenVersion, encodedUserId, type, signature] = parts as [string, string, string, string];
  if (tokenVersion !== version) return null;
  const expected = sign(secret, `${tokenVersion}.${encodedUserId}.${type}`);
  const given = Buffer.from(signature, "base64url");
  // Constant-time comparison, so that timing reveals nothing about how much of a forged signature matched.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (!emailableNotificationTypes.includes(type as EmailableNotificationType)) return null;
  const userId = Buffer.from(encodedUserId, "base64url").toString("utf8");
  return userId ? { userId, type: type as EmailableNotificationType } : null;
}
