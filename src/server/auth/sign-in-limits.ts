import { isIP } from "node:net";
import type { Db } from "../db/client.ts";
import { tooManyAttempts } from "../errors.ts";
import {
  clearAttempts,
  consumeRateLimit,
  countAttempt,
  pruneAttempts,
  type RateRule,
  retryAfterIfLimited,
} from "../http/rate-limit.ts";

/** How the credential endpoints of /api/auth are limited (see docs/decisions/010-sign-in-limits.md). */
export interface CredentialLimitRules {
  /** Failed sign-ins per client address; also password-reset requests and resets per address. */
  address: RateRule;
  /** Failed sign-ins per account (its normalised e-mail), from any address. */
  account: RateRule;
  /** Sign-up attempts per client address, successful ones included. */
  signUp: RateRule;
}

/** Reset mails one address may be sent per hour, whoever asks: enough for a typo, too few to flood an inbox. */
const resetRequestsPerEmail: RateRule = { window: 60 * 60, max: 5 };

export interface AuthAttempt {
  method: string;
  /** The better-auth path, e.g. /sign-in/email. */
  endpoint: string;
  /** The client address Fastify resolved (TRUST_PROXY decides how). */
  ip: string;
  body: unknown;
}

export interface SignInLimits {
  /** Before better-auth sees the attempt: throws 429 (with the wait) when it must not be tried now. */
  beforeAttempt(attempt: AuthAttempt): Promise<void>;
  /** After better-auth answered: counts a failed sign-in; a successful one clears its account's failures. */
  afterAttempt(attempt: AuthAttempt, status: number): Promise<void>;
}

/** Wrong password, unknown e-mail (both 401) or a refused account (403). */
const isFailedSignIn = (status: number) => status === 401 || status === 403;

const emailOf = (body: unknown): string | null => {
  const email = typeof body === "object" && body !== null ? (body as { email?: unknown }).email : undefined;
  return typeof email === "string" && email.trim() !== "" ? email.trim().toLowerCase() : null;
};

/**
 * One key per client: an IPv4 address, an IPv4-mapped IPv6 address as IPv4, and an IPv6 address by
 * its /64 prefix, because one household or server usually holds a whole /64 and could otherwise
 * rotate through it.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (isIP(ip) !== 6) return ip;
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = ip.includes("::") && tail ? tail.split(":") : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(Math.max(0, missing)).fill("0"), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}

export function createSignInLimits(db: Db, rules: CredentialLimitRules): SignInLimits {
  const longestWindow = Math.max(
    rules.address.window,
    rules.account.window,
    rules.signUp.window,
    resetRequestsPerEmail.window,
  );
  let lastPruned = 0;
  // Counters of every rule share one table; old rows are dropped now and then, not on every request.
  const pruneNowAndThen = async () => {
    if (Date.now() - lastPruned < 60_000) return;
    lastPruned = Date.now();
    await pruneAttempts(db, longestWindow);
  };

  const failedFrom = (ip: string) => `sign-in-failures|address:${addressKey(ip)}`;
  const failedFor = (email: string) => `sign-in-failures|account:${email}`;

  return {
    async beforeAttempt({ method, endpoint, ip, body }) {
      if (method !== "POST" && !endpoint.startsWith("/reset-password/")) return;
      const client = addressKey(ip);
      if (endpoint === "/sign-in/email") {
        await pruneNowAndThen();
        const email = emailOf(body);
        const waits = await Promise.all([
          retryAfterIfLimited(db, failedFrom(ip), rules.address),
          email ? retryAfterIfLimited(db, failedFor(email), rules.account) : null,
        ]);
        const wait = Math.max(0, ...waits.map((seconds) => seconds ?? 0));
        if (wait > 0) throw tooManyAttempts(wait);
      } else if (endpoint === "/sign-up/email") {
        await consumeRateLimit(db, `sign-up|address:${client}`, rules.signUp);
      } else if (endpoint === "/request-password-reset") {
        await consumeRateLimit(db, `password-reset-request|address:${client}`, rules.address);
        const email = emailOf(body);
        if (email) await consumeRateLimit(db, `password-reset-request|email:${email}`, resetRequestsPerEmail);
      } else if (endpoint === "/reset-password" || endpoint.startsWith("/reset-password/")) {
        await consumeRateLimit(db, `password-reset|address:${client}`, rules.address);
      }
    },

    async afterAttempt({ method, endpoint, ip, body }, status) {
      if (method !== "POST" || endpoint !== "/sign-in/email") return;
      const email = emailOf(body);
      if (isFailedSignIn(status)) {
        // Counted only: going over the limit is refused on the next attempt, this one is already answered.
        await countAttempt(db, failedFrom(ip), rules.address.window);
        if (email) await countAttempt(db, failedFor(email), rules.account.window);
      } else if (status === 200 && email) {
        // The owner proved the password: failures a guesser left on the account no longer count against them.
        await clearAttempts(db, failedFor(email));
      }
    },
  };
}
