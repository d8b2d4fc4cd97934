import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { ServiceContext } from "#server/context.ts";
import { exportTicketsQuerySchema } from "#shared/tickets/ticket.schemas.ts";
import { exportUsersQuerySchema } from "#shared/users/user-management.schemas.ts";
import type { CsvExport } from "./csv-stream.ts";
import { exportTicketsFor } from "./ticket-export.service.ts";
import { exportUsers } from "./user-export.service.ts";

/**
 * Streams the export: the services have already checked the caller and read the first page, so what
 * could be refused was refused with a JSON error. A failure later cuts the download short (the
 * connection closes without the final chunk, and the browser reports the download as failed).
 * Compression (gzip/br, http/compression.ts) applies to text/csv as to any text.
 */
function sendCsv(reply: FastifyReply, { filename, chunks }: CsvExport) {
  return reply
    .type("text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${filename}"`)
    .send(Readable.from(chunks, { objectMode: false }));
}

export async function csvExportRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/tickets/export.csv",
    { schema: { querystring: exportTicketsQuerySchema } },
    async (request, reply) => sendCsv(reply, await exportTicketsFor(contextOf(request), request.query)),
  );

  app.get(
    "/api/admin/users/export.csv",
    { schema: { querystring: exportUsersQuerySchema } },
    async (request, reply) => sendCsv(reply, await exportUsers(contextOf(request), request.query)),
  );
}
