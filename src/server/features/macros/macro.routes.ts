import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import {
  bulkMacroInputSchema,
  createMacroInputSchema,
  macroApplicationSchema,
  macroIdParamsSchema,
  macroListSchema,
  macroPreviewSchema,
  macroSchema,
  ticketMacroParamsSchema,
  updateMacroInputSchema,
} from "#shared/macros/macro.schemas.ts";
import { bulkResultSchema } from "#shared/tickets/ticket-bulk.ts";
import { applyMacro, applyMacroInBulk, previewMacro } from "./apply-macro.service.ts";
import { createMacro, deleteMacro, listMacros, updateMacro } from "./macro.service.ts";

/** /api/macros and a macro on a ticket (decision 075): staff only (the services refuse users with 403). */
export async function macroRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const params = macroIdParamsSchema;

  app.get("/api/macros", { schema: { response: { 200: macroListSchema } } }, (request) =>
    listMacros(contextOf(request)),
  );

  app.post(
    "/api/macros",
    { schema: { body: createMacroInputSchema, response: { 201: macroSchema } } },
    async (request, reply) => reply.status(201).send(await createMacro(contextOf(request), request.body)),
  );

  app.patch(
    "/api/macros/:macroId",
    { schema: { params, body: updateMacroInputSchema, response: { 200: macroSchema } } },
    (request) => updateMacro(contextOf(request), request.params.macroId, request.body),
  );

  app.delete("/api/macros/:macroId", { schema: { params } }, async (request, reply) => {
    await deleteMacro(contextOf(request), request.params.macroId);
    return reply.status(204).send();
  });

  app.get(
    "/api/tickets/:ticketId/macros/:macroId/preview",
    { schema: { params: ticketMacroParamsSchema, response: { 200: macroPreviewSchema } } },
    (request) => previewMacro(contextOf(request), request.params.ticketId, request.params.macroId),
  );

  app.post(
    "/api/tickets/:ticketId/macros/:macroId/apply",
    { schema: { params: ticketMacroParamsSchema, response: { 200: macroApplicationSchema } } },
    (request) => applyMacro(contextOf(request), request.params.ticketId, request.params.macroId),
  );

  app.post(
    "/api/tickets/bulk/macro",
    { schema: { body: bulkMacroInputSchema, response: { 200: bulkResultSchema } } },
    (request) => applyMacroInBulk(contextOf(request), request.body),
  );
}
