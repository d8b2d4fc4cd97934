import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { eq } from "drizzle-orm";
import { describeIssues } from "#shared/errors.ts";
import { signUpInputSchema } from "#shared/users/user.schemas.ts";
import type { Db } from "../db/client.ts";
import { accounts, rateLimits, sessions, users, verifications } from "../db/schema/index.ts";
import { hashPassword, verifyPassword } from "./password.ts";

/** The header our Fastify bridge fills with the client address Fastify resolved (see auth.routes.ts). */
export const clientIpHeader = "x-helpdesk-client-ip";

export interface AuthConfig {
  db: Db;
  baseURL: string;
  secret: string;
  /** Attempts per window on sign-in, sign-up and password endpoints, per client address. */
  credentialRateLimit: { window: number; max: number };
}

export type Auth = ReturnType<typeof createAuth>;

export function createAuth({ db, baseURL, secret, credentialRateLimit }: AuthConfig) {
  return betterAuth({
    appName: "Helpdesk",
    // Wrong passwords are expected traffic, not warnings; real failures still surface as errors.
    logger: { level: "error" },
    baseURL,
    basePath: "/api/auth",
    secret,
    trustedOrigins: [baseURL],
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
    },
    user: {
      additionalFields: {
        role: { type: "string", required: false, input: true },
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
        return { context: { body: { ...ctx.body, ...parsed.data } } };
      }),
    },
    databaseHooks: {
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
