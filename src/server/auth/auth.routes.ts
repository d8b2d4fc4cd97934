import type { FastifyInstance } from "fastify";
import { toWebHeaders } from "../http/session.ts";
import { type Auth, clientIpHeader } from "./auth.ts";

/** Bridges Fastify to better-auth's fetch handler at /api/auth/*. */
export async function authRoutes(app: FastifyInstance, { auth, baseURL }: { auth: Auth; baseURL: string }) {
  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    handler: async (request, reply) => {
      const headers = toWebHeaders(request.headers);
      // request.ip honours TRUST_PROXY; a forwarded-for header a client made up never reaches better-auth.
      headers.delete("x-forwarded-for");
      headers.set(clientIpHeader, request.ip);
      const hasBody = request.method !== "GET" && request.body !== undefined && request.body !== null;
      const response = await auth.handler(
        new Request(new URL(request.url, baseURL), {
          method: request.method,
          headers,
          body: hasBody ? JSON.stringify(request.body) : undefined,
        }),
      );
      reply.status(response.status);
      for (const [name, value] of response.headers) {
        if (name !== "set-cookie" && name !== "content-length") reply.header(name, value);
      }
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header("set-cookie", cookies);
      if (response.status === 429) {
        const seconds = Number(response.headers.get("x-retry-after")) || 60;
        reply.header("retry-after", String(seconds));
        return reply.send({
          code: "rate_limited",
          message: `Too many attempts. Try again in ${seconds} seconds.`,
        });
      }
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
    },
  });
}
