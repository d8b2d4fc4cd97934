import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { type AuthProviders, authProvidersSchema } from "#shared/users/user.schemas.ts";
import { AppError, tooManyAttempts } from "../errors.ts";
import { toWebHeaders } from "../http/session.ts";
import { type Auth, clientIpHeader } from "./auth.ts";
import type { SignInLimits } from "./sign-in-limits.ts";

// The better-auth endpoints the product uses. Everything else it ships (update-user, change-email,
// delete-user, …) stays unreachable: our own routes do those jobs with our own rules.
const allowedEndpoints: Array<[method: string, pattern: RegExp]> = [
  ["POST", /^\/sign-up\/email$/],
  ["POST", /^\/sign-in\/email$/],
  ["POST", /^\/sign-in\/social$/],
  ["POST", /^\/sign-out$/],
  ["GET", /^\/get-session$/],
  ["POST", /^\/request-password-reset$/],
  ["GET", /^\/reset-password\/[\w-]+$/],
  ["POST", /^\/reset-password$/],
  ["GET", /^\/callback\/[\w-]+$/],
  ["POST", /^\/callback\/[\w-]+$/],
  ["GET", /^\/error$/],
];

/** Bridges Fastify to better-auth's fetch handler at /api/auth/*. */
export async function authRoutes(
  fastify: FastifyInstance,
  {
    auth,
    baseURL,
    providers,
    signInLimits,
  }: { auth: Auth; baseURL: string; providers: AuthProviders; signInLimits: SignInLimits },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/auth/providers",
    { schema: { response: { 200: authProvidersSchema } } },
    async () => providers,
  );

  // Google and some OIDC providers may post the callback as a form.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    handler: async (request, reply) => {
      const url = new URL(request.url, baseURL);
      const endpoint = url.pathname.slice("/api/auth".length);
      if (
        !allowedEndpoints.some(([method, pattern]) => method === request.method && pattern.test(endpoint))
      ) {
        throw new AppError("not_found", `No API route ${request.method} ${url.pathname}`);
      }
      const headers = toWebHeaders(request.headers);
      // request.ip honours TRUST_PROXY; a forwarded-for header a client made up never reaches better-auth.
      headers.delete("x-forwarded-for");
      headers.set(clientIpHeader, request.ip);
      const attempt = { method: request.method, endpoint, ip: request.ip, body: request.body };
      await signInLimits.beforeAttempt(attempt);
      const hasBody = request.method !== "GET" && request.body !== undefined && request.body !== null;
      if (hasBody) headers.set("content-type", "application/json");
      headers.delete("content-length");
      const response = await auth.handler(
        new Request(url, {
          method: request.method,
          headers,
          body: hasBody ? JSON.stringify(request.body) : undefined,
        }),
      );
      await signInLimits.afterAttempt(attempt, response.status);
      if (response.status === 429) throw tooManyAttempts(Number(response.headers.get("x-retry-after")) || 60);
      if (response.status >= 500) request.log.error({ status: response.status }, "better-auth failed");
      reply.status(response.status);
      for (const [name, value] of response.headers) {
        if (name !== "set-cookie" && name !== "content-length") reply.header(name, value);
      }
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header("set-cookie", cookies);
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
    },
  });
}
