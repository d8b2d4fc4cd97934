import { type BetterAuthOptions, betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
// Each plugin from its own entry point: "better-auth/plugins" loads every plugin better-auth has.
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { twoFactor } from "better-auth/plugins/two-factor";
import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { accounts, rateLimits, sessions, twoFactors, users, verifications } from "#server/db/schema/index.ts";
import { allowedOrigins } from "#server/http/origins.ts";
import type { Mailer } from "#server/mail/mailer.ts";
import { passwordResetMail } from "#server/mail/templates.ts";
import { countAttempt } from "#server/rate-limit.ts";
import { describeIssues } from "#shared/errors.ts";
import type { SignUpRole } from "#shared/users/roles.ts";
import { signUpInputSchema } from "#shared/users/user.schemas.ts";
import {
  accountInactiveMessage,
  accountLinkingOptions,
  explainRefusedLink,
  linkToProvenOwner,
} from "./account-linking.ts";
import { applyMappedRole, homeOfMappedSignIn, noteMappedRole, type OidcRoleMapping } from "./oidc-roles.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { sayWhenTwoFactorLockEnds } from "./two-factor-lock.ts";

/** The header our Fastify bridge fills with the client address Fastify resolved (see auth.routes.ts). */
export const clientIpHeader = "x-helpdesk-client-ip";

export const oidcProviderId = "oidc";

export interface OidcConfig {
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  label: string;
  /** Asked for besides openid, email and profile (OIDC_SCOPES), e.g. Okta's `groups` (decision 082). */
  extraScopes?: string[];
}

export interface AuthConfig {
  db: Db;
  baseURL: string;
  secret: string;
  mailer: Mailer;
  google?: { clientId: string; clientSecret: string };
  oidc?: OidcConfig;
  /**
   * Whether a Google or OIDC sign-in whose provider verified the e-mail is linked to the existing account
   * with that address (SSO_ACCOUNT_LINKING, on by default; decision 060).
   */
  ssoAccountLinking?: boolean;
  /**
   * After commit, for every session better-auth deletes (sign-out, the revocation a password reset does):
   * the app announces "session-ended" so that session caches and live streams on every instance let go.
   */
  onSessionDeleted?: (userId: string) => void;
  /** Roles from the OIDC provider's claims, when an admin saved a mapping (decision 082). */
  oidcRoles?: OidcRoleMapping;
}

export type Auth = ReturnType<typeof createAuth>;

/** Requests per minute per address and path on the endpoints sign-in-limits.ts does not handle. */
const ceiling = { window: 60, max: 300 };

export const registrationFailed = "Something went wrong with the registration";

/** The role a public sign-up asked for, handed from the validating hook to the user-creation hook. */
const requestedRoles = new WeakMap<Request, SignUpRole>();

export function createAuth({
  db,
  baseURL,
  secret,
  mailer,
  google,
  oidc,
  ssoAccountLinking = true,
  onSessionDeleted,
  oidcRoles,
}: AuthConfig) {
  return betterAuth({
    appName: "Helpdesk",
    // Refused input is answered, not logged; the Fastify bridge logs every 5xx with its request id.
    logger: { disabled: true },
    baseURL,
    basePath: "/api/auth",
    secret,
    trustedOrigins: allowedOrigins(baseURL),
    // A failed Google/OIDC round trip lands on /sign-in with ?error=…, where the client says so.
    onAPIError: { errorURL: "/sign-in" },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        rateLimit: rateLimits,
        twoFactor: twoFactors,
      },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        await mailer.send(passwordResetMail({ to: user.email, name: user.name, url }));
      },
    },
    socialProviders: google
      ? { google: { clientId: google.clientId, clientSecret: google.clientSecret, prompt: "select_account" } }
      : {},
    plugins: [
      // TOTP with recovery codes (decision 046). A challenge allows 5 codes; 10 wrong codes in a row lock the
      // account's second step for 15 minutes (the plugin's defaults, NIST SP 800-63B §5.2.2); the refusal
      // says how long is left (two-factor-lock.ts).
      twoFactor({
        issuer: "Helpdesk",
        // No "trust this device for 30 days": a code at every password sign-in.
        trustDeviceMaxAge: 0,
        backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: "encrypted" },
      }),
      ...(oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: oidcProviderId,
                  discoveryUrl: oidc.discoveryUrl,
                  clientId: oidc.clientId,
                  clientSecret: oidc.clientSecret,
                  scopes: [...new Set(["openid", "email", "profile", ...(oidc.extraScopes ?? [])])],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
    ],
    account: accountLinkingOptions(ssoAccountLinking),
    user: {
      // Just before a provider is linked to an existing account: refuse a deactivated person, and take
      // away what the account gained before its address was proven (account-linking.ts).
      // At every sign-in through the OIDC provider, its verified claims decide the role (decision 082).
      validateUserInfo: async ({ user, source }, ctx) => {
        if (source.action === "link-account" && typeof user.id === "string") {
          const refused = await linkToProvenOwner(db, user.id, { onSessionsEnded: onSessionDeleted });
          if (refused) return refused;
        }
        await noteMappedRole(oidcRoles, oidcProviderId, source, ctx);
        return undefined;
      },
      additionalFields: {
        // Never taken from a request body: public sign-up sets it from the validated body below; a first
        // Google/OIDC sign-in leaves it null until /role-selection, or until the session hook gives it the
        // role the OIDC mapping says (decision 082); admins come only from /admin-signup or that mapping.
        role: { type: "string", required: false, input: false },
        department: { type: "string", required: false, defaultValue: "General", input: false },
        status: { type: "string", required: false, defaultValue: "Active", input: false },
        lastLogin: { type: "date", required: false, input: false },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // Only a high per-address ceiling: the credential endpoints are limited by sign-in-limits.ts in the
    // bridge, which counts failures, not every request. better-auth's own rules (3 sign-ins per 10 s per
    // address) would refuse an office behind one NAT on a Monday morning.
    rateLimit: rateLimitOptions(db),
    advanced: {
      // Only the address Fastify resolved counts; a client-sent X-Forwarded-For is ignored unless
      // TRUST_PROXY is set, in which case Fastify itself reads it.
      ipAddress: { ipAddressHeaders: [clientIpHeader] },
      useSecureCookies: baseURL.startsWith("https://"),
      // better-auth turns its Origin check off when NODE_ENV is test; tests must meet what production does.
      disableOriginCheck: false,
    },
    hooks: requestHooks(db, ssoAccountLinking),
    databaseHooks: databaseHooks(db, onSessionDeleted, oidcRoles),
  });
}

/** better-auth's own rate limits, counted in the shared rate_limits table. */
function rateLimitOptions(db: Db): BetterAuthOptions["rateLimit"] {
  return {
    enabled: true,
    window: ceiling.window,
    max: ceiling.max,
    customRules: {
      "/sign-in/email": false,
      "/sign-up/email": false,
      "/request-password-reset": false,
      "/reset-password": false,
      "/reset-password/*": false,
      "/sign-in/*": ceiling,
      // The plugin's own 3 per 10 s per address would refuse an office behind one NAT; guessing is bounded
      // by the plugin per challenge (5) and per account (10, then a 15-minute lock).
      "/two-factor/*": { window: 60, max: 60 },
    },
    // Our atomic counter on the shared rate_limits table: better-auth's database storage would prune
    // every row older than its own longest window, including the longer-lived failure counters.
    customStorage: {
      consume: async (key, rule) => {
        const { count, retryAfter } = await countAttempt(db, `better-auth|${key}`, rule.window);
        return count > rule.max ? { allowed: false, retryAfter } : { allowed: true, retryAfter: null };
      },
    },
  };
}

/**
 * After each endpoint: the two-factor lock's end and a refused account link explained. Before a public
 * sign-up: the shared schema checks the body, and the role asked for waits in requestedRoles.
 */
function requestHooks(db: Db, ssoAccountLinking: boolean): BetterAuthOptions["hooks"] {
  return {
    after: createAuthMiddleware(async (ctx) => {
      await sayWhenTwoFactorLockEnds(ctx, db);
      const explained = explainRefusedLink(ctx, ssoAccountLinking) ?? homeOfMappedSignIn(ctx);
      if (explained) throw new APIError("FOUND", undefined, new Headers({ location: explained }));
    }),
    before: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== "/sign-up/email") return;
      // The public sign-up accepts exactly the shared schema: an admin role or a short password never reaches the database.
      const parsed = signUpInputSchema.safeParse(ctx.body);
      if (!parsed.success) {
        throw new APIError("BAD_REQUEST", {
          code: "validation_failed",
          message: describeIssues(parsed.error.issues),
        });
      }
      // Say no more than the generic toast about an address that is already registered.
      const [existing] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, parsed.data.email.toLowerCase()));
      if (existing)
        throw new APIError("BAD_REQUEST", { code: "registration_failed", message: registrationFailed });
      if (!ctx.request) throw new APIError("BAD_REQUEST", { message: registrationFailed });
      requestedRoles.set(ctx.request, parsed.data.role);
      // better-auth merges a returned body into the original, so the role is removed in place.
      const body = ctx.body as Record<string, unknown>;
      delete body.role;
      return { context: { body: { ...body, name: parsed.data.name, email: parsed.data.email } } };
    }),
  };
}

/**
 * A new user gets the role the sign-up asked for; a deactivated person gets no session; an OIDC sign-in
 * under a mapping gets its role; a new session records the sign-in; a deleted one is announced.
 */
function databaseHooks(
  db: Db,
  onSessionDeleted: AuthConfig["onSessionDeleted"],
  oidcRoles: OidcRoleMapping | undefined,
): BetterAuthOptions["databaseHooks"] {
  return {
    user: {
      create: {
        before: async (user, ctx) => {
          const role =
            ctx?.path === "/sign-up/email" && ctx.request ? requestedRoles.get(ctx.request) : undefined;
          return { data: { ...user, role: role ?? null } };
        },
      },
    },
    session: {
      create: {
        before: async (session, ctx) => {
          const [user] = await db
            .select({ status: users.status })
            .from(users)
            .where(eq(users.id, session.userId));
          if (user?.status === "Inactive") {
            throw new APIError("FORBIDDEN", {
              code: "account_inactive",
              message: accountInactiveMessage,
            });
          }
          await applyMappedRole(oidcRoles, session.userId, ctx);
        },
        after: async (session) => {
          await db.update(users).set({ lastLogin: new Date() }).where(eq(users.id, session.userId));
        },
      },
      delete: {
        after: async (session) => {
          onSessionDeleted?.(session.userId);
        },
      },
    },
  };
}
