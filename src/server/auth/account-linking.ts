import { isAPIError } from "better-auth/api";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { accounts, apiTokens, sessions, twoFactors, users } from "#server/db/schema/index.ts";

/**
 * What a Google or OIDC sign-in does when someone already has an account with its e-mail (decision 060):
 * with linking on, the provider's `email_verified: true` links it to that account. better-auth would also
 * require the account's own address to have been proven, which no password sign-up here ever does; instead
 * the link takes away what was set up without that proof (linkToProvenOwner).
 */
export function accountLinkingOptions(isEnabled: boolean) {
  return {
    accountLinking: {
      enabled: isEnabled,
      // No provider is trusted without its own email_verified: an unverified address is never linked.
      trustedProviders: [],
      requireLocalEmailVerified: false,
    },
  };
}

export const accountInactiveMessage = "This account has been deactivated. Contact your administrator.";

/**
 * better-auth's gate just before it links a provider to an existing account. A deactivated person is
 * refused here, before anything is linked (the session hook would refuse them a moment later anyway).
 *
 * Otherwise the provider has just shown that this person controls the address. Anything the account gained
 * before anyone had shown that (its password, with its two-factor setup, its sessions and API tokens) may
 * be someone else's: whoever signed up first with a colleague's address would otherwise keep a way in to
 * the account once the colleague links it. So it goes, and the address counts as proven from now on. The
 * owner sets a password again with "Forgot password?" if they want one; mail goes to the proven address.
 */
export async function linkToProvenOwner(
  db: Db,
  userId: string,
  { onSessionsEnded }: { onSessionsEnded?: (userId: string) => void },
): Promise<{ error: string; errorDescription: string } | undefined> {
  const [person] = await db
    .select({ id: users.id, status: users.status, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, userId));
  if (!person) return undefined;
  if (person.status === "Inactive")
    return { error: "account_inactive", errorDescription: accountInactiveMessage };
  if (!person.emailVerified) {
    await dropUnprovenAccess(db, person.id);
    onSessionsEnded?.(person.id);
  }
  return undefined;
}

async function dropUnprovenAccess(db: Db, userId: string) {
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx.delete(accounts).where(eq(accounts.userId, userId));
    await tx.delete(twoFactors).where(eq(twoFactors.userId, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
    await tx
      .update(users)
      .set({ emailVerified: true, twoFactorEnabled: false, updatedAt: now })
      .where(eq(users.id, userId));
  });
}

/** The part of better-auth's endpoint context an after hook reads here. */
interface CallbackContext {
  path?: string;
  context: { returned?: unknown };
}

/**
 * better-auth answers a refused link with `?error=account_not_linked`, whatever the reason. With linking on,
 * the one reason left is that the provider did not say the address is verified: say that instead, so the
 * sign-in page can tell the person what to do (the provider must verify it, or they use their password).
 */
export function explainRefusedLink(ctx: CallbackContext, isLinkingEnabled: boolean): string | null {
  if (!isLinkingEnabled || ctx.path !== "/callback/:id") return null;
  const returned = ctx.context.returned;
  if (!isAPIError(returned)) return null;
  const location = new Headers(returned.headers as HeadersInit | undefined).get("location");
  const explained = location?.replace(
    /([?&])error=account_not_linked(?=&|#|$)/,
    "$1error=email_not_verified",
  );
  return explained && explained !== location ? explained : null;
}
