import { isIP } from "node:net";
import type { Db } from "#server/db/client.ts";
import { tooManyAttempts } from "#server/errors.ts";
import {
  clearAttempts,
  consumeRateLimit,
  countAttempt,
  giveBackAttempt,
  pruneAttempts,
  type RateRule,
} from "#server/rate-limit.ts";
import { type PasswordCheckGate, passwordChecksBusy } from "./password-check-gate.ts";

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

/** The endpoints that check or make a password hash: each goes through the password-check gate. */
const hashingEndpoints = new Set([
  "/sign-in/email",
  "/sign-up/email",
  "/reset-password",
  "/two-factor/enable",
  "/two-factor/disable",
]);

export interface AuthAttempt {
  method: string;
  /** The better-auth path, e.g. /sign-in/email. */
  endpoint: string;
  /** The client address Fastify resolved (TRUST_PROXY decides how). */
  ip: string;
  body: unknown;
}

/** Called once better-auth has answered, with its status, or with null when it never answered (it threw). */
export type SettleAttempt = (status: number | null) => Promise<void>;

export interface SignInLimits {
  /**
   * Before better-auth sees the attempt: takes its places (a sign-in's slot in its address's and its
   * account's allowance, a place among the password checks in flight), or throws 429 (with the wait) or
   * 503 when it must not be tried now. The answer's status settles what was taken (decision 054).
   */
  admit(attempt: AuthAttempt): Promise<SettleAttempt>;
}

const nothingToSettle: SettleAttempt = async () => {};

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

export function createSignInLimits(
  db: Db,
  rules: CredentialLimitRules,
  passwordChecks: PasswordCheckGate,
): SignInLimits {
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

  /** A slot in `key`'s allowance, taken atomically in the database so that every instance counts it. */
  const takeSlot = async (key: string, rule: RateRule) => {
    const { count, retryAfter, windowStart } = await countAttempt(db, key, rule.window);
    return { key, windowStart, retryAfter, isOver: count > rule.max };
  };
  type Slot = Awaited<ReturnType<typeof takeSlot>>;
  const giveBack = (slots: Array<Slot | null>) =>
    Promise.all(slots.map((slot) => (slot ? giveBackAttempt(db, slot.key, slot.windowStart) : null)));

  /**
   * A password sign-in takes its slots before the password is checked, so that N attempts at once are
   * counted as N before any is answered: of a burst, only as many as the allowance has left are checked.
   * A wrong password keeps its slots (that is the failure counted); a right one gives the address's back
   * and clears the account's failures; anything else (refused before the check, better-auth failing)
   * gives both back.
   */
  async function admitSignIn({ ip, body }: AuthAttempt): Promise<SettleAttempt> {
    await pruneNowAndThen();
    const email = emailOf(body);
    // A refused attempt checks nothing, so it keeps no slot: the count stays "failures plus checks under
    // way", and a flood refused at its address never touches the account it names.
    const address = await takeSlot(failedFrom(ip), rules.address);
    if (address.isOver) {
      await giveBack([address]);
      throw tooManyAttempts(address.retryAfter);
    }
    const account = email ? await takeSlot(failedFor(email), rules.account) : null;
    if (account?.isOver) {
      await giveBack([address, account]);
      throw tooManyAttempts(account.retryAfter);
    }
    const leave = passwordChecks.tryEnter();
    if (!leave) {
      await giveBack([address, account]);
      throw passwordChecksBusy();
    }
    return async (status) => {
      leave();
      if (status !== null && isFailedSignIn(status)) return;
      if (status === 200) {
        // The owner proved the password: failures a guesser left on the account no longer count against
        // them. The address keeps its failures, or one valid account would reset them for a guesser.
        await Promise.all([giveBack([address]), email ? clearAttempts(db, failedFor(email)) : null]);
      } else {
        await giveBack([address, account]);
      }
    };
  }

  /** Other credential endpoints count every attempt, before it is tried. */
  async function countOtherAttempt({ method, endpoint, ip, body }: AuthAttempt) {
    if (method !== "POST" && !endpoint.startsWith("/reset-password/")) return;
    const client = addressKey(ip);
    if (endpoint === "/sign-up/email") {
      await consumeRateLimit(db, `sign-up|address:${client}`, rules.signUp);
    } else if (endpoint === "/request-password-reset") {
      await consumeRateLimit(db, `password-reset-request|address:${client}`, rules.address);
      const email = emailOf(body);
      if (email) await consumeRateLimit(db, `password-reset-request|email:${email}`, resetRequestsPerEmail);
    } else if (endpoint === "/reset-password" || endpoint.startsWith("/reset-password/")) {
      await consumeRateLimit(db, `password-reset|address:${client}`, rules.address);
    }
  }

  return {
    async admit(attempt) {
      if (attempt.method === "POST" && attempt.endpoint === "/sign-in/email") return admitSignIn(attempt);
      if (attempt.method !== "POST" || !hashingEndpoints.has(attempt.endpoint)) {
        await countOtherAttempt(attempt);
        return nothingToSettle;
      }
      // Refused for being busy before it is counted: a server that is busy costs nobody an attempt.
      const leave = passwordChecks.tryEnter();
      if (!leave) throw passwordChecksBusy();
      try {
        await countOtherAttempt(attempt);
      } catch (error) {
        leave();
        throw error;
      }
      return async () => leave();
    },
  };
}
