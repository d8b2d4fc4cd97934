import type { FastifyInstance } from "fastify";
import type { AppLifecycle } from "./app-fastify.ts";
import { type Database, pingWithin } from "./db/client.ts";
import { databaseUnavailable } from "./errors.ts";

/** Load balancers wait about this long for /readyz; a stalled database must not keep them waiting longer. */
const readinessTimeoutMs = 1_000;

/** Starts the health gate (PostgreSQL, decision 049), with one log line when it closes and one when it opens. */
export function watchDatabaseHealth(app: FastifyInstance, database: Database) {
  const { health } = database;
  if (!health) return;
  health.start();
  // One line when the gate closes and one when it opens; the requests refused meanwhile log nothing more.
  const stopLogging = health.onChange(({ available, reason, unavailableForMs }) => {
    if (!available) {
      app.log.warn(
        `${database.location} is not answering (${reason}): requests that need it answer 503 until it does`,
      );
    } else {
      app.log.info(
        `${database.location} is answering again after ${((unavailableForMs ?? 0) / 1000).toFixed(1)} s`,
      );
    }
  });
  app.addHook("onClose", async () => stopLogging());
}

/** False at once while the health gate is closed; otherwise whether a ping through the pool answers. */
export const databaseAnsweringCheck = (database: Database) => () =>
  database.health && !database.health.isAvailable()
    ? Promise.resolve(false)
    : pingWithin(database, readinessTimeoutMs).then(
        () => true,
        () => false,
      );

/** GET /readyz: 503 while draining or while the database does not answer within readinessTimeoutMs. */
export function registerReadiness(app: FastifyInstance, database: Database, lifecycle: AppLifecycle) {
  const { health } = database;
  app.get("/readyz", async (_request, reply) => {
    // Shutting down: the load balancer takes this instance out while the requests under way finish.
    if (lifecycle.draining) return reply.status(503).send({ status: "draining" });
    // The gate's warning said it once; a balancer asking every few seconds needs no line each time.
    if (health && !health.isAvailable()) throw databaseUnavailable();
    try {
      await pingWithin(database, readinessTimeoutMs);
      return { status: "ok", database: database.kind };
    } catch (error) {
      if (health?.isAvailable() !== false) app.log.warn({ err: error }, "database did not answer");
      throw databaseUnavailable();
    }
  });
}
