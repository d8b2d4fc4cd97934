import { randomUUID } from "node:crypto";
import Fastify, { type FastifyServerOptions, LogController } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { defaultAttachmentMaxBytes } from "#shared/attachments/attachment.schemas.ts";
import type { DrawPage } from "#shared/page-rendering/server-rendered.ts";
import { authRoutes } from "./auth/auth.routes.ts";
import { createAuth, type OidcConfig } from "./auth/auth.ts";
import { createPasswordCheckGate, type PasswordCheckGate } from "./auth/password-check-gate.ts";
import { createSignInLimits } from "./auth/sign-in-limits.ts";
import { type Clock, systemClock } from "./clock.ts";
import { type Database, pingWithin } from "./db/client.ts";
import type { TrustProxy } from "./env.ts";
import { databaseUnavailable } from "./errors.ts";
import { createDispatcher } from "./events/dispatcher.ts";
import { apiTokenRoutes } from "./features/api-tokens/api-token.routes.ts";
import { articleRoutes } from "./features/articles/article.routes.ts";
import { attachmentRoutes } from "./features/attachments/attachment.routes.ts";
import { attachmentCleanupJob } from "./features/attachments/attachment-cleanup.ts";
import { cannedResponseRoutes } from "./features/canned-responses/canned-response.routes.ts";
import { customFieldRoutes } from "./features/custom-fields/custom-field.routes.ts";
import { departmentRoutes } from "./features/departments/department.routes.ts";
import { csvExportRoutes } from "./features/exports/csv-export.routes.ts";
import { followerRoutes } from "./features/followers/follower.routes.ts";
import {
  createInboundMailListener,
  type InboundMailListener,
} from "./features/inbound-mail/inbound-mail.server.ts";
import type { InboundMailSettings } from "./features/inbound-mail/inbound-mail.service.ts";
import { mentionRoutes } from "./features/mentions/mention.routes.ts";
import { notificationRoutes } from "./features/notifications/notification.routes.ts";
import { notificationRetentionJob } from "./features/notifications/notification-retention.ts";
import { notificationSettingsRoutes } from "./features/notifications/notification-settings.routes.ts";
import { unsubscribeByToken } from "./features/notifications/notification-settings.service.ts";
import { createStreamHub } from "./features/notifications/stream-hub.ts";
import { reportRoutes } from "./features/reports/report.routes.ts";
import { searchRoutes } from "./features/search/search.routes.ts";
import { autoCloseJob } from "./features/service-levels/auto-close.ts";
import { slaEscalationJob } from "./features/service-levels/sla-escalation.ts";
import { sessionRoutes } from "./features/sessions/session.routes.ts";
import { settingsRoutes } from "./features/settings/settings.routes.ts";
import { ticketRoutes } from "./features/tickets/ticket.routes.ts";
import { registerAdmin } from "./features/users/admin-registration.service.ts";
import { userRoutes } from "./features/users/user.routes.ts";
import { userManagementRoutes } from "./features/users/user-management.routes.ts";
import { webhookRoutes } from "./features/webhooks/webhook.routes.ts";
import {
  createWebhookSender,
  webhookDeliveryJob,
  webhookRetentionJob,
} from "./features/webhooks/webhook-sender.ts";
import type { Resolve } from "./features/webhooks/webhook-target.ts";
import { registerCompression } from "./http/compression.ts";
import { type DiskSpaceOptions, freeBytesOf, registerDiskSpaceGuard } from "./http/disk-space-guard.ts";
import { answerFrameworkError, registerErrorHandler } from "./http/error-handler.ts";
import {
  type AppMetrics,
  createMetrics,
  registerMetricsRoute,
  registerRequestMetrics,
} from "./http/metrics.ts";
import { registerOpenApi } from "./http/openapi.ts";
import { registerSameOriginCheck, registerWrongAddressPage } from "./http/origins.ts";
import { consumeRateLimit, type RateRule } from "./http/rate-limit.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { contextFor, registerSession } from "./http/session.ts";
import { createSessionCache, listenForSessionChanges } from "./http/session-cache.ts";
import { registerSpa } from "./http/spa.ts";
import { createInstanceLiveness, type InstanceLivenessOptions } from "./instances/instance-liveness.ts";
import { createJobRunner, type Job, type JobRunner, type JobRunnerOptions } from "./jobs/job-runner.ts";
import { createMailDispatcher } from "./mail/mail-dispatcher.ts";
import type { Mailer } from "./mail/mailer.ts";
import { type Bus, createInProcessBus } from "./realtime/bus.ts";
import { createPgBus } from "./realtime/pg-bus.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The scheduled-job runner: tests call jobs.tick() to run what is due now. */
    jobs: JobRunner;
    /** The inbound SMTP listener (decision 028), when INBOUND_SMTP_PORT is set; null otherwise. */
    inboundMail: InboundMailListener | null;
    /** Shutting down: /readyz answers 503 from now on and the live-push streams end with a retry hint. */
    drain(): void;
    /** The Prometheus registry (start-server serves it on METRICS_PORT when set). */
    metrics: AppMetrics;
  }
}

export interface AppDeps {
  database: Database;
  baseURL: string;
  authSecret: string;
  /** Folder of the built client (dist/client); null serves the API alone. */
  clientDir: string | null;
  /**
   * The signed-in first screens drawn on the server (decision 052): by default with the renderer the build
   * wrote beside the client (dist/ssr/ssr.js), when there is one (tests give the one from the sources),
   * given up on after drawTimeoutMs (1.5 s).
   */
  pageDrawing?: { drawPage?: DrawPage; timeoutMs?: number };
  logger?: FastifyServerOptions["logger"];
  /**
   * A request that takes at least this long is logged (warn) with its method, route, status and time
   * (SLOW_REQUEST_MS, 1 s by default). Other requests are logged only at LOG_LEVEL=debug, one line each.
   */
  slowRequestMs?: number;
  /** Which proxies may name the client in X-Forwarded-For: a hop count or addresses/CIDRs (TRUST_PROXY). */
  trustProxy?: TrustProxy;
  /** Failed sign-ins, password-reset attempts and admin sign-ups per client address per window. */
  credentialRateLimit?: RateRule;
  /** Failed sign-ins per account per window, from any address. */
  accountRateLimit?: RateRule;
  /** Sign-ups per client address per window. */
  signUpRateLimit?: RateRule;
  /**
   * Requests that check or make a password hash let in at once by this instance (decision 054); tests
   * hold its places to see the refusal.
   */
  passwordChecks?: PasswordCheckGate;
  /** Requests per personal API token per window (600 a minute by default). */
  apiTokenRateLimit?: RateRule;
  bodyLimit?: number;
  mailer: Mailer;
  /** The key /admin-signup requires (ADMIN_SIGNUP_KEY, or generated into DATA_DIR on first start). */
  adminSignUpKey: string;
  google?: { clientId: string; clientSecret: string };
  oidc?: OidcConfig;
  /** A Google/OIDC sign-in with a verified e-mail links to the account with that address (SSO_ACCOUNT_LINKING). */
  ssoAccountLinking?: boolean;
  /** Push between app instances; by default in-process (PGlite) or LISTEN/NOTIFY (PostgreSQL). */
  bus?: Bus;
  /** Live streams: heartbeat and session-expiry sweep intervals (tests shorten them). */
  streams?: { heartbeatMs?: number; sessionSweepMs?: number };
  /**
   * How long a session cookie's owner is remembered without asking the database (SESSION_CACHE_TTL_MS,
   * 5 s by default; 0 turns the cache off). Sign-out, deactivation and role changes evict at once.
   */
  sessionCacheTtlMs?: number;
  /** Attempts before a queued mail is given up (MAIL_RETRY_MAX). */
  mailMaxAttempts?: number;
  /** Read notifications older than this many days are deleted; 0 keeps them (NOTIFICATION_RETENTION_DAYS). */
  notificationRetentionDays?: number;
  /**
   * Webhooks (decision 029): whether loopback and private targets are allowed (WEBHOOKS_ALLOW_PRIVATE),
   * how long finished deliveries are kept (WEBHOOK_RETENTION_DAYS, 30; 0 keeps them), and (tests) the
   * resolver the save-time check uses and one attempt's timeout.
   */
  webhooks?: { allowPrivate?: boolean; retentionDays?: number; resolve?: Resolve; timeoutMs?: number };
  /** Largest attachment in bytes (ATTACHMENT_MAX_BYTES); 10 MB by default. */
  attachmentMaxBytes?: number;
  /** Prometheus metrics at /metrics on this port for `Authorization: Bearer <token>`; 404 without a token. */
  metricsToken?: string;
  /** Tests only: a controllable clock for services and jobs. Production leaves it out (the system clock). */
  clock?: Clock;
  /** The scheduled-job runner's timing (tests shorten it or set a far-off first tick to drive it by hand). */
  jobs?: Pick<JobRunnerOptions, "tickMs" | "firstTickMs" | "instanceId">;
  /** The heartbeat's timing (decision 041): every 2 s, dead after 10 s without one. */
  liveness?: Pick<InstanceLivenessOptions, "heartbeatMs" | "deadAfterMs">;
  /**
   * The embedded database's folder (DATA_DIR): changes are refused with 507 while its disk has less than
   * the reserve free (http/disk-space-guard.ts). Unset for PostgreSQL, whose disk is the database server's.
   */
  diskSpace?: DiskSpaceOptions;
  /** E-mail to ticket (INBOUND_SMTP_*, decision 028): listens once the app is ready; off when absent. */
  inboundMail?: InboundMailSettings & { host: string; port: number };
}

export const defaultBodyLimit = 64 * 1024;
/** Load balancers wait about this long for /readyz; a stalled database must not keep them waiting longer. */
const readinessTimeoutMs = 1_000;

/**
 * Fastify ignores a bare hop count (it trusts no hop then), so a count becomes "trust the first n
 * hops counted from our socket": the entry just left of them in X-Forwarded-For is the client.
 */
const toFastifyTrustProxy = (trust: TrustProxy) =>
  typeof trust === "number" ? (_address: string, hop: number) => hop < trust : trust;

const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1);

/**
 * zod's compilers for every route (fastify-type-provider-zod). Given to Fastify() rather than set
 * afterwards, Fastify never loads its default ones (Ajv and fast-json-stringify): a tenth to a third of a
 * second of every start, a restart after a crash included. (Fastify types these factories for Ajv's
 * schemas; the routes' schemas are zod's.)
 */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"];

/** Wires everything. main.ts calls it with the configuration; tests call it with a test database. */
export async function buildApp(deps: AppDeps) {
  const bodyLimit = deps.bodyLimit ?? defaultBodyLimit;
  const app = Fastify({
    logger: deps.logger ?? false,
    // Fastify's two info lines per request cost more CPU than a list query (decision 039): one line at the
    // end instead, at debug level, and at warn for a slow request. Failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    trustProxy: toFastifyTrustProxy(deps.trustProxy ?? false),
    genReqId: (request) => {
      const incoming = request.headers["x-request-id"];
      return typeof incoming === "string" && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    frameworkErrors: answerFrameworkError,
    schemaController: { compilersFactory: zodCompilers },
  });
  let draining = false;
  let openStreams = () => 0;
  const { diskSpace } = deps;
  const metrics = createMetrics({
    database: deps.database,
    openStreams: () => openStreams(),
    dataDirFreeBytes: diskSpace && (() => (diskSpace.freeBytes ?? freeBytesOf)(diskSpace.dir)),
  });
  app.decorate("metrics", metrics);
  registerRequestMetrics(app, metrics);
  const slowRequestMs = deps.slowRequestMs ?? 1_000;
  const logsEachRequest = app.log.level === "debug" || app.log.level === "trace";
  app.addHook("onResponse", async (request, reply) => {
    const responseTime = reply.elapsedTime;
    const slow = responseTime >= slowRequestMs;
    if (!slow && !logsEachRequest) return;
    const facts = {
      req: { method: request.method, url: request.url, remoteAddress: request.ip },
      res: { statusCode: reply.statusCode },
      responseTime,
    };
    if (slow) request.log.warn(facts, "slow request");
    else request.log.debug(facts, "request completed");
  });
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
    // Shutting down: a kept-alive connection would hold the server open after its last answer.
    if (draining) reply.header("connection", "close");
    // API answers are personal and change at any moment: no browser or proxy cache may keep one.
    // (An attachment download sets its own: private and immutable, its bytes never change.)
    if (request.url.startsWith("/api/") && !reply.hasHeader("cache-control"))
      reply.header("cache-control", "no-store");
  });

  const { database } = deps;
  const { health } = database;
  if (health) {
    health.start();
    // One line when the gate closes and one when it opens; the requests refused meanwhile log nothing more.
    const stopLogging = health.onChange(({ available, reason, unavailableForMs }) => {
      if (!available) {
        app.log.warn(
          `${database.location} is not answering (${reason}): requests that need it answer 503 until it does`,
        );
      } else {
        app.log.info(
          `${database.location} is answering again after ${((unavailableForMs ?? 0) / 1000).toFixed(1)} s`,
        );
      }
    });
    app.addHook("onClose", async () => stopLogging());
  }
  /** False at once while the health gate is closed; otherwise whether a ping through the pool answers. */
  const isDatabaseAnswering = () =>
    health && !health.isAvailable()
      ? Promise.resolve(false)
      : pingWithin(database, readinessTimeoutMs).then(
          () => true,
          () => false,
        );
  const credentialRateLimit = deps.credentialRateLimit ?? { window: 60, max: 10 };
  const signInLimits = createSignInLimits(
    database.db,
    {
      address: credentialRateLimit,
      account: deps.accountRateLimit ?? { window: 900, max: 20 },
      signUp: deps.signUpRateLimit ?? { window: 60, max: 30 },
    },
    deps.passwordChecks ?? createPasswordCheckGate(),
  );
  const auth = createAuth({
    db: database.db,
    baseURL: deps.baseURL,
    secret: deps.authSecret,
    mailer: deps.mailer,
    google: deps.google,
    oidc: deps.oidc,
    ssoAccountLinking: deps.ssoAccountLinking,
    // Called after commit, long after `dispatcher` below exists.
    onSessionDeleted: (userId) => dispatcher.dispatch([{ kind: "session-ended", userId }]),
  });

  const logError = (err: unknown, message: string) => app.log.error({ err }, message);
  const bus =
    deps.bus ??
    (database.url
      ? await createPgBus({ connectionString: database.url, db: database.db, logError, health })
      : createInProcessBus());
  // This instance's heartbeat: the work an instance that stopped beating had claimed (queued mail, webhook
  // deliveries, job leases, inbound messages) is given back within seconds, to be done by the others or by
  // this instance after a restart (docs/decisions/041-instance-liveness.md).
  let wakeJobs = () => {};
  const liveness = createInstanceLiveness({
    db: database.db,
    id: deps.jobs?.instanceId,
    log: app.log,
    clock: deps.clock,
    // Embedded PGlite: one process per data directory, so any other instance in the table is dead.
    exclusive: database.kind === "pglite",
    ...deps.liveness,
    onClaimsReleased: (released) => {
      if (released.mails > 0) mailDispatcher.wake();
      if (released.webhookDeliveries > 0) webhookSender.wake();
      if (released.jobs > 0) wakeJobs();
    },
    onAlive: () => {
      mailDispatcher.wake();
      webhookSender.wake();
    },
  });
  await liveness.start();
  // Sends the mail the write path queues (woken after each commit that queued some) and retries.
  const mailDispatcher = createMailDispatcher({
    db: database.db,
    mailer: deps.mailer,
    log: app.log,
    maxAttempts: deps.mailMaxAttempts,
    instance: liveness,
  });
  mailDispatcher.start();
  app.addHook("onClose", () => mailDispatcher.stop());
  const clock = deps.clock ?? systemClock;
  // Sends the webhook deliveries the write path queues, off the request path (decision 029).
  const webhookPolicy = {
    allowPrivate: deps.webhooks?.allowPrivate ?? false,
    resolve: deps.webhooks?.resolve,
  };
  const webhookSender = createWebhookSender({
    db: database.db,
    allowPrivate: webhookPolicy.allowPrivate,
    log: app.log,
    clock,
    timeoutMs: deps.webhooks?.timeoutMs,
    instance: liveness,
  });
  app.addHook("onClose", () => webhookSender.stop());
  const sessionCache = createSessionCache({ ttlMs: deps.sessionCacheTtlMs ?? 5_000, max: 20_000 });
  const stopSessionListening = listenForSessionChanges(bus, sessionCache);
  app.addHook("onClose", async () => stopSessionListening());
  const dispatcher = createDispatcher({
    bus,
    logError,
    onSessionEnded: (userId) => sessionCache.evictUser(userId),
    mail: {
      baseURL: deps.baseURL,
      secret: deps.authSecret,
      replyDomain: deps.inboundMail ? domainOf(deps.inboundMail.address) : undefined,
      wake: () => mailDispatcher.wake(),
    },
    webhooks: webhookSender,
  });
  const hub = createStreamHub({ db: database.db, bus, logError, ...deps.streams });
  openStreams = () => hub.size;
  app.decorate("drain", () => {
    draining = true;
    // The streams would not end by themselves: closing them now sends their browsers to another instance.
    hub.close();
  });
  // Open streams would hold the server open: finish deliveries under way, end the streams, then stop listening.
  app.addHook("preClose", async () => {
    await hub.settled();
    hub.close();
  });
  app.addHook("onClose", () => bus.close());

  registerErrorHandler(app, {
    bodyLimit,
    isDatabaseMarkedUnavailable: () => health?.isAvailable() === false,
  });
  await registerSecurityHeaders(app, { isHttps: deps.baseURL.startsWith("https://") });
  registerSameOriginCheck(app, { baseURL: deps.baseURL });
  if (diskSpace) registerDiskSpaceGuard(app, diskSpace);
  registerWrongAddressPage(app, { baseURL: deps.baseURL });
  await registerCompression(app);
  registerSession(app, {
    auth,
    db: database.db,
    dispatcher,
    clock,
    sessionCache,
    tokenRateLimit: deps.apiTokenRateLimit ?? { window: 60, max: 600 },
    isDatabaseAnswering,
  });

  // Before every route: the OpenAPI document (/api/openapi.json, /api/docs) collects them as they are added.
  await registerOpenApi(app);

  app.get("/healthz", async () => ({ status: "ok" }));
  registerMetricsRoute(app, metrics, deps.metricsToken);
  app.get("/readyz", async (_request, reply) => {
    // Shutting down: the load balancer takes this instance out while the requests under way finish.
    if (draining) return reply.status(503).send({ status: "draining" });
    // The gate's warning said it once; a balancer asking every few seconds needs no line each time.
    if (health && !health.isAvailable()) throw databaseUnavailable();
    try {
      await pingWithin(database, readinessTimeoutMs);
      return { status: "ok", database: database.kind };
    } catch (error) {
      if (health?.isAvailable() !== false) app.log.warn({ err: error }, "database did not answer");
      throw databaseUnavailable();
    }
  });

  const contextOf = contextFor(database.db, dispatcher, clock);
  const authProviders = { google: Boolean(deps.google), oidc: deps.oidc ? { label: deps.oidc.label } : null };
  await app.register(authRoutes, {
    auth,
    baseURL: deps.baseURL,
    providers: authProviders,
    onSignedOut: (userId: string) => dispatcher.dispatch([{ kind: "session-ended", userId }]),
    signInLimits,
    isDatabaseAnswering,
  });
  await app.register(userRoutes, {
    contextOf,
    registerAdminWithKey: (input) => registerAdmin(database.db, input, deps.adminSignUpKey),
    adminSignUpLimit: (request) =>
      consumeRateLimit(database.db, `${request.ip}|/admin-signup`, credentialRateLimit),
  });
  await app.register(ticketRoutes, { contextOf });
  await app.register(csvExportRoutes, { contextOf });
  await app.register(searchRoutes, { contextOf });
  await app.register(followerRoutes, { contextOf });
  await app.register(mentionRoutes, { contextOf });
  await app.register(cannedResponseRoutes, { contextOf });
  await app.register(articleRoutes, { contextOf });
  await app.register(apiTokenRoutes, { contextOf });
  await app.register(sessionRoutes, { contextOf });
  await app.register(reportRoutes, { contextOf });
  await app.register(settingsRoutes, { contextOf });
  await app.register(departmentRoutes, { contextOf });
  await app.register(customFieldRoutes, { contextOf });
  await app.register(notificationRoutes, { contextOf, hub });
  await app.register(attachmentRoutes, {
    contextOf,
    limits: { maxBytes: deps.attachmentMaxBytes ?? defaultAttachmentMaxBytes },
  });
  await app.register(notificationSettingsRoutes, {
    contextOf,
    unsubscribe: (token) => unsubscribeByToken(database.db, deps.authSecret, token),
  });
  await app.register(userManagementRoutes, { contextOf, mailer: deps.mailer, baseURL: deps.baseURL });
  await app.register(webhookRoutes, {
    contextOf,
    policy: webhookPolicy,
    wakeSender: () => webhookSender.wake(),
  });
  await registerSpa(app, { clientDir: deps.clientDir, pageDrawing: deps.pageDrawing, authProviders });

  // Scheduled work, at most one instance at a time per job (docs/decisions/018-scheduled-jobs.md).
  const jobs = createJobRunner({
    db: database.db,
    log: app.log,
    clock,
    dispatcher,
    onRun: metrics.jobRun,
    ...deps.jobs,
    instanceId: liveness.id,
    isAlive: liveness.isAlive,
  });
  wakeJobs = () => void jobs.tick();
  const scheduled: Array<Job | null> = [
    notificationRetentionJob({ olderThanDays: deps.notificationRetentionDays ?? 90 }),
    attachmentCleanupJob(),
    slaEscalationJob(),
    autoCloseJob(),
    webhookDeliveryJob(webhookSender),
    webhookRetentionJob({ olderThanDays: deps.webhooks?.retentionDays ?? 30 }),
  ];
  for (const job of scheduled) if (job) jobs.register(job);
  app.decorate("jobs", jobs);

  const inboundMail = deps.inboundMail
    ? await createInboundMailListener({
        db: database.db,
        dispatcher,
        clock,
        secret: deps.authSecret,
        baseURL: deps.baseURL,
        attachmentMaxBytes: deps.attachmentMaxBytes ?? defaultAttachmentMaxBytes,
        settings: deps.inboundMail,
        host: deps.inboundMail.host,
        port: deps.inboundMail.port,
        wakeMail: () => mailDispatcher.wake(),
        instanceId: liveness.id,
        log: {
          info: (data, message) => app.log.info(data, message),
          warn: (data, message) => app.log.warn(data, message),
        },
      })
    : null;
  app.decorate("inboundMail", inboundMail);
  if (inboundMail) {
    app.addHook("onReady", async () => {
      await inboundMail.listen();
      app.log.info(`Inbound mail: listening for SMTP on ${deps.inboundMail!.host}:${inboundMail.port()}`);
    });
    // Before the database and the mail dispatcher stop: a message under way finishes first.
    app.addHook("preClose", () => inboundMail.close());
  }
  app.addHook("onReady", async () => jobs.start());
  app.addHook("onClose", () => jobs.stop());
  // Last: once the work under way has finished, this instance's heartbeat row goes (it held no claims).
  app.addHook("onClose", async () => {
    await Promise.all([mailDispatcher.stop(), webhookSender.stop(), jobs.stop()]);
    await liveness.stop();
  });

  return app;
}
