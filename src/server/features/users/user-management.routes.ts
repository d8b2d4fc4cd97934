import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import {
  changeUserStatusInputSchema,
  editUserInputSchema,
  historyQuerySchema,
  inviteUserInputSchema,
  listUsersQuerySchema,
  managedUserSchema,
  messageSchema,
  userHistoryPageSchema,
  userIdParamsSchema,
  userPageSchema,
  userSummarySchema,
} from "#shared/users/user-management.schemas.ts";
import {
  changeUserStatus,
  editUser,
  getUserHistory,
  inviteUser,
  listUsers,
  sendPasswordReset,
  summarizeUsers,
  type UserManagementDeps,
} from "./user-management.service.ts";

export interface UserManagementRoutesDeps extends UserManagementDeps {
  contextOf: (request: FastifyRequest) => ServiceContext;
}

/** /api/admin/users: admins only (the services refuse everyone else with 403). */
export async function userManagementRoutes(fastify: FastifyInstance, deps: UserManagementRoutesDeps) {
  const { contextOf } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const params = userIdParamsSchema;

  app.get(
    "/api/admin/users",
    { schema: { querystring: listUsersQuerySchema, response: { 200: userPageSchema } } },
    (request) => listUsers(contextOf(request), request.query),
  );

  app.get("/api/admin/users/summary", { schema: { response: { 200: userSummarySchema } } }, (request) =>
    summarizeUsers(contextOf(request)),
  );

  app.post(
    "/api/admin/users",
    { schema: { body: inviteUserInputSchema, response: { 201: managedUserSchema } } },
    async (request, reply) =>
      reply.status(201).send(await inviteUser(contextOf(request), deps, request.body)),
  );

  app.patch(
    "/api/admin/users/:userId",
    { schema: { params, body: editUserInputSchema, response: { 200: managedUserSchema } } },
    (request) => editUser(contextOf(request), request.params.userId, request.body),
  );

  app.put(
    "/api/admin/users/:userId/status",
    { schema: { params, body: changeUserStatusInputSchema, response: { 200: managedUserSchema } } },
    (request) => changeUserStatus(contextOf(request), request.params.userId, request.body),
  );

  app.post(
    "/api/admin/users/:userId/password-reset",
    { schema: { params, response: { 200: messageSchema } } },
    (request) => sendPasswordReset(contextOf(request), deps, request.params.userId),
  );

  app.get(
    "/api/admin/users/:userId/history",
    { schema: { params, querystring: historyQuerySchema, response: { 200: userHistoryPageSchema } } },
    (request) => getUserHistory(contextOf(request), request.params.userId, request.query.cursor),
  );
}
