import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import { requireSettingsManager } from "#server/features/settings/settings.service.ts";
import {
  activeCustomFieldsQuerySchema,
  customFieldIdSchema,
  customFieldInputSchema,
  customFieldListSchema,
  customFieldOrderInputSchema,
  customFieldRetiredInputSchema,
  customFieldSchema,
  editTicketCustomFieldsInputSchema,
  ticketCustomFieldsSchema,
} from "#shared/custom-fields/custom-field.schemas.ts";
import { ticketIdSchema } from "#shared/tickets/ticket.schemas.ts";
import {
  createCustomField,
  listActiveCustomFields,
  listCustomFieldsForAdmin,
  reorderCustomFields,
  setCustomFieldRetired,
  updateCustomFieldDefinition,
} from "./custom-field.service.ts";
import { editTicketCustomFields, getTicketCustomFields } from "./custom-field-values.service.ts";

type Deps = { contextOf: (request: FastifyRequest) => ServiceContext };

const base = "/api/admin/settings/custom-fields";
const fieldParams = z.object({ fieldId: customFieldIdSchema });
const ticketParams = z.object({ ticketId: ticketIdSchema });

/** Defining the fields: Admin settings, administrators only (refused before the body is read). */
async function customFieldAdminRoutes(fastify: FastifyInstance, { contextOf }: Deps) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.addHook("preValidation", async (request) => requireSettingsManager(contextOf(request)));

  app.get(base, { schema: { response: { 200: customFieldListSchema } } }, (request) =>
    listCustomFieldsForAdmin(contextOf(request)),
  );
  app.post(
    base,
    { schema: { body: customFieldInputSchema, response: { 201: customFieldSchema } } },
    async (request, reply) =>
      reply.status(201).send(await createCustomField(contextOf(request), request.body)),
  );
  app.put(
    `${base}/order`,
    { schema: { body: customFieldOrderInputSchema, response: { 200: customFieldListSchema } } },
    (request) => reorderCustomFields(contextOf(request), request.body),
  );
  app.put(
    `${base}/:fieldId`,
    { schema: { params: fieldParams, body: customFieldInputSchema, response: { 200: customFieldSchema } } },
    (request) => updateCustomFieldDefinition(contextOf(request), request.params.fieldId, request.body),
  );
  app.put(
    `${base}/:fieldId/retired`,
    {
      schema: {
        params: fieldParams,
        body: customFieldRetiredInputSchema,
        response: { 200: customFieldSchema },
      },
    },
    (request) => setCustomFieldRetired(contextOf(request), request.params.fieldId, request.body),
  );
}

/** Decision 022: defining custom fields, reading them for the forms, and a ticket's values. */
export async function customFieldRoutes(fastify: FastifyInstance, deps: Deps) {
  const { contextOf } = deps;
  await fastify.register(customFieldAdminRoutes, deps);
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/custom-fields",
    { schema: { querystring: activeCustomFieldsQuerySchema, response: { 200: customFieldListSchema } } },
    (request) => listActiveCustomFields(contextOf(request), request.query.category),
  );
  app.get(
    "/api/tickets/:ticketId/custom-fields",
    { schema: { params: ticketParams, response: { 200: ticketCustomFieldsSchema } } },
    (request) => getTicketCustomFields(contextOf(request), request.params.ticketId),
  );
  app.put(
    "/api/tickets/:ticketId/custom-fields",
    {
      schema: {
        params: ticketParams,
        body: editTicketCustomFieldsInputSchema,
        response: { 200: ticketCustomFieldsSchema },
      },
    },
    (request) => editTicketCustomFields(contextOf(request), request.params.ticketId, request.body),
  );
}
