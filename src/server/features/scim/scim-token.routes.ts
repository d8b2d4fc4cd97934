import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import { forbidden } from "#server/errors.ts";
import {
  createdScimTokenSchema,
  createScimTokenInputSchema,
  scimTokenIdParamsSchema,
  scimTokenListSchema,
} from "#shared/scim/scim-token.schemas.ts";
import { createScimToken, listScimTokens, revokeScimToken } from "./scim-token.service.ts";

export const apiTokensCannotManageScimTokens =
  "API tokens cannot list, create or revoke SCIM tokens. Sign in and use Admin settings › Provisioning (SCIM).";

/** /api/admin/scim/tokens: administrators' SCIM tokens (decision 081); the service refuses everyone else. */
export async function scimTokenRoutes(
  fastify: FastifyInstance,
  { contextOf, baseURL }: { contextOf: (request: FastifyRequest) => ServiceContext; baseURL: string },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // A personal API token cannot mint a credential either (as for /api/me/tokens).
  app.addHook("preValidation", async (request) => {
    if (request.apiToken) throw forbidden(apiTokensCannotManageScimTokens);
  });
  app.get("/api/admin/scim/tokens", { schema: { response: { 200: scimTokenListSchema } } }, (request) =>
    listScimTokens(contextOf(request), baseURL),
  );
  app.post(
    "/api/admin/scim/tokens",
    { schema: { body: createScimTokenInputSchema, response: { 201: createdScimTokenSchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .header("cache-control", "no-store")
        .send(await createScimToken(contextOf(request), request.body)),
  );
  app.delete(
    "/api/admin/scim/tokens/:scimTokenId",
    { schema: { params: scimTokenIdParamsSchema } },
    async (request, reply) => {
      await revokeScimToken(contextOf(request), request.params.scimTokenId);
      return reply.status(204).send();
    },
  );
}
