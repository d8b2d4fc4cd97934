import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError, databaseUnavailable, tooManyAttempts } from "#server/errors.ts";
import { toWebHeaders } from "#server/http/session.ts";
import { type AuthProviders, authProvidersSchema } from "#shared/users/user.schemas.ts";
import { type Auth, clientIpHeader } from "./auth.ts";
import { refuseUnstorableInput, withoutSessionToken } from "./auth-bridge.ts";
import { isExposedAuthEndpoint } from "./auth-endpoints.ts";
import type { SignInLimits } from "./sign-in-limits.ts";
import { twoFactorLockedCode } from "./two-factor-lock.ts";

const isInactiveSession = (body: unknown): body is { user: { id: string } } => {
  const user = (body as { user?: { id?: unknown; status?: unknown } } | null)?.user;
  return typeof user?.id === "string" && user.status === "Inactive";
};

/**
 * better-auth's 429s in our error shape: its limiter's with our words and its wait; the two-factor lock's
 * with the message that says how long the lock still lasts (two-factor-lock.ts).
 */
async function tooManyAttemptsFrom(response: Response): Promise<AppError> {
  const retryAfter = Number(response.headers.get("x-retry-after")) || 60;
  const body = (await response.json().catch(() => null)) as { code?: unknown; message?: unknown } | null;
  if (body?.code === twoFactorLockedCode && typeof body.message === "string") {
    return new AppError("rate_limited", body.message, { retryAfter });
  }
  return tooManyAttempts(retryAfter);
}

/** Bridges Fastify to better-auth's fetch handler at /api/auth/*. */
export async function authRoutes(
  fastify: FastifyInstance,
  {
    auth,
    baseURL,
    providers,
    onSignedOut,
    signInLimits,
    isDatabaseAnswering,
  }: {
    auth: Auth;
    baseURL: string;
    providers: AuthProviders;
    onSignedOut?: (userId: string) => void;
    signInLimits: SignInLimits;
    /** better-auth answers a failed query with a bare 500: this tells whether the database was the cause. */
    isDatabaseAnswering?: () => Promise<boolean>;
  },
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
      if (!isExposedAuthEndpoint(request.method, endpoint)) {
        throw new AppError("not_found", `No API route ${request.method} ${url.pathname}`);
      }
      refuseUnstorableInput(request.body);
      refuseUnstorableInput(request.query);
      const headers = toWebHeaders(request.headers);
      // request.ip honours TRUST_PROXY; a forwarded-for header a client made up never reaches better-auth.
      headers.delete("x-forwarded-for");
      headers.set(clientIpHeader, request.ip);
      const attempt = { method: request.method, endpoint, ip: request.ip, body: request.body };
      const settle = await signInLimits.admit(attempt);
      const hasBody = request.method !== "GET" && request.body !== undefined && request.body !== null;
      if (hasBody) headers.set("content-type", "application/json");
      headers.delete("content-length");
      let signingOut: Awaited<ReturnType<typeof auth.api.getSession>> = null;
      let response: Response;
      try {
        signingOut = endpoint === "/sign-out" ? await auth.api.getSession({ headers }) : null;
        response = await auth.handler(
          new Request(url, {
            method: request.method,
            headers,
            body: hasBody ? JSON.stringify(request.body) : undefined,
          }),
        );
      } catch (error) {
        await settle(null);
        throw error;
      }
      await settle(response.status);
      // The signed-out session's live streams close at once.
      if (signingOut && response.ok) onSignedOut?.(signingOut.user.id);
      if (response.status === 429) throw await tooManyAttemptsFrom(response);
      if (response.status >= 500) {
        // A database that stopped answering midway is a 503 here as everywhere else, not better-auth's 500.
        if (isDatabaseAnswering && !(await isDatabaseAnswering())) throw databaseUnavailable();
        request.log.error({ status: response.status }, "better-auth failed");
      }
      reply.status(response.status);
      for (const [name, value] of response.headers) {
        if (name !== "set-cookie" && name !== "content-length") reply.header(name, value);
      }
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header("set-cookie", cookies);
      const raw = response.body ? Buffer.from(await response.arrayBuffer()) : null;
      if (!raw?.length || !response.headers.get("content-type")?.startsWith("application/json")) {
        return reply.send(raw);
      }
      const body = withoutSessionToken(JSON.parse(raw.toString("utf8")));
      if (endpoint === "/get-session" && isInactiveSession(body)) {
        // A deactivated person's cookie is dead here too: end every session of theirs and answer as signed out.
        const context = await auth.$context;
        await context.internalAdapter.deleteUserSessions(body.user.id);
        const { name, attributes } = context.authCookies.sessionToken;
        const secure = attributes.secure ? "; Secure" : "";
        reply.header("set-cookie", `${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure}`);
        return reply.send(JSON.stringify(null));
      }
      return reply.send(JSON.stringify(body));
    },
  });
}
