import { existsSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { buildApp } from "./app.ts";
import type { AppDeps } from "./app-deps.ts";
import { createDatabase } from "./db/client.ts";
import { waitForDatabase } from "./db/wait-for-database.ts";
import { loadDotEnvFile, loadEnv } from "./env.ts";
import { listenForMetrics } from "./http/metrics.ts";
import { createMailer } from "./mail/mailer.ts";
import { projectRoot } from "./project-root.ts";
import { loadOrCreateSecret } from "./secrets.ts";

/** What the browser journeys' server (scripts/e2e-app.ts) sets; main.ts sets nothing. */
export interface StartOverrides {
  /** A clock the journeys move (src/server/test/clock.ts); the system clock otherwise. */
  clock?: AppDeps["clock"];
  /** The job timer's timing: the journeys run due jobs themselves. */
  jobs?: AppDeps["jobs"];
}

/**
 * Reads the configuration, opens and migrates the database, builds the app and listens; stops cleanly on
 * SIGINT/SIGTERM. main.ts calls it with nothing, so production always runs on the system clock.
 */
export async function startServer({ clock, jobs }: StartOverrides = {}) {
  // Where a start's time goes (logged once it listens): a restart after a crash is downtime (decision 050).
  const startup = startupPhases();
  const readDotEnv = loadDotEnvFile();
  const env = loadEnv();
  const database = createDatabase(
    env.DATABASE_URL
      ? {
          databaseUrl: env.DATABASE_URL,
          pool: {
            connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
            statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
            idleTimeoutMs: env.DATABASE_IDLE_TIMEOUT_MS,
            max: env.DATABASE_POOL_MAX,
            pingTimeoutMs: env.DATABASE_PING_TIMEOUT_MS,
          },
        }
      : { dataDir: env.DATA_DIR },
  );
  if (database.kind === "postgres") {
    await waitForDatabase(database, {
      log: (message) => console.warn(message),
      giveUpAfterMs: env.DATABASE_STARTUP_TIMEOUT_MS,
    }).catch((error: Error) => {
      console.error(error.message);
      process.exit(1);
    });
  } else {
    // PGlite opens on its first query: its WebAssembly, the data directory, recovery after a crash.
    await database.ping();
  }
  startup.mark("database");
  await database.migrate();
  startup.mark("migrations");

  const clientDir = path.join(projectRoot, "dist/client");
  const adminKey = loadOrCreateSecret(env.DATA_DIR, "admin-signup-key", env.ADMIN_SIGNUP_KEY);
  const app = await buildApp({
    database,
    baseURL: env.BASE_URL,
    authSecret: loadOrCreateSecret(env.DATA_DIR, "auth-secret", env.BETTER_AUTH_SECRET).value,
    clientDir: existsSync(clientDir) ? clientDir : null,
    trustProxy: env.TRUST_PROXY,
    logger: { level: env.LOG_LEVEL },
    slowRequestMs: env.SLOW_REQUEST_MS,
    sessionCacheTtlMs: env.SESSION_CACHE_TTL_MS,
    credentialRateLimit: { window: env.AUTH_RATE_LIMIT_WINDOW, max: env.AUTH_RATE_LIMIT_MAX },
    accountRateLimit: { window: env.AUTH_ACCOUNT_LIMIT_WINDOW, max: env.AUTH_ACCOUNT_LIMIT_MAX },
    signUpRateLimit: { window: env.AUTH_RATE_LIMIT_WINDOW, max: env.AUTH_SIGNUP_LIMIT_MAX },
    adminSignUpKey: adminKey.value,
    google: env.google,
    oidc: env.oidc,
    ssoAccountLinking: env.SSO_ACCOUNT_LINKING,
    mailMaxAttempts: env.MAIL_RETRY_MAX,
    clock,
    jobs,
    notificationRetentionDays: env.NOTIFICATION_RETENTION_DAYS,
    webhooks: { allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE, retentionDays: env.WEBHOOK_RETENTION_DAYS },
    attachmentMaxBytes: env.ATTACHMENT_MAX_BYTES,
    diskSpace: database.kind === "pglite" ? { dir: env.DATA_DIR } : undefined,
    inboundMail: env.inboundMail,
    metricsToken: env.METRICS_TOKEN,
    mailer: createMailer({
      smtpUrl: env.SMTP_URL,
      outboxDir: path.resolve(env.DATA_DIR, "outbox"),
      from: env.MAIL_FROM,
      log: (message) => app.log.info(message),
    }),
  });

  startup.mark("app");

  let metricsServer: Server | null = null;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received: draining (readiness 503), then shutting down`);
    app.drain();
    if (env.SHUTDOWN_DELAY_MS > 0) await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_DELAY_MS));
    // Stop taking connections, let the requests under way finish (cut after SHUTDOWN_TIMEOUT_MS), stop the
    // job timer after the runs under way (each job's work is transactional), then close the pool.
    let forced = false;
    const deadline = setTimeout(() => {
      forced = true;
      app.log.warn(`requests still under way after ${env.SHUTDOWN_TIMEOUT_MS} ms: closing their connections`);
      app.server.closeAllConnections();
    }, env.SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    try {
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      await app.close();
      await database.close();
    } catch (error) {
      app.log.error({ err: error }, "shutdown did not finish cleanly");
      process.exit(1);
    }
    clearTimeout(deadline);
    app.log.info(forced ? "stopped (some requests were cut off)" : "stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: env.PORT, host: env.HOST });
  startup.mark("listen");
  metricsServer =
    env.METRICS_PORT === undefined ? null : await listenForMetrics(app.metrics, env.METRICS_PORT, env.HOST);
  if (metricsServer) app.log.info(`Prometheus metrics at http://${env.HOST}:${env.METRICS_PORT}/metrics`);
  const where = env.DATABASE_URL ? "PostgreSQL" : `embedded PGlite in ${env.DATA_DIR}`;
  app.log.info(
    { startupMs: startup.phases },
    `Helpdesk is running at ${env.BASE_URL} (database: ${where}; started in ${startup.phases.total} ms)`,
  );
  if (readDotEnv) app.log.info("settings read from .env (variables set in the environment win)");
  console.log(`\n  Helpdesk is ready. Open ${env.BASE_URL}\n`);
  if (env.HOST === "0.0.0.0" || env.HOST === "::") {
    // Other machines can reach the server now, but sign-in works only on the address in BASE_URL.
    console.log(
      `  HOST=${env.HOST} accepts connections from other machines: BASE_URL must be the address they open` +
        ` (now ${env.BASE_URL}).\n`,
    );
  }
  if (adminKey.created) {
    // Printed once, on the start that generated it; it stays in DATA_DIR/admin-signup-key.
    console.log(
      `  First administrator: open ${env.BASE_URL}/admin-signup with the admin key ${adminKey.value}`,
    );
    console.log(
      `  (kept in ${path.resolve(env.DATA_DIR, "admin-signup-key")}; or run: npm run create-admin)\n`,
    );
  }
  return { app, database };
}

export interface StartupPhases {
  /** Node's own start and loading the server's code, until startServer was called. */
  process: number;
  /** Opening the database: PGlite's start and its recovery after a crash, or PostgreSQL's first answer. */
  database: number;
  /** Checking (and applying) migrations. */
  migrations: number;
  /** buildApp: plugins, routes, the heartbeat and the take-over of a dead instance's claims. */
  app: number;
  listen: number;
  total: number;
}

/** Milliseconds per phase of the start, counted from the process's start (performance.now()'s origin). */
function startupPhases() {
  const phases: StartupPhases = { process: 0, database: 0, migrations: 0, app: 0, listen: 0, total: 0 };
  let last = performance.now();
  phases.process = Math.round(last);
  return {
    phases,
    mark(phase: Exclude<keyof StartupPhases, "process" | "total">) {
      const now = performance.now();
      phases[phase] = Math.round(now - last);
      phases.total = Math.round(now);
      last = now;
    },
  };
}
