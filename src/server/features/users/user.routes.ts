import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import { technicianSchema } from "#shared/tickets/ticket-assignment.ts";
import {
  adminSignUpInputSchema,
  chooseRoleInputSchema,
  meSchema,
  updateLocaleInputSchema,
  updateProfileInputSchema,
  updateThemeInputSchema,
} from "#shared/users/user.schemas.ts";
import type { registerAdmin } from "./admin-registration.service.ts";
import { chooseRole, getMe, listTechnicians, updateOwnAccount } from "./user.service.ts";

export interface UserRoutesDeps {
  contextOf: (request: FastifyRequest) => ServiceContext;
  registerAdminWithKey: (input: Parameters<typeof registerAdmin>[1]) => ReturnType<typeof registerAdmin>;
  adminSignUpLimit: (request: FastifyRequest) => Promise<void>;
}

export async function userRoutes(fastify: FastifyInstance, deps: UserRoutesDeps) {
  const { contextOf } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // Signed out is an answer, not a failure: 200 with null, so the app's first question (who is this?) never
  // shows as an error in the browser's console, and index.html can preload it (decision 031).
  app.get("/api/me", { schema: { response: { 200: meSchema.nullable() } } }, (request) =>
    request.actor ? getMe(contextOf(request)) : null,
  );

  app.patch(
    "/api/me",
    { schema: { body: updateProfileInputSchema, response: { 200: meSchema } } },
    (request) => updateOwnAccount(contextOf(request), request.body),
  );

  app.put(
    "/api/me/theme",
    { schema: { body: updateThemeInputSchema, response: { 200: meSchema } } },
    (request) => updateOwnAccount(contextOf(request), request.body),
  );

  app.put(
    "/api/me/locale",
    { schema: { body: updateLocaleInputSchema, response: { 200: meSchema } } },
    (request) => updateOwnAccount(contextOf(request), request.body),
  );

  app.post(
    "/api/me/role",
    { schema: { body: chooseRoleInputSchema, response: { 200: meSchema } } },
    (request) => chooseRole(contextOf(request), request.body),
  );

  app.get("/api/technicians", { schema: { response: { 200: z.array(technicianSchema) } } }, (request) =>
    listTechnicians(contextOf(request)),
  );

  app.post(
    "/api/admin-signup",
    {
      schema: { body: adminSignUpInputSchema, response: { 201: meSchema } },
      preHandler: deps.adminSignUpLimit,
    },
    async (request, reply) => reply.status(201).send(await deps.registerAdminWithKey(request.body)),
  );
}
