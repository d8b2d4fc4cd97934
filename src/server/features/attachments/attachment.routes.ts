import type { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import { notFound } from "#server/errors.ts";
import {
  attachmentIdSchema,
  attachmentSchema,
  uploadAttachmentQuerySchema,
} from "#shared/attachments/attachment.schemas.ts";
import { type OpenedAttachment, openAttachment } from "./attachment.service.ts";
import { type UploadLimits, uploadAttachment } from "./upload-attachment.service.ts";

const params = z.object({ attachmentId: attachmentIdSchema });

/** RFC 6266/5987: an ASCII fallback for old clients and the exact UTF-8 name for everyone else. */
function contentDisposition(kind: "attachment" | "inline", fileName: string) {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function sendFile(
  reply: FastifyReply,
  { attachment, content }: OpenedAttachment,
  disposition: "attachment" | "inline",
) {
  return (
    reply
      .header("content-type", attachment.contentType)
      .header("content-length", String(attachment.size))
      .header("content-disposition", contentDisposition(disposition, attachment.fileName))
      .header("x-content-type-options", "nosniff")
      // Nothing in a file may run or load anything, even if a browser were to render it as a page.
      .header("content-security-policy", "default-src 'none'; sandbox")
      // The bytes behind an id never change; only the person it was served to may keep them.
      .header("cache-control", "private, max-age=31536000, immutable")
      .header("etag", `"${attachment.sha256}"`)
      .send(content)
  );
}

export async function attachmentRoutes(
  fastify: FastifyInstance,
  { contextOf, limits }: { contextOf: (request: FastifyRequest) => ServiceContext; limits: UploadLimits },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // The upload has its own body handling in its own scope: the raw request stream reaches the service
  // untouched (no size limit, no buffering), while every other route keeps the 64 KB JSON limit.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
    // A refusal before the body is read (too large, signed out, wrong type) must not wait for 100 MB to
    // arrive: the connection closes after the answer.
    scope.addHook("onSend", async (_request, reply) => {
      if (reply.statusCode >= 400) reply.header("connection", "close");
    });
    scope
      .withTypeProvider<ZodTypeProvider>()
      .post(
        "/api/attachments",
        { schema: { querystring: uploadAttachmentQuerySchema, response: { 201: attachmentSchema } } },
        async (request, reply) => {
          const declared = request.headers["content-length"];
          const attachment = await uploadAttachment(
            contextOf(request),
            {
              fileName: request.query.fileName,
              body: request.body as Readable | undefined,
              declaredLength: declared === undefined ? undefined : Number(declared),
            },
            limits,
          );
          return reply.status(201).send(attachment);
        },
      );
  });

  app.get("/api/attachments/:attachmentId", { schema: { params }, compress: false }, async (request, reply) =>
    sendFile(reply, await openAttachment(contextOf(request), request.params.attachmentId), "attachment"),
  );

  // Raster images only, inline, for thumbnails and the full-size view; anything else has no preview.
  app.get(
    "/api/attachments/:attachmentId/preview",
    { schema: { params }, compress: false },
    async (request, reply) => {
      const opened = await openAttachment(contextOf(request), request.params.attachmentId);
      if (!opened.attachment.isImage) {
        opened.content.destroy();
        throw notFound("Preview of attachment", request.params.attachmentId);
      }
      return sendFile(reply, opened, "inline");
    },
  );
}
