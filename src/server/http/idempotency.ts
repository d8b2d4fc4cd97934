import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Clock } from "#server/clock.ts";
import type { Db } from "#server/db/client.ts";
import { conflict, ruleViolation, validationFailed } from "#server/errors.ts";
import {
  claimIdempotencyKey,
  findIdempotencyKey,
  recordIdempotentAnswer,
  releaseIdempotencyKey,
} from "#server/features/idempotency/idempotency.queries.ts";
import { idempotencyKeyLifetimeMs } from "#server/features/idempotency/idempotency-retention.ts";

/**
 * A key still in flight after this long belongs to a request whose process stopped (no request here runs
 * for minutes: statements and lock waits are limited to seconds): a retry may take it over (decision 078).
 */
export const abandonedAfterMs = 2 * 60_000;

/** 1 to 255 visible ASCII characters (no space, no control characters). */
const keyPattern = /^[\x21-\x7e]{1,255}$/;

/**
 * POST routes whose answer must never be stored (it carries a secret shown once) or whose body is not
 * JSON: an Idempotency-Key there is refused with 400 rather than silently not honoured.
 */
export const idempotencyRefusedRoutes: Record<string, string> = {
  "/api/me/tokens": "its answer holds the new token, which is shown once and never stored",
  "/api/admin/webhooks": "its answer holds the endpoint's secret, which is shown once and never stored",
  "/api/admin/webhooks/:webhookId/rotate-secret":
    "its answer holds the endpoint's secret, which is shown once and never stored",
  "/api/admin/scim/tokens": "its answer holds the new SCIM token, which is shown once and never stored",
  "/api/attachments": "an upload is not a JSON body; upload again, and attach only the upload you keep",
};

interface Claim {
  caller: string;
  route: string;
  key: string;
  claimedAt: Date;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The Idempotency-Key this request holds while it runs (decision 078), null without one. */
    idempotencyClaim: Claim | null;
  }
}

/** The key of the request's Idempotency-Key header, null without one; 400 when it is not a valid key. */
function idempotencyKeyOf(request: FastifyRequest): string | null {
  const header = request.headers["idempotency-key"];
  if (header === undefined) return null;
  if (typeof header !== "string" || !keyPattern.test(header)) {
    throw validationFailed(
      "Idempotency-Key must be 1 to 255 visible ASCII characters (letters, digits, punctuation; no spaces), sent once.",
    );
  }
  return header;
}

const hashOf = (request: FastifyRequest) =>
  createHash("sha256")
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest("hex");

/**
 * Decision 078: a POST under /api (outside better-auth's /api/auth) sent with `Idempotency-Key` by a
 * signed-in caller runs once per caller, route and key within 24 hours. The key is claimed before the
 * route runs (after the session and the body's validation); a success (2xx) is kept and answered again,
 * byte for byte, to a retry with the same request; any other answer gives the key back, since a failed
 * change made nothing. The same key with another request is 422; while the first still runs, 409.
 */
export function registerIdempotencyKeys(app: FastifyInstance, { db, clock }: { db: Db; clock: Clock }) {
  app.decorateRequest("idempotencyClaim", null);

  app.addHook("preHandler", async (request, reply) => {
    const route = request.routeOptions.url;
    if (request.method !== "POST" || !route?.startsWith("/api/") || route.startsWith("/api/auth/")) return;
    const key = idempotencyKeyOf(request);
    // Without a caller there is nobody to scope the key to: the route answers as it would (mostly 401).
    if (key === null || !request.actor) return;
    const refusal = idempotencyRefusedRoutes[route];
    if (refusal) throw validationFailed(`This route does not take an Idempotency-Key: ${refusal}.`);
    const now = clock.now();
    const caller = request.apiToken ? `token:${request.apiToken.id}` : `user:${request.actor.id}`;
    const scoped = { caller, route: `POST ${route}`, key };
    const requestHash = hashOf(request);
    const claimed = await claimIdempotencyKey(
      db,
      { ...scoped, requestHash, createdAt: now },
      {
        expiredBefore: new Date(now.getTime() - idempotencyKeyLifetimeMs),
        abandonedBefore: new Date(now.getTime() - abandonedAfterMs),
      },
    );
    if (claimed) {
      request.idempotencyClaim = { ...scoped, claimedAt: now };
      return;
    }
    const stored = await findIdempotencyKey(db, scoped);
    // Gone between the claim and the read (its request failed and gave it back): this one may run again.
    if (!stored) throw conflict("A request with this Idempotency-Key has just failed. Please try again.");
    if (stored.statusCode === null || stored.responseBody === null) {
      throw conflict(
        "A request with this Idempotency-Key is still being processed. Wait for its answer, or try again in a moment.",
      );
    }
    if (stored.requestHash !== requestHash) {
      throw ruleViolation(
        "This Idempotency-Key was already used with a different request (another path or body) in the last 24 hours. Use a new key for a new request.",
      );
    }
    return reply
      .status(stored.statusCode)
      .header("content-type", "application/json; charset=utf-8")
      .header("idempotent-replayed", "true")
      .send(stored.responseBody);
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = null;
    const { claimedAt, ...scoped } = claim;
    try {
      const isSuccess = reply.statusCode >= 200 && reply.statusCode < 300;
      const body =
        typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString() : null;
      if (isSuccess && body !== null) {
        await recordIdempotentAnswer(db, scoped, claimedAt, {
          statusCode: reply.statusCode,
          responseBody: body,
        });
      } else {
        await releaseIdempotencyKey(db, scoped, claimedAt);
      }
    } catch (error) {
      // The answer still goes out; the key stays in flight until it is abandoned (abandonedAfterMs).
      request.log.error({ err: error }, "could not record the answer of an Idempotency-Key");
    }
    return payload;
  });
}
