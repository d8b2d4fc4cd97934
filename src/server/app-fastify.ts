import { randomUUID } from "node:crypto";
import Fastify, { type FastifyServerOptions, LogController } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { AppDeps } from "./app-deps.ts";
import type { TrustProxy } from "./env.ts";
import { freeBytesOf } from "./http/disk-space-guard.ts";
import { answerFrameworkError } from "./http/error-handler.ts";
import { createMetrics, registerRequestMetrics } from "./http/metrics.ts";

/** What the app's hooks read while it runs: shutting down, and how many live streams are open. */
export interface AppLifecycle {
  draining: boolean;
  openStreams: () => number;
}

/**
 * Fastify ignores a bare hop count (it trusts no hop then), so a count becomes "trust the first n
 * hops counted from our socket": the entry just left of them in X-Forwarded-For is the client.
 */
const toFastifyTrustProxy = (trust: TrustProxy) =>
  typeof trust === "number" ? (_address: string, hop: number) => hop < trust : trust;

/**
 * zod's compilers for every route (fastify-type-provider-zod). Given to Fastify() rather than set
 * afterwards, Fastify never loads its default ones (Ajv and fast-json-stringify): a tenth to a third of a
 * second of every start, a restart after a crash included. (Fastify types these factories for Ajv's
 * schemas; the routes' schemas are zod's.)
 */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"];

/** The Fastify instance with its metrics, request logging and the headers every answer carries. */
export function createFastifyApp(deps: AppDeps, bodyLimit: number, lifecycle: AppLifecycle) {
  const app = Fastify({
    logger: deps.logger ?? false,
    // Fastify's two info lines per request cost more CPU than a list query (decision 039): one line at the
    // end instead, at debug level, and at warn for a slow request. Failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    trustProxy: toFastifyTrustProxy(deps.trustProxy ?? false),
    genReqId: (request) => {
      const incoming = request.headers["x-request-id"];
      return typeof incoming === "string" && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    frameworkErrors: answerFrameworkError,
    schemaController: { compilersFactory: zodCompilers },
  });
  const { diskSpace } = deps;
  const metrics = createMetrics({
    database: deps.database,
    openStreams: () => lifecycle.openStreams(),
    dataDirFreeBytes: diskSpace && (() => (diskSpace.freeBytes ?? freeBytesOf)(diskSpace.dir)),
  });
  app.decorate("metrics", metrics);
  registerRequestMetrics(app, metrics);
  const slowRequestMs = deps.slowRequestMs ?? 1_000;
  const logsEachRequest = app.log.level === "debug" || app.log.level === "trace";
  app.addHook("onResponse", async (request, reply) => {
    const responseTime = reply.elapsedTime;
    const slow = responseTime >= slowRequestMs;
    if (!slow && !logsEachRequest) return;
    const facts = {
      req: { method: request.method, url: request.url, remoteAddress: request.ip },
      res: { statusCode: reply.statusCode },
      responseTime,
    };
    if (slow) request.log.warn(facts, "slow request");
    else request.log.debug(facts, "request completed");
  });
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
    // Shutting down: a kept-alive connection would hold the server open after its last answer.
    if (lifecycle.draining) reply.header("connection", "close");
    // API answers are personal and change at any moment: no browser or proxy cache may keep one.
    // (An attachment download sets its own: private and immutable, its bytes never change.)
    if (request.url.startsWith("/api/") && !reply.hasHeader("cache-control"))
      reply.header("cache-control", "no-store");
  });
  return { app, metrics };
}
