import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import {
  cannedResponseIdParamsSchema,
  cannedResponseListSchema,
  cannedResponseSchema,
  createCannedResponseInputSchema,
  listCannedResponsesQuerySchema,
  updateCannedResponseInputSchema,
} from "#shared/canned-responses/canned-response.schemas.ts";
import {
  createCannedResponse,
  deleteCannedResponse,
  listCannedResponses,
  updateCannedResponse,
} from "./canned-response.service.ts";

/** /api/canned-responses: staff only (the service refuses users with 403). */
export async function cannedResponseRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const params = cannedResponseIdParamsSchema;

  app.get(
    "/api/canned-responses",
    { schema: { querystring: listCannedResponsesQuerySchema, response: { 200: cannedResponseListSchema } } },
    (request) => listCannedResponses(contextOf(request), request.query),
  );

  app.post(
    "/api/canned-responses",
    { schema: { body: createCannedResponseInputSchema, response: { 201: cannedResponseSchema } } },
    async (request, reply) =>
      reply.status(201).send(await createCannedResponse(contextOf(request), request.body)),
  );

  app.patch(
    "/api/canned-responses/:responseId",
    { schema: { params, body: updateCannedResponseInputSchema, response: { 200: cannedResponseSchema } } },
    (request) => updateCannedResponse(contextOf(request), request.params.responseId, request.body),
  );

  app.delete("/api/canned-responses/:responseId", { schema: { params } }, async (request, reply) => {
    await deleteCannedResponse(contextOf(request), request.params.responseId);
    return reply.status(204).send();
  });
}
