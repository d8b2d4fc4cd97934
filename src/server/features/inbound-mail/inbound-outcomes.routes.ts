import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import {
  inboundMessagePageSchema,
  inboundMessageQuerySchema,
} from "#shared/inbound-mail/inbound-message.schemas.ts";
import { listInboundMessages } from "./inbound-outcomes.service.ts";

/** /api/admin/inbound-mail: what became of received e-mail, administrators only (decision 083). */
export async function inboundOutcomeRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    "/api/admin/inbound-mail",
    { schema: { querystring: inboundMessageQuerySchema, response: { 200: inboundMessagePageSchema } } },
    (request) => listInboundMessages(contextOf(request), request.query),
  );
}
