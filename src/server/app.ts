import { startBackgroundWork } from "./app-background.ts";
import { databaseAnsweringCheck, watchDatabaseHealth } from "./app-database-health.ts";
import type { AppDeps } from "./app-deps.ts";
import { type AppLifecycle, createFastifyApp } from "./app-fastify.ts";
import { createScheduledJobs, startInboundMail } from "./app-jobs.ts";
import { createAuthentication, registerFeatureRoutes, registerRequestHandling } from "./app-routes.ts";
import { registerJobsAndHeartbeatShutdown, registerStreamShutdown } from "./app-shutdown.ts";
import { systemClock } from "./clock.ts";

const defaultBodyLimit = 64 * 1024;

/**
 * Wires everything. main.ts calls it with the configuration; tests call it with a test database.
 * The order matters: Fastify runs the hooks of one kind in the order they are added.
 */
export async function buildApp(deps: AppDeps) {
  const bodyLimit = deps.bodyLimit ?? defaultBodyLimit;
  const lifecycle: AppLifecycle = { draining: false, openStreams: () => 0 };
  const { app, metrics } = createFastifyApp(deps, bodyLimit, lifecycle);
  watchDatabaseHealth(app, deps.database);
  const isDatabaseAnswering = databaseAnsweringCheck(deps.database);
  const { auth, signInLimits, credentialRateLimit } = createAuthentication(
    deps,
    (userId) =>
      // Called after commit, long after `work` below exists.
      work.dispatcher.dispatch([{ kind: "session-ended", userId }]),
    (message) => app.log.warn(message),
  );
  const clock = deps.clock ?? systemClock;
  const work = await startBackgroundWork(app, deps, clock);
  registerStreamShutdown(app, lifecycle, work);

  const services = {
    auth,
    signInLimits,
    credentialRateLimit,
    isDatabaseAnswering,
    clock,
    metrics,
    lifecycle,
    bodyLimit,
    work,
  };
  await registerRequestHandling(app, deps, services);
  await registerFeatureRoutes(app, deps, services);

  const jobs = createScheduledJobs(app, deps, { clock, metrics, work });
  await startInboundMail(app, deps, { clock, work });
  registerJobsAndHeartbeatShutdown(app, jobs, work);
  return app;
}
