import { APIError, isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { twoFactors } from "#server/db/schema/index.ts";

/** better-auth's code for the lock after 10 wrong codes in a row (decision 046). */
export const twoFactorLockedCode = "ACCOUNT_TEMPORARILY_LOCKED";

const secondStepPaths = new Set(["/two-factor/verify-totp", "/two-factor/verify-backup-code"]);

/** "45 seconds", "1 second", "15 minutes": rounded up, so the wait is never longer than said. */
export function waitPhrase(seconds: number): string {
  if (seconds < 90) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

export const twoFactorLockedMessage = (seconds: number) =>
  `Too many wrong codes: two-factor sign-in to this account is locked. Try again in ${waitPhrase(seconds)}.`;

/** The part of better-auth's endpoint context an after hook uses here. */
interface AfterHookContext {
  path?: string;
  getSignedCookie(name: string, secret: string): Promise<string | null | false>;
  context: {
    returned?: unknown;
    secret: string;
    createAuthCookie(name: string): { name: string };
    internalAdapter: { findVerificationValue(identifier: string): Promise<{ value: string } | null> };
  };
}

/**
 * better-auth refuses a locked second step with "try again later", and the bridge had nothing better to say
 * than its generic minute. The lock lasts 15 minutes from the tenth wrong code: this says how long it still
 * lasts, in the message and in Retry-After. Only a sign-in's second step is locked, and it carries the
 * challenge cookie that names the person.
 */
export async function sayWhenTwoFactorLockEnds(ctx: AfterHookContext, db: Db): Promise<void> {
  const returned = ctx.context.returned;
  if (!ctx.path || !secondStepPaths.has(ctx.path)) return;
  if (
    !isAPIError(returned) ||
    (returned.body as { code?: unknown } | undefined)?.code !== twoFactorLockedCode
  )
    return;
  const challenge = ctx.context.createAuthCookie("two_factor");
  const identifier = await ctx.getSignedCookie(challenge.name, ctx.context.secret);
  if (!identifier) return;
  const verification = await ctx.context.internalAdapter.findVerificationValue(identifier);
  if (!verification) return;
  const [row] = await db
    .select({ lockedUntil: twoFactors.lockedUntil })
    .from(twoFactors)
    .where(eq(twoFactors.userId, verification.value));
  const seconds = row?.lockedUntil ? Math.ceil((row.lockedUntil.getTime() - Date.now()) / 1000) : 0;
  if (seconds <= 0) return;
  throw new APIError(
    "TOO_MANY_REQUESTS",
    { code: twoFactorLockedCode, message: twoFactorLockedMessage(seconds) },
    { "X-Retry-After": String(seconds) },
  );
}
