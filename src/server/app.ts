import { randomUUID } from "node:crypto";
import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { authRoutes } from "./auth/auth.routes.ts";
import { createAuth, type OidcConfig } from "./auth/auth.ts";
import type { Database } from "./db/client.ts";
import { startNotificationRetention } from "./features/notifications/notification-retention.ts";
import { notificationSettingsRoutes } from "./features/notifications/notification-settings.routes.ts";
import { unsubscribeByToken } from "./features/notifications/notification-settings.service.ts";
import { ticketRoutes } from "./features/tickets/ticket.routes.ts";
import { registerAdmin } from "./features/users/admin-registration.service.ts";
import { userRoutes } from "./features/users/user.routes.ts";
import { registerErrorHandler } from "./http/error-handler.ts";
import { consumeRateLimit } from "./http/rate-limit.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { contextFor, registerSession } from "./http/session.ts";
import { registerSpa } from "./http/spa.ts";
import { createMailDispatcher } from "./mail/mail-dispatcher.ts";
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
  /** Attempts before a queued mail is given up (MAIL_RETRY_MAX). */
  mailMaxAttempts?: number;
  /** Read notifications older than this many days are deleted; 0 keeps them (NOTIFICATION_RETENTION_DAYS). */
  notificationRetentionDays?: number;
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
  await app.register(notificationSettingsRoutes, {
    contextOf,
    unsubscribe: (token) => unsubscribeByToken(database.db, deps.authSecret, token),
  });
  // Sends the mail the write path queues (it calls mailDispatcher.wake() after commit) and retries.
  const mailDispatcher = createMailDispatcher({
    db: database.db,
    mailer: deps.mailer,
    log: app.log,
    maxAttempts: deps.mailMaxAttempts,
  });
  mailDispatcher.start();
  const stopRetention = startNotificationRetention({
    db: database.db,
    olderThanDays: deps.notificationRetentionDays ?? 90,
    log: app.log,
  });
  app.addHook("onClose", async () => {
    await Promise.all([mailDispatcher.stop(), stopRetention()]);
  });
  await registerSpa(app, { clientDir: deps.clientDir });

  return app;
}
