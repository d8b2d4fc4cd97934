import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import {
  notificationSettingsSchema,
  type UnsubscribeResult,
  unsubscribeInputSchema,
  unsubscribeResultSchema,
} from "#shared/notifications/notification.schemas.ts";
import { getNotificationSettings, updateNotificationSettings } from "./notification-settings.service.ts";

export async function notificationSettingsRoutes(
  fastify: FastifyInstance,
  {
    contextOf,
    unsubscribe,
  }: {
    contextOf: (request: FastifyRequest) => ServiceContext;
    unsubscribe: (token: string) => Promise<UnsubscribeResult>;
  },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // RFC 8058 one-click: a mail provider POSTs the form body "List-Unsubscribe=One-Click" to the address
  // in the List-Unsubscribe header, whose query holds the token. Such a body is read as { token } so that
  // it goes through the same schema and service as the JSON call of the /unsubscribe page. (Scoped to
  // this plugin: no other route accepts form bodies.)
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (request, body, done) => {
      const isOneClick = new URLSearchParams(String(body)).get("List-Unsubscribe") === "One-Click";
      const token = new URL(request.url, "http://localhost").searchParams.get("token");
      done(null, isOneClick && token ? { token } : {});
    },
  );

  app.get(
    "/api/me/notification-settings",
    { schema: { response: { 200: notificationSettingsSchema } } },
    (request) => getNotificationSettings(contextOf(request)),
  );

  app.put(
    "/api/me/notification-settings",
    { schema: { body: notificationSettingsSchema, response: { 200: notificationSettingsSchema } } },
    (request) => updateNotificationSettings(contextOf(request), request.body),
  );

  // No session needed: the signed token is the authority, and it can only turn one type of mail off.
  app.post(
    "/api/notifications/unsubscribe",
    { schema: { body: unsubscribeInputSchema, response: { 200: unsubscribeResultSchema } } },
    (request) => unsubscribe(request.body.token),
  );

  // Opening the header's address in a browser (or a link scanner fetching it) changes nothing here: it
  // leads to the /unsubscribe page, the same as the link in the mail's text.
  app.get(
    "/api/notifications/unsubscribe",
    { schema: { querystring: z.object({ token: z.string().max(500).default("") }) } },
    (request, reply) => reply.redirect(`/unsubscribe?token=${encodeURIComponent(request.query.token)}`, 303),
  );
}
