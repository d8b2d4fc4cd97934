import { existsSync } from "node:fs";
import { isIP } from "node:net";
import { z } from "zod";
import { defaultAttachmentMaxBytes } from "#shared/attachments/attachment.schemas.ts";
import { describeIssues } from "#shared/errors.ts";

// The only reader of process.env: everything else receives config through buildApp(deps).
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// or postgresql:// URL")
    .optional(),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).optional(),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).optional(),
  DATABASE_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).optional(),
  /** The health gate's ping (decision 049): no answer within this long, and requests answer 503 at once. */
  DATABASE_PING_TIMEOUT_MS: z.coerce.number().int().min(100).optional(),
  DATABASE_STARTUP_TIMEOUT_MS: z.coerce.number().int().min(0).default(0),
  BASE_URL: z.url("BASE_URL must be a full URL such as http://localhost:3000").optional(),
  /** On SIGTERM: how long /readyz answers 503 before the server stops taking connections (load balancers notice). */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** On SIGTERM: how long requests under way may take to finish before their connections are cut. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /** Prometheus metrics: on this port (its own listener, HOST's address), or on the main port with METRICS_TOKEN. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Prometheus metrics at /metrics on the main port, for requests with `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** A request taking at least this many milliseconds is logged at warn (others only at debug). */
  SLOW_REQUEST_MS: z.coerce.number().int().min(0).default(1_000),
  /** How long a session cookie's owner is remembered without asking the database; 0 turns it off. */
  SESSION_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(30_000),
  BETTER_AUTH_SECRET: z.string().min(32, "BETTER_AUTH_SECRET must be at least 32 characters").optional(),
  AUTH_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
  AUTH_RATE_LIMIT_WINDOW: z.coerce.number().int().min(1).default(60),
  AUTH_ACCOUNT_LIMIT_MAX: z.coerce.number().int().min(1).default(20),
  AUTH_ACCOUNT_LIMIT_WINDOW: z.coerce.number().int().min(1).default(900),
  AUTH_SIGNUP_LIMIT_MAX: z.coerce.number().int().min(1).default(30),
  ADMIN_SIGNUP_KEY: z.string().min(12, "ADMIN_SIGNUP_KEY must be at least 12 characters").optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "SMTP_URL must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Helpdesk <helpdesk@localhost>"),
  MAIL_RETRY_MAX: z.coerce.number().int().min(1, "MAIL_RETRY_MAX must be at least 1").default(8),
  NOTIFICATION_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(0, "NOTIFICATION_RETENTION_DAYS must be 0 (keep forever) or more")
    .default(90),
  WEBHOOKS_ALLOW_PRIVATE: z
    .enum(["true", "false"], { error: "WEBHOOKS_ALLOW_PRIVATE must be true or false" })
    .default("false")
    .transform((value) => value === "true"),
  WEBHOOK_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(0, "WEBHOOK_RETENTION_DAYS must be 0 (keep forever) or more")
    .default(30),
  ATTACHMENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024, "ATTACHMENT_MAX_BYTES must be at least 1024 (bytes)")
    .default(defaultAttachmentMaxBytes),
  INBOUND_SMTP_PORT: z.coerce
    .number()
    .int()
    .min(1, "INBOUND_SMTP_PORT must be a port number (1-65535)")
    .max(65535, "INBOUND_SMTP_PORT must be a port number (1-65535)")
    .optional(),
  INBOUND_SMTP_HOST: z.string().min(1).default("127.0.0.1"),
  INBOUND_EMAIL_ADDRESS: z
    .email("INBOUND_EMAIL_ADDRESS must be an e-mail address such as helpdesk@example.org")
    .optional(),
  INBOUND_MAX_MESSAGE_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024, "INBOUND_MAX_MESSAGE_BYTES must be at least 65536 (bytes)")
    .default(15 * 1024 * 1024),
  INBOUND_UNKNOWN_SENDERS: z
    .enum(["bounce", "create-account"], { error: "INBOUND_UNKNOWN_SENDERS must be bounce or create-account" })
    .default("bounce"),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  OIDC_ISSUER: z.url("OIDC_ISSUER must be a URL").optional(),
  OIDC_DISCOVERY_URL: z.url("OIDC_DISCOVERY_URL must be a URL").optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_LABEL: z.string().min(1).default("Sign in with your organisation"),
  /**
   * Scopes asked for besides openid, email and profile, separated by spaces or commas: Okta's org
   * authorization server puts its groups claim in the ID token only for the `groups` scope (decision 082).
   */
  OIDC_SCOPES: z
    .string()
    .default("")
    .transform((text) => text.split(/[\s,]+/).filter(Boolean))
    .refine((scopes) => scopes.every((scope) => /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(scope)), {
      error: "OIDC_SCOPES must be scope names separated by spaces or commas",
    }),
  /** A Google/OIDC sign-in whose provider verified the e-mail links to the account with that address (decision 060). */
  SSO_ACCOUNT_LINKING: z
    .enum(["true", "false"], { error: "SSO_ACCOUNT_LINKING must be true or false" })
    .default("true")
    .transform((value) => value === "true"),
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((value, ctx) => {
      const trust = parseTrustProxy(value);
      if (trust === undefined) {
        ctx.addIssue({
          code: "custom",
          message:
            "TRUST_PROXY must be false, true, a number of proxy hops, or a comma-separated list of proxy addresses/CIDRs",
        });
        return z.NEVER;
      }
      return trust;
    }),
});

/**
 * Which proxies may tell us the client address, in the shape Fastify's `trustProxy` takes (it walks
 * X-Forwarded-For from the right with proxy-addr). `true` means one proxy hop, never "trust every hop":
 * trusting all of them would make the left-most value, which any client can write, the address.
 */
export type TrustProxy = false | number | string[];

const proxyAddressNames = new Set(["loopback", "linklocal", "uniquelocal"]);

const isProxyAddress = (entry: string) => {
  const [address = "", prefix, ...rest] = entry.split("/");
  if (rest.length > 0) return false;
  const version = isIP(address);
  if (prefix === undefined) return version !== 0 || proxyAddressNames.has(address);
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
  return version !== 0 && bits >= 0 && bits <= (version === 4 ? 32 : 128);
};

function parseTrustProxy(value: string): TrustProxy | undefined {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === "false") return false;
  if (trimmed === "true") return 1;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) === 0 ? false : Number(trimmed);
  const entries = trimmed
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.length > 0 && entries.every(isProxyAddress) ? entries : undefined;
}

export type Env = z.infer<typeof envSchema> & {
  BASE_URL: string;
  google?: { clientId: string; clientSecret: string };
  oidc?: {
    discoveryUrl: string;
    clientId: string;
    clientSecret: string;
    label: string;
    extraScopes: string[];
  };
  /** E-mail to ticket (decision 028), when INBOUND_SMTP_PORT is set. */
  inboundMail?: {
    host: string;
    port: number;
    address: string;
    maxMessageBytes: number;
    unknownSenders: "bounce" | "create-account";
    ownAddresses: string[];
  };
};

/** The address in "Name <address>" (MAIL_FROM's form), or the value itself. */
export const addressOf = (mailbox: string) =>
  (/<([^<>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox).trim().toLowerCase();

/**
 * Reads `file` (default .env in the working directory) into process.env when it exists, as the README
 * and .env.example promise. A variable already set in the real environment wins over the file.
 */
export function loadDotEnvFile(file = ".env"): boolean {
  if (!existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new Error(`Invalid configuration: ${describeIssues(parsed.error.issues)}`);
  }
  const env = parsed.data;
  const problems: string[] = [];
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
    problems.push("GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together");
  }
  const oidcDiscovery =
    env.OIDC_DISCOVERY_URL ??
    (env.OIDC_ISSUER ? `${env.OIDC_ISSUER.replace(/\/$/, "")}/.well-known/openid-configuration` : undefined);
  const oidcParts = [oidcDiscovery, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
  if (oidcParts.some(Boolean) && !oidcParts.every(Boolean)) {
    problems.push(
      "OIDC_ISSUER (or OIDC_DISCOVERY_URL), OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together",
    );
  }
  const mailFromAddress = addressOf(env.MAIL_FROM);
  const inboundAddress = (env.INBOUND_EMAIL_ADDRESS ?? mailFromAddress).toLowerCase();
  if (env.INBOUND_SMTP_PORT !== undefined && !z.email().safeParse(inboundAddress).success) {
    problems.push(
      "INBOUND_SMTP_PORT needs INBOUND_EMAIL_ADDRESS (or an address in MAIL_FROM) to receive mail for",
    );
  }
  if (problems.length > 0) throw new Error(`Invalid configuration: ${problems.join("; ")}`);
  const port = env.PORT === 0 ? 3000 : env.PORT;
  return {
    ...env,
    BASE_URL: (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, ""),
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET }
        : undefined,
    inboundMail:
      env.INBOUND_SMTP_PORT === undefined
        ? undefined
        : {
            host: env.INBOUND_SMTP_HOST,
            port: env.INBOUND_SMTP_PORT,
            address: inboundAddress,
            maxMessageBytes: env.INBOUND_MAX_MESSAGE_BYTES,
            unknownSenders: env.INBOUND_UNKNOWN_SENDERS,
            ownAddresses: [mailFromAddress],
          },
    oidc:
      oidcDiscovery && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
        ? {
            discoveryUrl: oidcDiscovery,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET,
            label: env.OIDC_LABEL,
            extraScopes: env.OIDC_SCOPES,
          }
        : undefined,
  };
}
