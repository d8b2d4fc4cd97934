import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import {
  createTicketLinkInputSchema,
  mergeResultSchema,
  mergeTicketInputSchema,
  ticketLinkIdSchema,
  ticketLinkSchema,
  ticketLinksSchema,
} from "#shared/ticket-links/ticket-link.schemas.ts";
import { ticketIdSchema } from "#shared/tickets/ticket.schemas.ts";
import { createTicketLink, listTicketLinks, removeTicketLink } from "./ticket-link.service.ts";
import { mergeTicket } from "./ticket-merge.service.ts";

type Deps = { contextOf: (request: FastifyRequest) => ServiceContext };

const ticketParams = z.object({ ticketId: ticketIdSchema });

/** Decision 074: a ticket's links (read by whoever may see it, changed by staff) and merging a duplicate. */
export async function ticketLinkRoutes(fastify: FastifyInstance, { contextOf }: Deps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/tickets/:ticketId/links",
    { schema: { params: ticketParams, response: { 200: ticketLinksSchema } } },
    (request) => listTicketLinks(contextOf(request), request.params.ticketId),
  );
  app.post(
    "/api/tickets/:ticketId/links",
    {
      schema: {
        params: ticketParams,
        body: createTicketLinkInputSchema,
        response: { 201: ticketLinkSchema },
      },
    },
    async (request, reply) => {
      const link = await createTicketLink(contextOf(request), request.params.ticketId, request.body);
      return reply.status(201).send(link);
    },
  );
  app.delete(
    "/api/tickets/:ticketId/links/:linkId",
    { schema: { params: ticketParams.extend({ linkId: ticketLinkIdSchema }) } },
    async (request, reply) => {
      await removeTicketLink(contextOf(request), request.params.ticketId, request.params.linkId);
      return reply.status(204).send();
    },
  );
  app.post(
    "/api/tickets/:ticketId/merge",
    { schema: { params: ticketParams, body: mergeTicketInputSchema, response: { 200: mergeResultSchema } } },
    (request) => mergeTicket(contextOf(request), request.params.ticketId, request.body),
  );
}
