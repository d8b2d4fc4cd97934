import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import {
  addAffectedInputSchema,
  addAffectedResultSchema,
  declareIncidentInputSchema,
  knownIssueFollowSchema,
  knownIssueSchema,
  knownIssuesSchema,
  postedIncidentUpdateSchema,
  postIncidentUpdateInputSchema,
  ticketIncidentSchema,
} from "#shared/major-incidents/major-incident.schemas.ts";
import { ticketIdSchema } from "#shared/tickets/ticket.schemas.ts";
import { addAffectedTickets, removeAffectedTicket } from "./incident-affected.service.ts";
import { postIncidentUpdate } from "./incident-update.service.ts";
import {
  followKnownIssue,
  getKnownIssue,
  listKnownIssues,
  unfollowKnownIssue,
} from "./known-issue.service.ts";
import { declareMajorIncident, endMajorIncident, getTicketIncident } from "./major-incident.service.ts";

type Deps = { contextOf: (request: FastifyRequest) => ServiceContext };

const ticketParams = z.object({ ticketId: ticketIdSchema });

/** Decision 077: major incidents (staff run them on a ticket) and their public face, the known issues. */
export async function majorIncidentRoutes(fastify: FastifyInstance, { contextOf }: Deps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/tickets/:ticketId/major-incident",
    { schema: { params: ticketParams, response: { 200: ticketIncidentSchema } } },
    (request) => getTicketIncident(contextOf(request), request.params.ticketId),
  );
  app.put(
    "/api/tickets/:ticketId/major-incident",
    {
      schema: {
        params: ticketParams,
        body: declareIncidentInputSchema,
        response: { 200: ticketIncidentSchema },
      },
    },
    (request) => declareMajorIncident(contextOf(request), request.params.ticketId, request.body),
  );
  app.delete(
    "/api/tickets/:ticketId/major-incident",
    { schema: { params: ticketParams } },
    async (request, reply) => {
      await endMajorIncident(contextOf(request), request.params.ticketId);
      return reply.status(204).send();
    },
  );
  app.post(
    "/api/tickets/:ticketId/incident/affected",
    {
      schema: {
        params: ticketParams,
        body: addAffectedInputSchema,
        response: { 200: addAffectedResultSchema },
      },
    },
    (request) => addAffectedTickets(contextOf(request), request.params.ticketId, request.body),
  );
  app.delete(
    "/api/tickets/:ticketId/incident/affected/:affectedId",
    { schema: { params: ticketParams.extend({ affectedId: ticketIdSchema }) } },
    async (request, reply) => {
      await removeAffectedTicket(contextOf(request), request.params.ticketId, request.params.affectedId);
      return reply.status(204).send();
    },
  );
  app.post(
    "/api/tickets/:ticketId/incident/updates",
    {
      schema: {
        params: ticketParams,
        body: postIncidentUpdateInputSchema,
        response: { 201: postedIncidentUpdateSchema },
      },
    },
    async (request, reply) => {
      const posted = await postIncidentUpdate(contextOf(request), request.params.ticketId, request.body);
      return reply.status(201).send(posted);
    },
  );
  app.get("/api/known-issues", { schema: { response: { 200: knownIssuesSchema } } }, (request) =>
    listKnownIssues(contextOf(request)),
  );
  app.get(
    "/api/known-issues/:ticketId",
    { schema: { params: ticketParams, response: { 200: knownIssueSchema } } },
    (request) => getKnownIssue(contextOf(request), request.params.ticketId),
  );
  app.put(
    "/api/known-issues/:ticketId/follow",
    { schema: { params: ticketParams, response: { 200: knownIssueFollowSchema } } },
    (request) => followKnownIssue(contextOf(request), request.params.ticketId),
  );
  app.delete(
    "/api/known-issues/:ticketId/follow",
    { schema: { params: ticketParams, response: { 200: knownIssueFollowSchema } } },
    (request) => unfollowKnownIssue(contextOf(request), request.params.ticketId),
  );
}
