import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import { staffDirectoryQuerySchema, staffMemberSchema } from "#shared/mentions/mention.schemas.ts";
import { listStaff } from "./mention.service.ts";

export async function mentionRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/staff",
    { schema: { querystring: staffDirectoryQuerySchema, response: { 200: z.array(staffMemberSchema) } } },
    (request) => listStaff(contextOf(request), request.query),
  );
}
