import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import { forbidden } from "#server/errors.ts";
import {
  mySessionListSchema,
  revokedSessionsSchema,
  sessionIdParamsSchema,
} from "#shared/users/session.schemas.ts";
import { listMySessions, revokeMyOtherSessions, revokeMySession } from "./session.service.ts";

export const tokensCannotManageSessions =
  "API tokens cannot list or end sign-in sessions. Sign in and use your profile page.";

/** /api/me/sessions: the signed-in browsers of the person asking, and ending them. Never with an API token. */
export async function sessionRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const sessionOf = (request: FastifyRequest) => {
    const ctx = contextOf(request);
    if (request.apiToken || !request.sessionId) throw forbidden(tokensCannotManageSessions);
    return { ctx, currentSessionId: request.sessionId };
  };
  app.addHook("preValidation", async (request) => {
    sessionOf(request);
  });

  app.get("/api/me/sessions", { schema: { response: { 200: mySessionListSchema } } }, (request) => {
    const { ctx, currentSessionId } = sessionOf(request);
    return listMySessions(ctx, currentSessionId);
  });

  app.delete(
    "/api/me/sessions/:sessionId",
    { schema: { params: sessionIdParamsSchema } },
    async (request, reply) => {
      const { ctx, currentSessionId } = sessionOf(request);
      await revokeMySession(ctx, currentSessionId, request.params.sessionId);
      return reply.status(204).send();
    },
  );

  app.post(
    "/api/me/sessions/revoke-others",
    { schema: { response: { 200: revokedSessionsSchema } } },
    (request) => {
      const { ctx, currentSessionId } = sessionOf(request);
      return revokeMyOtherSessions(ctx, currentSessionId);
    },
  );
}
