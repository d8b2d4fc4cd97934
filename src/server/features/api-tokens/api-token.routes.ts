import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import { forbidden } from "#server/errors.ts";
import {
  apiTokenIdParamsSchema,
  apiTokenListSchema,
  createApiTokenInputSchema,
  createdApiTokenSchema,
} from "#shared/api-tokens/api-token.schemas.ts";
import { createApiToken, listApiTokens, revokeApiToken } from "./api-token.service.ts";

export const tokensCannotManageTokens =
  "API tokens cannot list, create or revoke tokens. Sign in and use your profile page.";

export const chooseRoleFirst = "Choose your role first (on /role-selection): a token acts with your role.";

/** /api/me/tokens: a signed-in person's own tokens; never reachable with a token (a token cannot mint tokens). */
export async function apiTokenRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Before the body is validated, like the session hook: a token learns nothing about these routes' bodies.
  app.addHook("preValidation", async (request) => {
    const { actor } = contextOf(request);
    if (request.apiToken) throw forbidden(tokensCannotManageTokens);
    // A token of someone without a role would be refused at every use (docs/decisions/024).
    if (actor.role === null) throw forbidden(chooseRoleFirst);
  });

  app.get("/api/me/tokens", { schema: { response: { 200: apiTokenListSchema } } }, (request) =>
    listApiTokens(contextOf(request)),
  );

  app.post(
    "/api/me/tokens",
    { schema: { body: createApiTokenInputSchema, response: { 201: createdApiTokenSchema } } },
    async (request, reply) => {
      const ctx = contextOf(request);
      return reply
        .status(201)
        .header("cache-control", "no-store")
        .send(await createApiToken(ctx, request.body));
    },
  );

  app.delete(
    "/api/me/tokens/:tokenId",
    { schema: { params: apiTokenIdParamsSchema } },
    async (request, reply) => {
      await revokeApiToken(contextOf(request), request.params.tokenId);
      return reply.status(204).send();
    },
  );
}
