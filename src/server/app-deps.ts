import type { FastifyServerOptions } from "fastify";
import type { RenderPage } from "#shared/page-rendering/server-rendered.ts";
import type { OidcConfig } from "./auth/auth.ts";
import type { PasswordCheckGate } from "./auth/password-check-gate.ts";
import type { Clock } from "./clock.ts";
import type { Database } from "./db/client.ts";
import type { TrustProxy } from "./env.ts";
import type { InboundMailListener } from "./features/inbound-mail/inbound-mail.server.ts";
import type { InboundMailSettings } from "./features/inbound-mail/inbound-mail.service.ts";
import type { Resolve } from "./features/webhooks/webhook-target.ts";
import type { DiskSpaceOptions } from "./http/disk-space-guard.ts";
import type { AppMetrics } from "./http/metrics.ts";
import type { InstanceLivenessOptions } from "./instances/instance-liveness.ts";
import type { JobRunner, JobRunnerOptions } from "./jobs/job-runner.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { RateRule } from "./rate-limit.ts";
import type { Bus } from "./realtime/bus.ts";

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
   * given up on after renderTimeoutMs (1.5 s).
   */
  pageRendering?: { renderPage?: RenderPage; timeoutMs?: number };
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
   * Ticket presence (decision 072): how long a page not heard from stays, how often that is looked at, and
   * how many presence requests a person may make to one instance per window (tests change them).
   */
  presence?: { ttlMs?: number; sweepMs?: number; rate?: { windowMs: number; max: number } };
  /**
   * How long a session cookie's owner is remembered without asking the database (SESSION_CACHE_TTL_MS,
   * 30 s by default; 0 turns the cache off). Every change to a session is announced and evicts at once
   * (session-cache.ts, decision 066).
   */
  sessionCacheTtlMs?: number;
  /**
   * How long the dashboard counters (a list's total, the dashboards) are remembered when no ticket changes
   * (decision 066): 5 s by default, 0 turns it off (the test app's default, whose factories write tickets
   * in SQL). Every ticket change the app makes empties it on every instance at once.
   */
  ticketReadCacheTtlMs?: number;
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
