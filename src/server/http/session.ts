import type { FastifyInstance, FastifyRequest } from "fastify";
import { type Clock, systemClock } from "#server/clock.ts";
import type { ServiceContext, TicketAutomation } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { AppError, databaseUnavailable, forbidden, unauthenticated } from "#server/errors.ts";
import type { Dispatcher } from "#server/events/dispatcher.ts";
import { endSessionsOf } from "#server/events/end-sessions.ts";
import type { TicketReadCache } from "#server/events/ticket-read-cache.ts";
import { authenticateToken } from "#server/features/api-tokens/api-token.service.ts";
import { isTwoFactorPending } from "#server/features/two-factor/two-factor.service.ts";
import type { RateRule } from "#server/rate-limit.ts";
import type { ApiTokenScope } from "#shared/api-tokens/api-token.schemas.ts";
import type { Actor } from "#shared/permissions.ts";
import { roles } from "#shared/users/roles.ts";
import { setUpTwoFactorFirst } from "#shared/users/two-factor.ts";
import { setRateLimitHeaders } from "./rate-limit-headers.ts";
import type { SessionCache } from "./session-cache.ts";

const bearerPrefix = /^bearer\s+/i;

/** The credential of an `Authorization: Bearer …` header, or null when the request has none. */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return header !== undefined && bearerPrefix.test(header) ? header.replace(bearerPrefix, "").trim() : null;
}

const sessionCookie = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/;

/** The session cookie's value (the signed token), or null when the request carries none. */
export function sessionTokenOf(cookie: string | undefined): string | null {
  if (!cookie) return null;
  return sessionCookie.exec(cookie)?.[1] ?? null;
}

const readMethods = new Set(["GET", "HEAD"]);

/**
 * What a person who must set up two-factor sign-in may still reach (besides /api/auth/*, where setting it up
 * happens): who am I, so the app can send them to the setup.
 */
const reachableBeforeTwoFactor = (request: FastifyRequest) =>
  readMethods.has(request.method) && request.url.split("?")[0] === "/api/me";

const refuseUntilTwoFactor = (request: FastifyRequest, mustSetUp: boolean) => {
  if (mustSetUp && !reachableBeforeTwoFactor(request)) throw forbidden(setUpTwoFactorFirst);
};

declare module "fastify" {
  interface FastifyRequest {
    actor: Actor | null;
    /** The signed-in session's id: a live stream closes when this session ends. */
    sessionId: string | null;
    /** The API token the request came with (Authorization: Bearer hd_…), null for a cookie or nobody. */
    apiToken: { id: string; scope: ApiTokenScope } | null;
  }
}

export function toWebHeaders(raw: FastifyRequest["headers"]): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : String(value));
  }
  return headers;
}

/**
 * better-auth's session lookup (auth/auth.ts's `auth.api.getSession`), handed in by the app so that this
 * folder needs nothing from auth/: the session and its user for these request headers, or null.
 */
export type GetSession = (headers: Headers) => Promise<{
  user: { id: string; role?: unknown; status?: unknown; twoFactorEnabled?: boolean | null };
  session: { id: string; expiresAt: Date | string | number };
} | null>;

const isRole = (value: unknown): value is Actor["role"] & string => roles.includes(value as never);

/**
 * Resolves the session cookie into request.actor for every /api route outside /api/auth, before the body
 * is validated, so that routes closed to a role refuse it (401/403) before telling it what was wrong with
 * the body (400). A request with `Authorization: Bearer` is a personal API token's (docs/decisions/024):
 * its cookie, if any, is ignored, and a token that does not hold is refused with 401 rather than treated
 * as anonymous.
 */
export function registerSession(
  app: FastifyInstance,
  {
    getSession,
    db,
    isDatabaseAnswering,
    dispatcher,
    clock = systemClock,
    tokenRateLimit,
    sessionCache,
  }: {
    getSession: GetSession;
    db: Db;
    isDatabaseAnswering: () => Promise<boolean>;
    dispatcher?: Dispatcher;
    clock?: Clock;
    tokenRateLimit: RateRule;
    /** Which session cookie is whom, for a few seconds (decision 039); absent, every request asks better-auth. */
    sessionCache?: SessionCache;
  },
) {
  app.decorateRequest("actor", null);
  app.decorateRequest("sessionId", null);
  app.decorateRequest("apiToken", null);
  app.addHook("preValidation", async (request, reply) => {
    if (!request.url.startsWith("/api/") || request.url.startsWith("/api/auth/")) return;
    const bearer = bearerOf(request);
    if (bearer !== null) {
      const identity = await authenticateToken(db, bearer, {
        now: clock.now(),
        rateLimit: tokenRateLimit,
        onRateCounted: (usage) => setRateLimitHeaders(reply, "api-token", usage),
      }).catch(async (error) => {
        // A refusal stays what it is; a database that does not answer is a 503, as for cookies.
        if (error instanceof AppError) throw error;
        throw (await isDatabaseAnswering()) ? error : databaseUnavailable();
      });
      if (identity.scope === "read" && !readMethods.has(request.method)) {
        throw forbidden(
          "This token is read-only: it can only read (GET). Create a read-write token to make changes.",
        );
      }
      request.actor = identity.actor;
      request.apiToken = { id: identity.tokenId, scope: identity.scope };
      return;
    }
    const token = sessionCache ? sessionTokenOf(request.headers.cookie) : null;
    const now = Date.now();
    if (token !== null) {
      const cached = sessionCache!.get(token, now);
      if (cached) {
        request.actor = cached.actor;
        request.sessionId = cached.sessionId;
        refuseUntilTwoFactor(request, cached.mustSetUpTwoFactor);
        return;
      }
    }
    // An eviction while better-auth reads the session must not be undone by caching what it read.
    const epoch = sessionCache?.epoch ?? 0;
    const session = await getSession(toWebHeaders(request.headers)).catch(async (error) => {
      // better-auth hides the driver's error behind "Failed to get session"; ask the database itself.
      throw (await isDatabaseAnswering()) ? error : databaseUnavailable();
    });
    if (!session) return;
    const user = session.user as {
      id: string;
      role?: unknown;
      status?: unknown;
      twoFactorEnabled?: boolean | null;
    };
    // A deactivated person's sessions end at once, whatever cookie they still hold.
    if (user.status === "Inactive") {
      await endSessionsOf({ db, dispatcher }, user.id);
      return;
    }
    request.actor = { id: user.id, role: isRole(user.role) ? user.role : null };
    request.sessionId = session.session.id;
    const mustSetUpTwoFactor = await isTwoFactorPending(db, {
      ...request.actor,
      twoFactorEnabled: user.twoFactorEnabled === true,
    });
    if (token !== null && sessionCache!.epoch === epoch) {
      const expiresAt = new Date(session.session.expiresAt).getTime();
      sessionCache!.set(
        token,
        { actor: request.actor, sessionId: session.session.id, expiresAt, mustSetUpTwoFactor },
        now,
      );
    }
    refuseUntilTwoFactor(request, mustSetUpTwoFactor);
  });
}

/** The service context for a signed-in request; 401 when nobody is signed in. */
export function contextFor(
  db: Db,
  dispatcher?: Dispatcher,
  clock: Clock = systemClock,
  ticketReads?: TicketReadCache,
  automation?: TicketAutomation,
) {
  return (request: FastifyRequest): ServiceContext => {
    if (!request.actor) throw unauthenticated();
    return { db, actor: request.actor, dispatcher, clock, ticketReads, automation };
  };
}
