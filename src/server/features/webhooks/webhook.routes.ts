import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import {
  createWebhookInputSchema,
  updateWebhookInputSchema,
  webhookDeliveryPageSchema,
  webhookDeliveryParamsSchema,
  webhookDeliveryQuerySchema,
  webhookDeliverySchema,
  webhookIdParamsSchema,
  webhookListSchema,
  webhookSchema,
  webhookTestResultSchema,
  webhookWithSecretSchema,
} from "#shared/webhooks/webhook.schemas.ts";
import {
  createWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhook,
  removeWebhook,
  requireWebhookManager,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhook,
  type WebhookTargetPolicy,
} from "./webhook.service.ts";

/** /api/admin/webhooks: administrators only (decision 029). */
export async function webhookRoutes(
  fastify: FastifyInstance,
  {
    contextOf,
    policy,
    wakeSender,
  }: {
    contextOf: (request: FastifyRequest) => ServiceContext;
    policy: WebhookTargetPolicy;
    wakeSender: () => void;
  },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Only administrators learn anything here, even what was wrong with a body they sent.
  app.addHook("preValidation", async (request) => requireWebhookManager(contextOf(request)));

  app.get("/api/admin/webhooks", { schema: { response: { 200: webhookListSchema } } }, (request) =>
    listWebhooks(contextOf(request)),
  );

  app.post(
    "/api/admin/webhooks",
    { schema: { body: createWebhookInputSchema, response: { 201: webhookWithSecretSchema } } },
    async (request, reply) =>
      reply.status(201).send(await createWebhook(contextOf(request), request.body, policy)),
  );

  app.get(
    "/api/admin/webhooks/:webhookId",
    { schema: { params: webhookIdParamsSchema, response: { 200: webhookSchema } } },
    (request) => getWebhook(contextOf(request), request.params.webhookId),
  );

  app.patch(
    "/api/admin/webhooks/:webhookId",
    {
      schema: {
        params: webhookIdParamsSchema,
        body: updateWebhookInputSchema,
        response: { 200: webhookSchema },
      },
    },
    async (request) => {
      const updated = await updateWebhook(contextOf(request), request.params.webhookId, request.body, policy);
      // Switched on: deliveries that fell due while it was paused go now, not at the next look (decision 056).
      if (updated.active) wakeSender();
      return updated;
    },
  );

  app.delete(
    "/api/admin/webhooks/:webhookId",
    { schema: { params: webhookIdParamsSchema } },
    async (request, reply) => {
      await removeWebhook(contextOf(request), request.params.webhookId);
      return reply.status(204).send();
    },
  );

  app.post(
    "/api/admin/webhooks/:webhookId/rotate-secret",
    { schema: { params: webhookIdParamsSchema, response: { 200: webhookWithSecretSchema } } },
    (request) => rotateWebhookSecret(contextOf(request), request.params.webhookId),
  );

  // Decision 080: a signed test event now, answered with its outcome (the admin sees it at once).
  app.post(
    "/api/admin/webhooks/:webhookId/test",
    { schema: { params: webhookIdParamsSchema, response: { 200: webhookTestResultSchema } } },
    (request) => sendTestWebhook(contextOf(request), request.params.webhookId, policy),
  );

  app.get(
    "/api/admin/webhooks/:webhookId/deliveries",
    {
      schema: {
        params: webhookIdParamsSchema,
        querystring: webhookDeliveryQuerySchema,
        response: { 200: webhookDeliveryPageSchema },
      },
    },
    (request) => listWebhookDeliveries(contextOf(request), request.params.webhookId, request.query),
  );

  app.post(
    "/api/admin/webhooks/:webhookId/deliveries/:deliveryId/redeliver",
    { schema: { params: webhookDeliveryParamsSchema, response: { 201: webhookDeliverySchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await redeliverWebhook(
            contextOf(request),
            request.params.webhookId,
            request.params.deliveryId,
            wakeSender,
          ),
        ),
  );
}
