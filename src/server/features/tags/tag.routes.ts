import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import {
  changeTicketTagsInputSchema,
  tagSuggestionsQuerySchema,
  tagSuggestionsSchema,
} from "#shared/tags/tag.schemas.ts";
import { ticketIdSchema, ticketSchema } from "#shared/tickets/ticket.schemas.ts";
import { changeTicketTags, requireTagAccess, suggestTags } from "./tag.service.ts";

type Deps = { contextOf: (request: FastifyRequest) => ServiceContext };

/** Decision 071: a ticket's tags (staff) and the tag control's suggestions. */
export async function tagRoutes(fastify: FastifyInstance, { contextOf }: Deps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Users learn nothing here, not even what was wrong with a body they sent.
  app.addHook("preValidation", async (request) => requireTagAccess(contextOf(request)));

  app.get(
    "/api/tags",
    { schema: { querystring: tagSuggestionsQuerySchema, response: { 200: tagSuggestionsSchema } } },
    (request) => suggestTags(contextOf(request), request.query),
  );
  app.patch(
    "/api/tickets/:ticketId/tags",
    {
      schema: {
        params: z.object({ ticketId: ticketIdSchema }),
        body: changeTicketTagsInputSchema,
        response: { 200: ticketSchema },
      },
    },
    (request) => changeTicketTags(contextOf(request), request.params.ticketId, request.body),
  );
}
