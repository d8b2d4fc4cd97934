import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import { forbidden } from "#server/errors.ts";
import {
  leavePresenceQuerySchema,
  sharePresenceInputSchema,
  ticketPresenceSchema,
} from "#shared/presence/presence.schemas.ts";
import { ticketIdSchema } from "#shared/tickets/ticket.schemas.ts";
import { leaveTicketPage, sharePresence } from "./presence.service.ts";
import type { PresenceHub } from "./presence-hub.ts";

const params = z.object({ ticketId: ticketIdSchema });

export const tokensCannotSharePresence =
  "Presence is shared by a signed-in browser with the ticket open, not with an API token.";

/**
 * A staff member's ticket page says it is there (PUT, every few seconds and when its typing starts or
 * stops) and that it closed (DELETE, also sent as the page goes away); the others on the ticket hear it on
 * their live stream as `presence` frames (decision 072).
 */
export async function presenceRoutes(
  fastify: FastifyInstance,
  { contextOf, presence }: { contextOf: (request: FastifyRequest) => ServiceContext; presence: PresenceHub },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const refuseTokens = (request: FastifyRequest) => {
    if (request.apiToken) throw forbidden(tokensCannotSharePresence);
  };

  app.put(
    "/api/tickets/:ticketId/presence",
    { schema: { params, body: sharePresenceInputSchema, response: { 200: ticketPresenceSchema } } },
    (request) => {
      refuseTokens(request);
      return sharePresence(contextOf(request), presence, request.params.ticketId, request.body);
    },
  );

  app.delete(
    "/api/tickets/:ticketId/presence",
    { schema: { params, querystring: leavePresenceQuerySchema } },
    async (request, reply) => {
      refuseTokens(request);
      await leaveTicketPage(contextOf(request), presence, request.params.ticketId, request.query.pageId);
      return reply.status(204).send();
    },
  );
}
