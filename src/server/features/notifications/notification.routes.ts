import type { ServerResponse } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import {
  createNotificationInputSchema,
  listNotificationsQuerySchema,
  markAllReadResultSchema,
  notificationCountsSchema,
  notificationIdSchema,
  notificationPageSchema,
  notificationSchema,
  streamPositionSchema,
} from "#shared/notifications/notification.schemas.ts";
import type { Actor } from "#shared/permissions.ts";
import {
  countNotificationsFor,
  createNotification,
  listNotificationsFor,
  markAllAsRead,
  markAsRead,
} from "./notification.service.ts";
import type { StreamClient, StreamHub } from "./stream-hub.ts";

const params = z.object({ notificationId: notificationIdSchema });
const streamQuery = z.object({ lastEventId: streamPositionSchema.optional() });

/**
 * A reconnecting EventSource sends Last-Event-ID (the last notification's id, or ready's: 0 when the person had
 * none); a page's reopened stream passes ?lastEventId=.
 */
function lastEventIdOf(header: string | string[] | undefined, query: string | undefined): number | null {
  const value = typeof header === "string" && streamPositionSchema.safeParse(header).success ? header : query;
  const id = Number(value);
  return value !== undefined && Number.isSafeInteger(id) ? id : null;
}

/**
 * Node keeps a response's header block (`_header`, not a public field) as it built it: a tree of one small
 * string per piece, ~40 objects and 1.5 KB for each open stream. Reading a character makes V8 lay the tree
 * out as one flat string, and the pieces are freed. Without that field (another Node) this does nothing.
 */
function flattenHeaderBlock(response: ServerResponse) {
  const header: unknown = (response as ServerResponse & { _header?: unknown })._header;
  if (typeof header === "string") header.charCodeAt(0);
}

/** One open stream: its methods on the prototype, so that an idle stream holds three fields, not closures. */
class ResponseStream implements StreamClient {
  constructor(
    readonly actor: Actor,
    readonly sessionId: string,
    private readonly response: ServerResponse,
  ) {}
  write(chunk: string) {
    this.response.write(chunk);
  }
  end() {
    this.response.end();
  }
}

export async function notificationRoutes(
  fastify: FastifyInstance,
  { contextOf, hub }: { contextOf: (request: FastifyRequest) => ServiceContext; hub: StreamHub },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/notifications",
    { schema: { querystring: listNotificationsQuerySchema, response: { 200: notificationPageSchema } } },
    (request) => listNotificationsFor(contextOf(request), request.query),
  );

  // Hijacked: the stream is written straight to the socket so that no compression or buffering holds it.
  // An open response keeps its headers for as long as it is open, and thousands stay open: the page headers
  // (helmet's CSP and the rest, ~1 KB) say nothing to an event stream no browser renders or frames, so it
  // sends only what concerns a resource of its kind.
  app.get(
    "/api/notifications/stream",
    { schema: { querystring: streamQuery }, config: { securityHeaders: false } },
    async (request, reply) => {
      const { actor } = contextOf(request);
      const lastEventId = lastEventIdOf(request.headers["last-event-id"], request.query.lastEventId);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
        "x-content-type-options": "nosniff",
        "cross-origin-resource-policy": "same-origin",
        connection: "keep-alive",
        "x-request-id": request.id,
      });
      flattenHeaderBlock(raw);
      const client = new ResponseStream(actor, request.sessionId ?? "", raw);
      raw.on("close", () => hub.remove(client));
      try {
        await hub.open(client, lastEventId);
      } catch (error) {
        request.log.error({ err: error }, "could not open the notification stream");
        hub.remove(client);
        raw.end();
      }
    },
  );

  app.get(
    "/api/notifications/counts",
    { schema: { response: { 200: notificationCountsSchema } } },
    (request) => countNotificationsFor(contextOf(request)),
  );

  app.post(
    "/api/notifications/read-all",
    { schema: { response: { 200: markAllReadResultSchema } } },
    (request) => markAllAsRead(contextOf(request)),
  );

  app.post(
    "/api/notifications/:notificationId/read",
    { schema: { params, response: { 200: notificationSchema } } },
    (request) => markAsRead(contextOf(request), request.params.notificationId),
  );

  app.post(
    "/api/notifications",
    { schema: { body: createNotificationInputSchema, response: { 201: notificationSchema } } },
    async (request, reply) =>
      reply.status(201).send(await createNotification(contextOf(request), request.body)),
  );
}
