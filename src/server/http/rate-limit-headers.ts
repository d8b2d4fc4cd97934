import type { FastifyReply } from "fastify";
import type { RateUsage } from "#server/rate-limit.ts";

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers, structured fields), decision 078:
 * `RateLimit-Policy: "<name>";q=<max>;w=<window seconds>` and `RateLimit: "<name>";r=<left>;t=<seconds to
 * the window's end>`, so a client slows down before it meets a 429 (whose Retry-After the error handler sets).
 */
export function setRateLimitHeaders(
  reply: FastifyReply,
  policy: string,
  { rule, remaining, resetIn }: RateUsage,
) {
  reply.header("ratelimit-policy", `"${policy}";q=${rule.max};w=${rule.window}`);
  reply.header("ratelimit", `"${policy}";r=${remaining};t=${resetIn}`);
}
