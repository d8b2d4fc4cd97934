import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import {
  reportQuerySchema,
  responseTimesReportSchema,
  satisfactionReportSchema,
  teamReportSchema,
  ticketBreakdownReportSchema,
  ticketVolumeReportSchema,
  workloadReportSchema,
} from "#shared/reports/report.schemas.ts";
import {
  reportByTeam,
  reportResponseTimes,
  reportSatisfaction,
  reportTicketBreakdown,
  reportTicketVolume,
  reportWorkload,
  requireReportsViewer,
} from "./report.service.ts";

/**
 * /api/reports/*: one small answer per chart, so the page loads them in parallel and each is timed on its
 * own (bench/reports.ts). Technicians and administrators only (the service refuses users with 403).
 */
export async function reportRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const querystring = reportQuerySchema;
  // Who may ask comes before what they ask: anonymous 401 and users 403 even with a bad range.
  app.addHook("preValidation", async (request) => requireReportsViewer(contextOf(request)));

  app.get(
    "/api/reports/ticket-volume",
    { schema: { querystring, response: { 200: ticketVolumeReportSchema } } },
    (request) => reportTicketVolume(contextOf(request), request.query),
  );
  app.get(
    "/api/reports/ticket-breakdown",
    { schema: { querystring, response: { 200: ticketBreakdownReportSchema } } },
    (request) => reportTicketBreakdown(contextOf(request), request.query),
  );
  app.get(
    "/api/reports/response-times",
    { schema: { querystring, response: { 200: responseTimesReportSchema } } },
    (request) => reportResponseTimes(contextOf(request), request.query),
  );
  app.get(
    "/api/reports/satisfaction",
    { schema: { querystring, response: { 200: satisfactionReportSchema } } },
    (request) => reportSatisfaction(contextOf(request), request.query),
  );
  app.get("/api/reports/teams", { schema: { querystring, response: { 200: teamReportSchema } } }, (request) =>
    reportByTeam(contextOf(request), request.query),
  );
  app.get("/api/reports/workload", { schema: { response: { 200: workloadReportSchema } } }, (request) =>
    reportWorkload(contextOf(request)),
  );
}
