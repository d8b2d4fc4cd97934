import type { FastifyInstance } from "fastify";
import type { BackgroundWork } from "./app-background.ts";
import type { AppLifecycle } from "./app-fastify.ts";
import type { JobRunner } from "./jobs/job-runner.ts";

/**
 * app.drain() for a shutdown (/readyz answers 503, the live streams end with a retry hint), and the
 * streams and the bus closed with the app.
 */
export function registerStreamShutdown(
  app: FastifyInstance,
  lifecycle: AppLifecycle,
  { hub, bus }: Pick<BackgroundWork, "hub" | "bus">,
) {
  lifecycle.openStreams = () => hub.size;
  app.decorate("drain", () => {
    lifecycle.draining = true;
    // The streams would not end by themselves: closing them now sends their browsers to another instance.
    hub.close();
  });
  // Open streams would hold the server open: finish deliveries under way, end the streams, then stop listening.
  app.addHook("preClose", async () => {
    await hub.settled();
    hub.close();
  });
  app.addHook("onClose", () => bus.close());
}

/** The jobs start once the app is ready; on close the work under way finishes, then the heartbeat row goes. */
export function registerJobsAndHeartbeatShutdown(
  app: FastifyInstance,
  jobs: JobRunner,
  {
    mailDispatcher,
    webhookSender,
    liveness,
  }: Pick<BackgroundWork, "mailDispatcher" | "webhookSender" | "liveness">,
) {
  app.addHook("onReady", async () => jobs.start());
  app.addHook("onClose", () => jobs.stop());
  // Last: once the work under way has finished, this instance's heartbeat row goes (it held no claims).
  app.addHook("onClose", async () => {
    await Promise.all([mailDispatcher.stop(), webhookSender.stop(), jobs.stop()]);
    await liveness.stop();
  });
}
