import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import {
  setAwayInputSchema,
  setTeamAssignmentInputSchema,
  teamAssignmentSchema,
  teamIdSchema,
} from "#shared/teams/team-queues.schemas.ts";
import { meSchema } from "#shared/users/user.schemas.ts";
import { setAway, setTeamAssignment } from "./team-queues.service.ts";

/**
 * Decision 073: a technician's away mark, and a team's auto-assignment mode. The team tabs' counts are the
 * ticket lists' (GET /api/tickets/queues, features/tickets).
 */
export async function teamQueueRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.put("/api/me/away", { schema: { body: setAwayInputSchema, response: { 200: meSchema } } }, (request) =>
    setAway(contextOf(request), request.body),
  );

  app.put(
    "/api/teams/:teamId/assignment",
    {
      schema: {
        params: z.object({ teamId: teamIdSchema }),
        body: setTeamAssignmentInputSchema,
        response: { 200: teamAssignmentSchema },
      },
    },
    (request) => setTeamAssignment(contextOf(request), request.params.teamId, request.body),
  );
}
