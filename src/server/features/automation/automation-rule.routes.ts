import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import {
  automationRuleEnabledInputSchema,
  automationRuleIdParamsSchema,
  automationRuleInputSchema,
  automationRuleListSchema,
  automationRuleOrderInputSchema,
  automationRuleSchema,
  automationRuleTryInputSchema,
  automationRuleTrySchema,
} from "#shared/automation/automation-rule.schemas.ts";
import {
  addAutomationRule,
  changeAutomationRule,
  listAutomationRules,
  removeAutomationRule,
  reorderAutomationRules,
  requireAutomationManager,
  setAutomationRuleEnabled,
  tryAutomationRule,
} from "./automation-rule.service.ts";

type Deps = { contextOf: (request: FastifyRequest) => ServiceContext };

/** Decision 076: administrators write, order, try and switch automation rules (refused before the body). */
export async function automationRuleRoutes(fastify: FastifyInstance, { contextOf }: Deps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook("preValidation", async (request) => requireAutomationManager(contextOf(request)));

  app.get("/api/automation/rules", { schema: { response: { 200: automationRuleListSchema } } }, (request) =>
    listAutomationRules(contextOf(request)),
  );
  app.post(
    "/api/automation/rules",
    { schema: { body: automationRuleInputSchema, response: { 201: automationRuleSchema } } },
    async (request, reply) =>
      reply.status(201).send(await addAutomationRule(contextOf(request), request.body)),
  );
  app.post(
    "/api/automation/rules/try",
    { schema: { body: automationRuleTryInputSchema, response: { 200: automationRuleTrySchema } } },
    (request) => tryAutomationRule(contextOf(request), request.body.conditions),
  );
  app.put(
    "/api/automation/rules/order",
    { schema: { body: automationRuleOrderInputSchema, response: { 200: automationRuleListSchema } } },
    (request) => reorderAutomationRules(contextOf(request), request.body),
  );
  app.put(
    "/api/automation/rules/:automationRuleId",
    {
      schema: {
        params: automationRuleIdParamsSchema,
        body: automationRuleInputSchema,
        response: { 200: automationRuleSchema },
      },
    },
    (request) => changeAutomationRule(contextOf(request), request.params.automationRuleId, request.body),
  );
  app.put(
    "/api/automation/rules/:automationRuleId/enabled",
    {
      schema: {
        params: automationRuleIdParamsSchema,
        body: automationRuleEnabledInputSchema,
        response: { 200: automationRuleSchema },
      },
    },
    (request) => setAutomationRuleEnabled(contextOf(request), request.params.automationRuleId, request.body),
  );
  app.delete(
    "/api/automation/rules/:automationRuleId",
    { schema: { params: automationRuleIdParamsSchema } },
    async (request, reply) => {
      await removeAutomationRule(contextOf(request), request.params.automationRuleId);
      return reply.status(204).send();
    },
  );
}
