import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import { searchQuerySchema, searchResultsSchema } from "#shared/search/search.schemas.ts";
import { searchFor } from "./search.service.ts";

export async function searchRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/search",
    { schema: { querystring: searchQuerySchema, response: { 200: searchResultsSchema } } },
    (request) => searchFor(contextOf(request), request.query),
  );
}
