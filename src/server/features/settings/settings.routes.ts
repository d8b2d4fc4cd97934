import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import {
  adminChangePageSchema,
  adminChangeQuerySchema,
  type SettingAreaName,
  settingAreaNames,
  settingEnvelopeSchema,
} from "#shared/settings/settings.schemas.ts";
import { settingAreas } from "./setting-areas.ts";
import { getSetting, listAdminChanges, requireSettingsManager, updateSetting } from "./settings.service.ts";

/** /api/admin/settings/*: administrators only (the service refuses everyone else with 403). */
export async function settingsRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Only administrators learn anything here, even what was wrong with a body they sent.
  app.addHook("preValidation", async (request) => requireSettingsManager(contextOf(request)));

  for (const name of settingAreaNames) registerArea(name);

  function registerArea<N extends SettingAreaName>(name: N) {
    const { schema } = settingAreas[name];
    const envelope = settingEnvelopeSchema(schema);
    app.get(`/api/admin/settings/${name}`, { schema: { response: { 200: envelope } } }, (request) =>
      getSetting(contextOf(request), name),
    );
    app.put(
      `/api/admin/settings/${name}`,
      { schema: { body: schema, response: { 200: envelope } } },
      // biome-ignore lint/suspicious/noExplicitAny: the body is the area's own schema's output
      (request) => updateSetting(contextOf(request), name, request.body as any),
    );
  }

  app.get(
    "/api/admin/settings/history",
    { schema: { querystring: adminChangeQuerySchema, response: { 200: adminChangePageSchema } } },
    (request) => listAdminChanges(contextOf(request), request.query),
  );
}
