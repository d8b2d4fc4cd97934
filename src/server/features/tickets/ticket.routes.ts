import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import { addedCommentSchema } from "#shared/mentions/mention.schemas.ts";
import { teamQueuesSchema } from "#shared/teams/team-queues.schemas.ts";
import {
  createTicketInputSchema,
  listTicketsQuerySchema,
  type Ticket,
  ticketIdSchema,
  ticketPageSchema,
  ticketSchema,
  ticketSummaryQuerySchema,
  ticketSummarySchema,
} from "#shared/tickets/ticket.schemas.ts";
import {
  addCommentInputSchema,
  changeStatusInputSchema,
  feedbackInputSchema,
  feedbackSchema,
  ticketActivitySchema,
} from "#shared/tickets/ticket-activity.schemas.ts";
import { assignTicketInputSchema } from "#shared/tickets/ticket-assignment.ts";
import { bulkResultSchema, bulkTicketsInputSchema } from "#shared/tickets/ticket-bulk.ts";
import { editTicketInputSchema } from "#shared/tickets/ticket-edit.ts";
import { changeHoldInputSchema, putOnHoldInputSchema } from "#shared/tickets/ticket-hold.ts";
import { assignTicket, assignTicketToMe } from "./assign-ticket.service.ts";
import { changeTicketsInBulk } from "./bulk-tickets.service.ts";
import { editTicket } from "./edit-ticket.service.ts";
import { changeTicketHold, putTicketOnHold, takeTicketOffHold } from "./hold-ticket.service.ts";
import { createTicket, getTicket, listTicketsFor, summarizeTicketsFor } from "./ticket.service.ts";
import { addComment, getTicketActivity, giveFeedback } from "./ticket-activity.service.ts";
import { getTeamQueues } from "./ticket-queues.service.ts";
import type { RequesterDeps } from "./ticket-requester.service.ts";
import { changeTicketStatus } from "./ticket-status.service.ts";
import { ifMatchOf, ticketEntityTag } from "./ticket-version.ts";

const params = z.object({ ticketId: ticketIdSchema });

/** The ticket's answer with its ETag, which the edit routes take back in If-Match (decision 078). */
async function withEntityTag(reply: FastifyReply, answer: Promise<Ticket>): Promise<Ticket> {
  const ticket = await answer;
  reply.header("etag", ticketEntityTag(ticket));
  return ticket;
}

export async function ticketRoutes(
  fastify: FastifyInstance,
  {
    contextOf,
    invitations,
  }: {
    contextOf: (request: FastifyRequest) => ServiceContext;
    /** Decision 079: a requester named by staff may be invited (Admin settings › Ticket intake). */
    invitations: RequesterDeps;
  },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/tickets",
    { schema: { querystring: listTicketsQuerySchema, response: { 200: ticketPageSchema } } },
    (request) => listTicketsFor(contextOf(request), request.query),
  );

  app.get(
    "/api/tickets/summary",
    { schema: { querystring: ticketSummaryQuerySchema, response: { 200: ticketSummarySchema } } },
    (request) => summarizeTicketsFor(contextOf(request), request.query),
  );

  app.get("/api/tickets/queues", { schema: { response: { 200: teamQueuesSchema } } }, (request) =>
    getTeamQueues(contextOf(request)),
  );

  app.post(
    "/api/tickets",
    { schema: { body: createTicketInputSchema, response: { 201: ticketSchema } } },
    async (request, reply) =>
      reply.status(201).send(await createTicket(contextOf(request), request.body, { invitations })),
  );

  app.get(
    "/api/tickets/:ticketId",
    { schema: { params, response: { 200: ticketSchema } } },
    (request, reply) => withEntityTag(reply, getTicket(contextOf(request), request.params.ticketId)),
  );

  app.patch(
    "/api/tickets/:ticketId",
    { schema: { params, body: editTicketInputSchema, response: { 200: ticketSchema } } },
    (request, reply) =>
      withEntityTag(
        reply,
        editTicket(contextOf(request), request.params.ticketId, request.body, {
          ifMatch: ifMatchOf(request),
        }),
      ),
  );

  app.post(
    "/api/tickets/bulk",
    { schema: { body: bulkTicketsInputSchema, response: { 200: bulkResultSchema } } },
    (request) => changeTicketsInBulk(contextOf(request), request.body),
  );

  app.post(
    "/api/tickets/:ticketId/assign",
    { schema: { params, response: { 200: ticketSchema } } },
    (request) => assignTicketToMe(contextOf(request), request.params.ticketId),
  );

  app.put(
    "/api/tickets/:ticketId/assignee",
    { schema: { params, body: assignTicketInputSchema, response: { 200: ticketSchema } } },
    (request, reply) =>
      withEntityTag(
        reply,
        assignTicket(contextOf(request), request.params.ticketId, request.body, {
          ifMatch: ifMatchOf(request),
        }),
      ),
  );

  app.patch(
    "/api/tickets/:ticketId/status",
    { schema: { params, body: changeStatusInputSchema, response: { 200: ticketSchema } } },
    (request, reply) =>
      withEntityTag(
        reply,
        changeTicketStatus(contextOf(request), request.params.ticketId, request.body, {
          ifMatch: ifMatchOf(request),
        }),
      ),
  );

  // On hold (decision 070): put on hold with a public comment, a new lift date, taken off hold.
  app.put(
    "/api/tickets/:ticketId/hold",
    { schema: { params, body: putOnHoldInputSchema, response: { 200: ticketSchema } } },
    (request, reply) =>
      withEntityTag(
        reply,
        putTicketOnHold(contextOf(request), request.params.ticketId, request.body, {
          ifMatch: ifMatchOf(request),
        }),
      ),
  );

  app.patch(
    "/api/tickets/:ticketId/hold",
    { schema: { params, body: changeHoldInputSchema, response: { 200: ticketSchema } } },
    (request, reply) =>
      withEntityTag(
        reply,
        changeTicketHold(contextOf(request), request.params.ticketId, request.body, {
          ifMatch: ifMatchOf(request),
        }),
      ),
  );

  app.delete(
    "/api/tickets/:ticketId/hold",
    { schema: { params, response: { 200: ticketSchema } } },
    (request, reply) =>
      withEntityTag(
        reply,
        takeTicketOffHold(contextOf(request), request.params.ticketId, { ifMatch: ifMatchOf(request) }),
      ),
  );

  app.get(
    "/api/tickets/:ticketId/activity",
    { schema: { params, response: { 200: ticketActivitySchema } } },
    (request) => getTicketActivity(contextOf(request), request.params.ticketId),
  );

  app.post(
    "/api/tickets/:ticketId/comments",
    { schema: { params, body: addCommentInputSchema, response: { 201: addedCommentSchema } } },
    async (request, reply) =>
      reply.status(201).send(await addComment(contextOf(request), request.params.ticketId, request.body)),
  );

  app.put(
    "/api/tickets/:ticketId/feedback",
    { schema: { params, body: feedbackInputSchema, response: { 200: feedbackSchema } } },
    (request) => giveFeedback(contextOf(request), request.params.ticketId, request.body),
  );
}
