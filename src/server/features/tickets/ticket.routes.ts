import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  createTicketInputSchema,
  listTicketsQuerySchema,
  ticketIdSchema,
  ticketPageSchema,
  ticketSchema,
  ticketSummarySchema,
} from "#shared/tickets/ticket.schemas.ts";
import type { ServiceContext } from "../../context.ts";
import { createTicket, getTicket, listTicketsFor, summarizeTicketsFor } from "./ticket.service.ts";

export async function ticketRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/tickets",
    { schema: { querystring: listTicketsQuerySchema, response: { 200: ticketPageSchema } } },
    (request) => listTicketsFor(contextOf(request), request.query),
  );

  app.get("/api/tickets/summary", { schema: { response: { 200: ticketSummarySchema } } }, (request) =>
    summarizeTicketsFor(contextOf(request)),
  );

  app.post(
    "/api/tickets",
    { schema: { body: createTicketInputSchema, response: { 201: ticketSchema } } },
    async (request, reply) => reply.status(201).send(await createTicket(contextOf(request), request.body)),
  );

  app.get(
    "/api/tickets/:ticketId",
    { schema: { params: z.object({ ticketId: ticketIdSchema }), response: { 200: ticketSchema } } },
    (request) => getTicket(contextOf(request), request.params.ticketId),
  );
}
