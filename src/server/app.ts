import { randomUUID } from "node:crypto";
import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { authRoutes } from "./auth/auth.routes.ts";
import { createAuth, type OidcConfig } from "./auth/auth.ts";
import { createSignInLimits } from "./auth/sign-in-limits.ts";
import type { Database } from "./db/client.ts";
import type { TrustProxy } from "./env.ts";
import { ticketRoutes } from "./features/tickets/ticket.routes.ts";
import { registerAdmin } from "./features/users/admin-registration.service.ts";
import { userRoutes } from "./features/users/user.routes.ts";
import { registerErrorHandler } from "./http/error-handler.ts";
import { consumeRateLimit, type RateRule } from "./http/rate-limit.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { contextFor, registerSession } from "./http/session.ts";
import { registerSpa } from "./http/spa.ts";
import type { Mailer } from "./mail/mailer.ts";

export interface AppDeps {
  database: Database;
  baseURL: string;
  authSecret: string;
  /** Folder of the built client (dist/client); null serves the API alone. */
  clientDir: string | null;
  logger?: FastifyServerOptions["logger"];
  /** Which proxies may name the client in X-Forwarded-For: a hop count or addresses/CIDRs (TRUST_PROXY). */
  trustProxy?: TrustProxy;
  /** Failed sign-ins, password-reset attempts and admin sign-ups per client address per window. */
  credentialRateLimit?: RateRule;
  /** Failed sign-ins per account per window, from any address. */
  accountRateLimit?: RateRule;
  /** Sign-ups per client address per window. */
  signUpRateLimit?: RateRule;
  bodyLimit?: number;
  mailer: Mailer;
  /** The key /admin-signup requires (ADMIN_SIGNUP_KEY, or generated into DATA_DIR on first start). */
  adminSignUpKey: string;
  google?: { clientId: string; clientSecret: string };
  oidc?: OidcConfig;
}

export const defaultBodyLimit = 64 * 1024;

/**
 * Fastify ignores a bare hop count (it trusts no hop then), so a count becomes "trust the first n
 * hops counted from our socket": the entry just left of them in X-Forwarded-For is the client.
 */
const toFastifyTrustProxy = (trust: TrustProxy) =>
  typeof trust === "number" ? (_address: string, hop: number) => hop < trust : trust;

/** Wires everything. main.ts calls it with the configuration; tests call it with a test database. */
export async function buildApp(deps: AppDeps) {
  const bodyLimit = deps.bodyLimit ?? defaultBodyLimit;
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit,
    trustProxy: toFastifyTrustProxy(deps.trustProxy ?? false),
    genReqId: (request) => {
      const incoming = request.headers["x-request-id"];
      return typeof incoming === "string" && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  const { database } = deps;
  const credentialRateLimit = deps.credentialRateLimit ?? { window: 60, max: 10 };
  const signInLimits = createSignInLimits(database.db, {
    address: credentialRateLimit,
    account: deps.accountRateLimit ?? { window: 900, max: 20 },
    signUp: deps.signUpRateLimit ?? { window: 60, max: 30 },
  });
  const auth = createAuth({
    db: database.db,
    baseURL: deps.baseURL,
    secret: deps.authSecret,
    mailer: deps.mailer,
    google: deps.google,
    oidc: deps.oidc,
  });

  registerErrorHandler(app, { bodyLimit });
  await registerSecurityHeaders(app, { isHttps: deps.baseURL.startsWith("https://") });
  registerSession(app, { auth, db: database.db });

  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    try {
      await database.ping();
      return { status: "ok", database: database.kind };
    } catch (error) {
      app.log.error({ err: error }, "database did not answer");
      return reply.status(503).send({ code: "internal", message: "The database is not answering." });
    }
  });

  const contextOf = contextFor(database.db);
  await app.register(authRoutes, {
    auth,
    baseURL: deps.baseURL,
    providers: { google: Boolean(deps.google), oidc: deps.oidc ? { label: deps.oidc.label } : null },
    signInLimits,
  });
  await app.register(userRoutes, {
    contextOf,
    registerAdminWithKey: (input) => registerAdmin(database.db, input, deps.adminSignUpKey),
    adminSignUpLimit: (request) =>
      consumeRateLimit(database.db, `${request.ip}|/admin-signup`, credentialRateLimit),
  });
  await app.register(ticketRoutes, { contextOf });
  await registerSpa(app, { clientDir: deps.clientDir });

  return app;
}
