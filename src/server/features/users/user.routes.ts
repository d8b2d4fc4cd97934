import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { meSchema } from "#shared/users/user.schemas.ts";
import type { ServiceContext } from "../../context.ts";
import { getMe } from "./user.service.ts";

export async function userRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get("/api/me", { schema: { response: { 200: meSchema } } }, (request) => getMe(contextOf(request)));
}
