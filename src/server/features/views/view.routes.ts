import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import {
  viewIdParamsSchema,
  viewInputSchema,
  viewListSchema,
  viewSchema,
} from "#shared/views/view.schemas.ts";
import { createView, deleteView, listViews, updateView } from "./view.service.ts";

type Deps = { contextOf: (request: FastifyRequest) => ServiceContext };

/** Decision 071: saved views of the ticket list. */
export async function viewRoutes(fastify: FastifyInstance, { contextOf }: Deps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/api/views", { schema: { response: { 200: viewListSchema } } }, (request) =>
    listViews(contextOf(request)),
  );
  app.post(
    "/api/views",
    { schema: { body: viewInputSchema, response: { 201: viewSchema } } },
    async (request, reply) => reply.status(201).send(await createView(contextOf(request), request.body)),
  );
  app.put(
    "/api/views/:viewId",
    { schema: { params: viewIdParamsSchema, body: viewInputSchema, response: { 200: viewSchema } } },
    (request) => updateView(contextOf(request), request.params.viewId, request.body),
  );
  app.delete("/api/views/:viewId", { schema: { params: viewIdParamsSchema } }, async (request, reply) => {
    await deleteView(contextOf(request), request.params.viewId);
    return reply.status(204).send();
  });
}
