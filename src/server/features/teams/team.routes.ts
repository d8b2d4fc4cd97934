import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import {
  defaultTeamInputSchema,
  routingOrderInputSchema,
  routingRuleIdParamsSchema,
  routingRuleInputSchema,
  routingRuleSchema,
  routingSchema,
} from "#shared/teams/routing-rule.schemas.ts";
import {
  changeTicketTeamInputSchema,
  teamIdParamsSchema,
  teamInputSchema,
  teamListSchema,
  teamSchema,
} from "#shared/teams/team.schemas.ts";
import { ticketIdSchema, ticketSchema } from "#shared/tickets/ticket.schemas.ts";
import {
  addRoutingRule,
  changeRoutingRule,
  getRouting,
  removeRoutingRule,
  reorderRoutingRules,
  setDefaultTeam,
} from "./routing.service.ts";
import { createTeam, deleteTeam, listTeams, requireTeamManager, updateTeam } from "./team.service.ts";
import { changeTicketTeam } from "./ticket-team.service.ts";

type Deps = { contextOf: (request: FastifyRequest) => ServiceContext };

/** Changing teams and routing: administrators only (refused before the body is read). */
async function teamAdminRoutes(fastify: FastifyInstance, { contextOf }: Deps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook("preValidation", async (request) => requireTeamManager(contextOf(request)));

  app.post(
    "/api/teams",
    { schema: { body: teamInputSchema, response: { 201: teamSchema } } },
    async (request, reply) => reply.status(201).send(await createTeam(contextOf(request), request.body)),
  );
  app.put(
    "/api/teams/:teamId",
    { schema: { params: teamIdParamsSchema, body: teamInputSchema, response: { 200: teamSchema } } },
    (request) => updateTeam(contextOf(request), request.params.teamId, request.body),
  );
  app.delete("/api/teams/:teamId", { schema: { params: teamIdParamsSchema } }, async (request, reply) => {
    await deleteTeam(contextOf(request), request.params.teamId);
    return reply.status(204).send();
  });

  app.get("/api/routing", { schema: { response: { 200: routingSchema } } }, (request) =>
    getRouting(contextOf(request)),
  );
  app.post(
    "/api/routing/rules",
    { schema: { body: routingRuleInputSchema, response: { 201: routingRuleSchema } } },
    async (request, reply) => reply.status(201).send(await addRoutingRule(contextOf(request), request.body)),
  );
  app.put(
    "/api/routing/rules/order",
    { schema: { body: routingOrderInputSchema, response: { 200: routingSchema } } },
    (request) => reorderRoutingRules(contextOf(request), request.body),
  );
  app.put(
    "/api/routing/rules/:ruleId",
    {
      schema: {
        params: routingRuleIdParamsSchema,
        body: routingRuleInputSchema,
        response: { 200: routingRuleSchema },
      },
    },
    (request) => changeRoutingRule(contextOf(request), request.params.ruleId, request.body),
  );
  app.delete(
    "/api/routing/rules/:ruleId",
    { schema: { params: routingRuleIdParamsSchema } },
    async (request, reply) => {
      await removeRoutingRule(contextOf(request), request.params.ruleId);
      return reply.status(204).send();
    },
  );
  app.put(
    "/api/routing/default-team",
    { schema: { body: defaultTeamInputSchema, response: { 200: routingSchema } } },
    (request) => setDefaultTeam(contextOf(request), request.body),
  );
}

/** Decision 069: teams (staff read them, admins change them), routing rules, and a ticket's team. */
export async function teamRoutes(fastify: FastifyInstance, deps: Deps) {
  const { contextOf } = deps;
  await fastify.register(teamAdminRoutes, deps);
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/api/teams", { schema: { response: { 200: teamListSchema } } }, (request) =>
    listTeams(contextOf(request)),
  );
  app.put(
    "/api/tickets/:ticketId/team",
    {
      schema: {
        params: z.object({ ticketId: ticketIdSchema }),
        body: changeTicketTeamInputSchema,
        response: { 200: ticketSchema },
      },
    },
    (request) => changeTicketTeam(contextOf(request), request.params.ticketId, request.body),
  );
}
