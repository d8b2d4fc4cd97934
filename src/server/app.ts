import { randomUUID } from "node:crypto";
import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { authRoutes } from "./auth/auth.routes.ts";
import { createAuth, type OidcConfig } from "./auth/auth.ts";
import type { Database } from "./db/client.ts";
import { ticketRoutes } from "./features/tickets/ticket.routes.ts";
import { registerAdmin } from "./features/users/admin-registration.service.ts";
import { userRoutes } from "./features/users/user.routes.ts";
import { userManagementRoutes } from "./features/users/user-management.routes.ts";
import { registerErrorHandler } from "./http/error-handler.ts";
import { consumeRateLimit } from "./http/rate-limit.ts";
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
  trustProxy?: boolean;
  /** Attempts per window on sign-in, sign-up and password endpoints, per client address. */
  credentialRateLimit?: { window: number; max: number };
  bodyLimit?: number;
  mailer: Mailer;
  /** The key /admin-signup requires (ADMIN_SIGNUP_KEY, or generated into DATA_DIR on first start). */
  adminSignUpKey: string;
  google?: { clientId: string; clientSecret: string };
  oidc?: OidcConfig;
}

export const defaultBodyLimit = 64 * 1024;

/** Wires everything. main.ts calls it with the configuration; tests call it with a test database. */
export async function buildApp(deps: AppDeps) {
  const bodyLimit = deps.bodyLimit ?? defaultBodyLimit;
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit,
    trustProxy: deps.trustProxy ?? false,
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
  const auth = createAuth({
    db: database.db,
    baseURL: deps.baseURL,
    secret: deps.authSecret,
    mailer: deps.mailer,
    credentialRateLimit,
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
  });
  await app.register(userRoutes, {
    contextOf,
    registerAdminWithKey: (input) => registerAdmin(database.db, input, deps.adminSignUpKey),
    adminSignUpLimit: (request) =>
      consumeRateLimit(database.db, `${request.ip}|/admin-signup`, credentialRateLimit),
  });
  await app.register(ticketRoutes, { contextOf });
  await app.register(userManagementRoutes, { contextOf, mailer: deps.mailer, baseURL: deps.baseURL });
  await registerSpa(app, { clientDir: deps.clientDir });

  return app;
}
