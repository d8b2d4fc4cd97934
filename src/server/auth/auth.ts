import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins";
import { eq } from "drizzle-orm";
import { describeIssues } from "#shared/errors.ts";
import type { SignUpRole } from "#shared/users/roles.ts";
import { signUpInputSchema } from "#shared/users/user.schemas.ts";
import type { Db } from "../db/client.ts";
import { accounts, rateLimits, sessions, users, verifications } from "../db/schema/index.ts";
import type { Mailer } from "../mail/mailer.ts";
import { passwordResetMail } from "../mail/templates.ts";
import { hashPassword, verifyPassword } from "./password.ts";

/** The header our Fastify bridge fills with the client address Fastify resolved (see auth.routes.ts). */
export const clientIpHeader = "x-helpdesk-client-ip";

export const oidcProviderId = "oidc";

export interface OidcConfig {
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  label: string;
}

export interface AuthConfig {
  db: Db;
  baseURL: string;
  secret: string;
  mailer: Mailer;
  /** Attempts per window on sign-in, sign-up and password endpoints, per client address. */
  credentialRateLimit: { window: number; max: number };
  google?: { clientId: string; clientSecret: string };
  oidc?: OidcConfig;
}

export type Auth = ReturnType<typeof createAuth>;

export const registrationFailed = "Something went wrong with the registration";

/** The role a public sign-up asked for, handed from the validating hook to the user-creation hook. */
const requestedRoles = new WeakMap<Request, SignUpRole>();

export function createAuth({ db, baseURL, secret, mailer, credentialRateLimit, google, oidc }: AuthConfig) {
  return betterAuth({
    appName: "Helpdesk",
    // Refused input is answered, not logged; the Fastify bridge logs every 5xx with its request id.
    logger: { disabled: true },
    baseURL,
    basePath: "/api/auth",
    secret,
    trustedOrigins: [baseURL],
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
    plugins: oidc
      ? [
          genericOAuth({
            config: [
              {
                providerId: oidcProviderId,
                discoveryUrl: oidc.discoveryUrl,
                clientId: oidc.clientId,
                clientSecret: oidc.clientSecret,
                scopes: ["openid", "email", "profile"],
                pkce: true,
              },
            ],
          }),
        ]
      : [],
    user: {
      additionalFields: {
        // Never taken from a request body: public sign-up sets it from the validated body below; a first
        // Google/OIDC sign-in leaves it null until /role-selection; admins come only from /admin-signup.
        role: { type: "string", required: false, input: false },
        department: { type: "string", required: false, defaultValue: "General", input: false },
        status: { type: "string", required: false, defaultValue: "Active", input: false },
        lastLogin: { type: "date", required: false, input: false },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 300,
      customRules: {
        "/sign-in/*": credentialRateLimit,
        "/sign-up/*": credentialRateLimit,
        "/request-password-reset": credentialRateLimit,
        "/reset-password": credentialRateLimit,
        "/reset-password/*": credentialRateLimit,
      },
    },
    advanced: {
      // Only the address Fastify resolved counts; a client-sent X-Forwarded-For is ignored unless
      // TRUST_PROXY is set, in which case Fastify itself reads it.
      ipAddress: { ipAddressHeaders: [clientIpHeader] },
      useSecureCookies: baseURL.startsWith("https://"),
    },
    hooks: {
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
        // Say no more than the spec's toast about an address that is already registered.
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
    },
    databaseHooks: {
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
          before: async (session) => {
            const [user] = await db
              .select({ status: users.status })
              .from(users)
              .where(eq(users.id, session.userId));
            if (user?.status === "Inactive") {
              throw new APIError("FORBIDDEN", {
                code: "account_inactive",
                message: "This account has been deactivated. Contact your administrator.",
              });
            }
          },
          after: async (session) => {
            await db.update(users).set({ lastLogin: new Date() }).where(eq(users.id, session.userId));
          },
        },
      },
    },
  });
}
