import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  createNotificationInputSchema,
  listNotificationsQuerySchema,
  markAllReadResultSchema,
  notificationCountsSchema,
  notificationIdSchema,
  notificationPageSchema,
  notificationSchema,
} from "#shared/notifications/notification.schemas.ts";
import type { ServiceContext } from "../../context.ts";
import {
  countNotificationsFor,
  createNotification,
  listNotificationsFor,
  markAllAsRead,
  markAsRead,
} from "./notification.service.ts";

const params = z.object({ notificationId: notificationIdSchema });

export async function notificationRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/notifications",
    { schema: { querystring: listNotificationsQuerySchema, response: { 200: notificationPageSchema } } },
    (request) => listNotificationsFor(contextOf(request), request.query),
  );

  app.get(
    "/api/notifications/counts",
    { schema: { response: { 200: notificationCountsSchema } } },
    (request) => countNotificationsFor(contextOf(request)),
  );

  app.post(
    "/api/notifications/read-all",
    { schema: { response: { 200: markAllReadResultSchema } } },
    (request) => markAllAsRead(contextOf(request)),
  );

  app.post(
    "/api/notifications/:notificationId/read",
    { schema: { params, response: { 200: notificationSchema } } },
    (request) => markAsRead(contextOf(request), request.params.notificationId),
  );

  app.post(
    "/api/notifications",
    { schema: { body: createNotificationInputSchema, response: { 201: notificationSchema } } },
    async (request, reply) =>
      reply.status(201).send(await createNotification(contextOf(request), request.body)),
  );
}
