import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import { followStateSchema } from "#shared/followers/follower.schemas.ts";
import { ticketIdSchema } from "#shared/tickets/ticket.schemas.ts";
import { followTicket, getFollowState, unfollowTicket } from "./follower.service.ts";

const params = z.object({ ticketId: ticketIdSchema });
const schema = { params, response: { 200: followStateSchema } };

export async function followerRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/api/tickets/:ticketId/follow", { schema }, (request) =>
    getFollowState(contextOf(request), request.params.ticketId),
  );
  app.put("/api/tickets/:ticketId/follow", { schema }, (request) =>
    followTicket(contextOf(request), request.params.ticketId),
  );
  app.delete("/api/tickets/:ticketId/follow", { schema }, (request) =>
    unfollowTicket(contextOf(request), request.params.ticketId),
  );
}
