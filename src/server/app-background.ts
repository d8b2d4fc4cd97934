import type { FastifyInstance } from "fastify";
import type { AppDeps } from "./app-deps.ts";
import type { Clock } from "./clock.ts";
import { createDispatcher } from "./events/dispatcher.ts";
import {
  createTicketReadCache,
  listenForTicketChanges,
  ticketReadCacheRule,
} from "./events/ticket-read-cache.ts";
import { createTicketAutomation } from "./features/automation/run-rules.ts";
import { createStreamHub } from "./features/notifications/stream-hub.ts";
import { createPresenceHub } from "./features/presence/presence-hub.ts";
import { createWebhookSender } from "./features/webhooks/webhook-sender.ts";
import { createSessionCache, listenForSessionChanges, sessionCacheRule } from "./http/session-cache.ts";
import { createInstanceLiveness } from "./instances/instance-liveness.ts";
import { createMailDispatcher } from "./mail/mail-dispatcher.ts";
import { createInProcessBus } from "./realtime/bus.ts";
import { createPgBus } from "./realtime/pg-bus.ts";

export type BackgroundWork = Awaited<ReturnType<typeof startBackgroundWork>>;

const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1);

/**
 * What runs beside the requests: the push bus, this instance's heartbeat, the mail and webhook senders,
 * the session cache, the ticket read cache, the dispatcher the write path wakes after commit, the
 * live-stream hub and the ticket presence it carries. Each stops on the app's close.
 */
export async function startBackgroundWork(app: FastifyInstance, deps: AppDeps, clock: Clock) {
  const { database } = deps;
  const logError = (err: unknown, message: string) => app.log.error({ err }, message);
  const bus =
    deps.bus ??
    (database.url
      ? await createPgBus({
          connectionString: database.url,
          db: database.db,
          logError,
          health: database.health,
        })
      : createInProcessBus());
  // This instance's heartbeat: the work an instance that stopped beating had claimed (queued mail, webhook
  // deliveries, job leases, inbound messages) is given back within seconds, to be done by the others or by
  // this instance after a restart (docs/decisions/041-instance-liveness.md).
  let wakeJobs = () => {};
  const liveness = createInstanceLiveness({
    db: database.db,
    id: deps.jobs?.instanceId,
    log: app.log,
    clock: deps.clock,
    // Embedded PGlite: one process per data directory, so any other instance in the table is dead.
    exclusive: database.kind === "pglite",
    ...deps.liveness,
    onClaimsReleased: (released) => {
      if (released.mails > 0) mailDispatcher.wake();
      if (released.webhookDeliveries > 0) webhookSender.wake();
      if (released.jobs > 0) wakeJobs();
    },
    onAlive: () => {
      mailDispatcher.wake();
      webhookSender.wake();
    },
  });
  await liveness.start();
  // Sends the mail the write path queues (woken after each commit that queued some) and retries.
  const mailDispatcher = createMailDispatcher({
    db: database.db,
    mailer: deps.mailer,
    log: app.log,
    maxAttempts: deps.mailMaxAttempts,
    instance: liveness,
  });
  mailDispatcher.start();
  app.addHook("onClose", () => mailDispatcher.stop());
  // Sends the webhook deliveries the write path queues, off the request path (decision 029).
  const webhookPolicy = {
    allowPrivate: deps.webhooks?.allowPrivate ?? false,
    resolve: deps.webhooks?.resolve,
    timeoutMs: deps.webhooks?.timeoutMs,
  };
  const webhookSender = createWebhookSender({
    db: database.db,
    allowPrivate: webhookPolicy.allowPrivate,
    log: app.log,
    clock,
    timeoutMs: deps.webhooks?.timeoutMs,
    instance: liveness,
    dispatcher: () => dispatcher,
  });
  app.addHook("onClose", () => webhookSender.stop());
  const sessionCache = createSessionCache({ ttlMs: deps.sessionCacheTtlMs ?? 30_000, max: 20_000 });
  const stopSessionListening = listenForSessionChanges(bus, sessionCache);
  app.addHook("onClose", async () => stopSessionListening());
  // The dashboard counters a list's total is summed from and the settings tickets are shown with, until a
  // ticket or a setting changes (decision 066).
  const ticketReads = createTicketReadCache({ ttlMs: deps.ticketReadCacheTtlMs ?? 5_000, max: 20_000 });
  const stopTicketListening = listenForTicketChanges(bus, ticketReads);
  app.addHook("onClose", async () => stopTicketListening());
  const forgetSessions = sessionCacheRule(sessionCache);
  const forgetTicketReads = ticketReadCacheRule(ticketReads);
  const dispatcher = createDispatcher({
    bus,
    logError,
    baseURL: deps.baseURL,
    beforePublish: (announcement) => {
      forgetSessions(announcement);
      forgetTicketReads(announcement);
    },
    mail: {
      baseURL: deps.baseURL,
      secret: deps.authSecret,
      replyDomain: deps.inboundMail ? domainOf(deps.inboundMail.address) : undefined,
      wake: () => mailDispatcher.wake(),
    },
    webhooks: webhookSender,
  });
  const hub = createStreamHub({ db: database.db, bus, logError, ...deps.streams });
  // Who else is on a ticket (decision 072): in memory, over the bus, written to the streams above.
  const presence = createPresenceHub({ bus, streams: hub, clock, logError, ...deps.presence });
  app.addHook("onClose", async () => presence.close());
  // Automation rules (decision 076): run by the write path after a change made through a route or by e-mail.
  const automation = createTicketAutomation({ logError });
  return {
    bus,
    liveness,
    mailDispatcher,
    webhookPolicy,
    webhookSender,
    sessionCache,
    ticketReads,
    dispatcher,
    hub,
    presence,
    automation,
    /** The jobs are started last (app-jobs.ts): from then on a dead instance's job leases wake them. */
    wakeJobsWith: (wake: () => void) => {
      wakeJobs = wake;
    },
  };
}
