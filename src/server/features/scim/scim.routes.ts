import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import { setRateLimitHeaders } from "#server/http/rate-limit-headers.ts";
import { bearerOf } from "#server/http/session.ts";
import type { RateUsage } from "#server/rate-limit.ts";
import type { Actor } from "#shared/permissions.ts";
import {
  scimContentType,
  scimErrorSchema,
  scimIdParamsSchema,
  scimListQuerySchema,
  scimListSchema,
  scimPatchSchema,
  scimResourceSchema,
  scimUserInputSchema,
  scimUserSchema,
} from "#shared/scim/scim.schemas.ts";
import { resourceTypes, schemas, serviceProviderConfig } from "./scim-discovery.ts";
import { ScimError } from "./scim-error.ts";
import { registerScimErrors } from "./scim-error-handler.ts";
import {
  createScimUser,
  deactivateScimUser,
  getScimUser,
  listScimUsers,
  patchScimUser,
  replaceScimUser,
  scimMaxResults,
} from "./scim-user.service.ts";

export interface ScimRoutesDeps {
  baseURL: string;
  /** scim-token.service.ts's authenticateScimToken, bound to the app's database, clock and rate limit. */
  authenticate: (bearer: string | null, onRateCounted: (usage: RateUsage) => void) => Promise<Actor>;
  contextOf: (request: FastifyRequest) => ServiceContext;
}

const security = [{ scimBearer: [] }];
const failure = { "4XX": scimErrorSchema };

/**
 * /scim/v2 (decision 081): SCIM 2.0 provisioning of people for Entra ID, Okta and other identity
 * providers, with a SCIM token (never a session or a personal API token). Registered with the prefix
 * /scim/v2: its own body parser (application/scim+json), error shape and 404, outside /api's.
 */
export async function scimRoutes(fastify: FastifyInstance, deps: ScimRoutesDeps) {
  const { baseURL, contextOf } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addContentTypeParser(
    scimContentType,
    { parseAs: "string" },
    app.getDefaultJsonParser("error", "error"),
  );
  registerScimErrors(app);
  // Before the body is read: a caller without a valid token learns nothing about the bodies.
  app.addHook("onRequest", async (request, reply) => {
    request.actor = await deps.authenticate(bearerOf(request), (usage) =>
      setRateLimitHeaders(reply, "scim-token", usage),
    );
  });

  app.get(
    "/ServiceProviderConfig",
    { schema: { security, response: { 200: scimResourceSchema, ...failure } } },
    async () => serviceProviderConfig(baseURL, scimMaxResults),
  );
  app.get(
    "/ResourceTypes",
    { schema: { security, response: { 200: scimListSchema, ...failure } } },
    async () => resourceTypes(baseURL),
  );
  app.get("/Schemas", { schema: { security, response: { 200: scimListSchema, ...failure } } }, async () =>
    schemas(baseURL),
  );

  app.get(
    "/Users",
    { schema: { security, querystring: scimListQuerySchema, response: { 200: scimListSchema, ...failure } } },
    (request) => listScimUsers(contextOf(request), baseURL, request.query),
  );
  app.post(
    "/Users",
    { schema: { security, body: scimUserInputSchema, response: { 201: scimUserSchema, ...failure } } },
    async (request, reply) => {
      const user = await createScimUser(contextOf(request), baseURL, request.body);
      return reply.status(201).header("location", user.meta.location).send(user);
    },
  );
  app.get(
    "/Users/:id",
    { schema: { security, params: scimIdParamsSchema, response: { 200: scimUserSchema, ...failure } } },
    (request) => getScimUser(contextOf(request), baseURL, request.params.id),
  );
  app.put(
    "/Users/:id",
    {
      schema: {
        security,
        params: scimIdParamsSchema,
        body: scimUserInputSchema,
        response: { 200: scimUserSchema, ...failure },
      },
    },
    (request) => replaceScimUser(contextOf(request), baseURL, request.params.id, request.body),
  );
  app.patch(
    "/Users/:id",
    {
      schema: {
        security,
        params: scimIdParamsSchema,
        body: scimPatchSchema,
        response: { 200: scimUserSchema, ...failure },
      },
    },
    (request) => patchScimUser(contextOf(request), baseURL, request.params.id, request.body),
  );
  app.delete(
    "/Users/:id",
    { schema: { security, params: scimIdParamsSchema, response: failure } },
    async (request, reply) => {
      await deactivateScimUser(contextOf(request), baseURL, request.params.id);
      // Only failures have a schema here (SCIM's error shape); the 204 has no body.
      return reply.status(204).send(undefined as never);
    },
  );

  app.setNotFoundHandler(async (request, reply) => {
    const unknown = new ScimError(404, `No SCIM endpoint ${request.method} ${request.url.split("?")[0]}`);
    return reply.status(404).send(unknown.toBody());
  });
}
