import { type Clock, runAt, systemClock } from "#server/clock.ts";
import type { Db } from "#server/db/client.ts";
import type { Dispatcher } from "#server/events/dispatcher.ts";
import type { InstanceLiveness } from "#server/instances/instance-liveness.ts";
import type { Job } from "#server/jobs/job-runner.ts";
import {
  claimDueDeliveries,
  deleteFinishedDeliveries,
  findNextAttemptAt,
  recordAttempt,
  releaseDeliveryClaim,
} from "./webhook.queries.ts";
import { countFailure, resetFailures } from "./webhook-disabling.ts";
import { failureOf, postWebhook, type WebhookPostResult, webhookTimeoutMs } from "./webhook-post.ts";

const minute = 60_000;
/**
 * Wait after the 1st, 2nd, … failed attempt; after the last one the delivery is failed. Six attempts over
 * about 14.5 hours, like Stripe's and GitHub's spirit of "retry for a while, then tell the admin".
 */
export const webhookRetryDelaysMs = [
  1 * minute,
  5 * minute,
  30 * minute,
  120 * minute,
  720 * minute,
] as const;
/**
 * Attempts one endpoint may have under way on one instance (decision 050). Two could not keep up with one
 * busy endpoint here (8 clients writing: its deliveries fell behind by seconds); four kept up as the old
 * batches of ten did. A receiver that hangs holds only its own four.
 */
export const webhookPlacesPerEndpoint = 4;

export interface WebhookSenderOptions {
  db: Db;
  /** WEBHOOKS_ALLOW_PRIVATE: loopback and private targets are allowed (tests, e2e, an intranet receiver). */
  allowPrivate: boolean;
  log: { warn(fields: object, message: string): void; error(fields: object, message: string): void };
  clock?: Clock;
  /**
   * Attempts one endpoint may have under way on this instance (webhookPlacesPerEndpoint): a receiver that
   * hangs until the timeout holds only its own places, and the other endpoints' deliveries go on.
   */
  perEndpoint?: number;
  /** One attempt's limit (10 s). */
  timeoutMs?: number;
  /**
   * This instance's heartbeat (decision 041): claims carry its id, so that when it dies the others take
   * its deliveries over within seconds; and it posts a claimed delivery only while the claim is its own.
   */
  instance?: Pick<InstanceLiveness, "id" | "isAlive" | "mark" | "stillHolds">;
  /**
   * The app's dispatcher, once it exists (it wakes this sender, so it is made after it): an endpoint switched
   * off after failures tells the administrators through it, and their e-mails are queued with its mail
   * settings (decision 080).
   */
  dispatcher?: () => Dispatcher | undefined;
}

export interface WebhookSender {
  /** Sends what is due, in the background; the dispatcher calls it after a commit queued deliveries. Never throws. */
  wake(): void;
  /**
   * Claims and sends until nothing is due and no attempt is under way; resolves with how many attempts
   * this instance started meanwhile.
   */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

const isRetryable = (result: WebhookPostResult) =>
  result.kind === "error"
    ? !result.refused
    : result.status === 429 || result.status >= 500 || result.status === 408;

type DeliveryClaim = Awaited<ReturnType<typeof claimDueDeliveries>>[number];

type AttemptOptions = Pick<
  WebhookSenderOptions,
  "db" | "allowPrivate" | "log" | "instance" | "dispatcher"
> & {
  clock: Clock;
  timeoutMs: number;
};

/**
 * One attempt at a claimed delivery: posted (while the claim is still this instance's), then recorded as
 * delivered, pending a retry, or failed.
 */
async function attemptDelivery(
  { db, allowPrivate, log, clock, timeoutMs, instance, dispatcher }: AttemptOptions,
  { delivery, endpoint }: DeliveryClaim,
  mark: number,
): Promise<void> {
  if (instance && !instance.stillHolds(mark)) {
    // This instance's heartbeat had a gap since the claim: another may have taken the delivery over.
    await releaseDeliveryClaim(db, delivery.id, { instanceId: instance.id, now: clock.now() });
    return;
  }
  const result = await postWebhook({
    url: endpoint.url,
    body: delivery.body,
    secret: endpoint.secret,
    deliveryId: delivery.id,
    timestamp: Math.floor(clock.now().getTime() / 1000),
    allowPrivate,
    timeoutMs,
  });
  const at = clock.now();
  const response =
    result.kind === "response"
      ? { responseStatus: result.status, responseBody: result.body }
      : { responseStatus: null, responseBody: null };
  const error = failureOf(result);
  if (error === null) {
    await recordAttempt(db, delivery.id, { status: "delivered", ...response, lastError: null, at });
    await resetFailures(db, endpoint.id);
    return;
  }
  const delay = webhookRetryDelaysMs[delivery.attempts - 1];
  if (isRetryable(result) && delay !== undefined) {
    const nextAttemptAt = new Date(at.getTime() + delay);
    await recordAttempt(db, delivery.id, {
      status: "pending",
      ...response,
      lastError: error,
      nextAttemptAt,
      at,
    });
    log.warn(
      { deliveryId: delivery.id, attempt: delivery.attempts },
      `Webhook delivery ${delivery.id} failed (attempt ${delivery.attempts}), retrying: ${error}`,
    );
    return;
  }
  // The failure and its count for the endpoint, together: an endpoint is switched off exactly once.
  const notices = dispatcher?.();
  const disabled = await db.transaction(async (tx) => {
    await recordAttempt(tx, delivery.id, { status: "failed", ...response, lastError: error, at });
    return countFailure(tx, endpoint.id, { error, at, mail: notices?.mail });
  });
  log.warn(
    { deliveryId: delivery.id, attempt: delivery.attempts },
    `Webhook delivery ${delivery.id} failed: ${error}`,
  );
  if (disabled) {
    log.warn({ endpointId: endpoint.id }, `Webhook ${endpoint.id} switched off after failed deliveries`);
    notices?.dispatch([{ kind: "notifications", ids: disabled.notificationIds }], {
      mailQueued: disabled.mailsQueued > 0,
    });
  }
}

/**
 * Sends queued webhook deliveries: woken after each commit that queued some, by each attempt that ends (its
 * place is free), by its timer when the next pending delivery falls due (a retry: decision 056), and by the
 * scheduled job (webhookDeliveryJob) for what an instance left behind when it stopped. Each endpoint has
 * `perEndpoint` places: due deliveries are claimed for the free places of every endpoint at once, so a
 * receiver that hangs delays only its own deliveries (decision 050). Any number of instances may run on one
 * database: each attempt is claimed by exactly one of them, however many timers fire at once.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const {
    db,
    allowPrivate,
    log,
    clock = systemClock,
    perEndpoint = webhookPlacesPerEndpoint,
    instance,
    dispatcher,
  } = options;
  const timeoutMs = options.timeoutMs ?? webhookTimeoutMs;
  // Longer than one attempt can take, so a live sender's claim never lapses under it.
  const leaseMs = timeoutMs + 2 * minute;
  const attemptOptions: AttemptOptions = { db, allowPrivate, log, clock, timeoutMs, instance, dispatcher };
  /** Attempts under way on this instance, by endpoint id. */
  const underWay = new Map<string, number>();
  const attempts = new Set<Promise<void>>();
  let started = 0;
  let claiming: Promise<void> | null = null;
  let claimAgain = false;
  let stopped = false;
  /** The timer for the next delivery to fall due, and the time it is set for. */
  let timer: { at: number; cancel: () => void } | null = null;

  /**
   * Due is due: a retry 1 minute after a failure is attempted then, not at the job's next look (up to a
   * minute later). Set again after every claim, so it follows new failures, new deliveries and this
   * instance's own claims; each instance sets its own, and the claim picks who attempts.
   */
  function setTimerFor(at: Date | null) {
    if (stopped || timer?.at === at?.getTime()) return;
    timer?.cancel();
    timer = null;
    if (!at) return;
    timer = {
      at: at.getTime(),
      cancel: runAt(clock, at, () => {
        timer = null;
        wake();
      }),
    };
  }

  /** Starts a claimed attempt in its endpoint's place; when it ends, the place is free for the next one. */
  function begin(claim: DeliveryClaim, mark: number) {
    const endpointId = claim.endpoint.id;
    underWay.set(endpointId, (underWay.get(endpointId) ?? 0) + 1);
    started++;
    const run: Promise<void> = attemptDelivery(attemptOptions, claim, mark)
      .catch((error: unknown) =>
        log.error({ err: error, deliveryId: claim.delivery.id }, "Sending a webhook failed"),
      )
      .finally(() => {
        const left = (underWay.get(endpointId) ?? 1) - 1;
        if (left > 0) underWay.set(endpointId, left);
        else underWay.delete(endpointId);
        attempts.delete(run);
        wake();
      });
    attempts.add(run);
  }

  /**
   * Claims what is due for the free places and starts those attempts, without waiting for them. One claim
   * at a time per instance (the places it counts must be current); a wake meanwhile asks for one more.
   */
  function fill(): Promise<void> {
    if (claiming) {
      claimAgain = true;
      return claiming;
    }
    claiming = (async () => {
      try {
        do {
          claimAgain = false;
          // Not beating: no claims now (the heartbeat wakes the sender when it gets through again).
          if (stopped || (instance && !instance.isAlive())) return;
          const mark = instance?.mark() ?? 0;
          const now = clock.now();
          const claimed = await claimDueDeliveries(db, {
            now,
            leaseUntil: new Date(now.getTime() + leaseMs),
            perEndpoint,
            underWay,
            claimedBy: instance?.id ?? null,
          });
          for (const claim of claimed) begin(claim, mark);
          if (!claimAgain) setTimerFor(await findNextAttemptAt(db, now));
        } while (claimAgain);
      } finally {
        claiming = null;
      }
    })();
    return claiming;
  }

  function wake() {
    if (stopped) return;
    fill().catch((error: unknown) => log.error({ err: error }, "Sending webhooks failed"));
  }

  return {
    wake,
    async drain() {
      const before = started;
      for (;;) {
        await fill();
        if (attempts.size === 0 || stopped) return started - before;
        // Their ends free places, and the next claim may find more.
        await Promise.all(attempts);
      }
    },
    async stop() {
      stopped = true;
      timer?.cancel();
      timer = null;
      await claiming?.catch(() => {});
      await Promise.all(attempts);
    },
  };
}

/**
 * Every 30 s: deliveries left behind by an instance that stopped, and retries another instance recorded
 * (each instance's timer follows what it saw; this look catches the rest).
 */
export function webhookDeliveryJob(sender: WebhookSender): Job {
  return {
    name: "webhook-deliveries",
    intervalMs: 30_000,
    run: async () => ({ done: await sender.drain() }),
  };
}

/** Finished deliveries (delivered or failed) are deleted after `olderThanDays`; 0 keeps them. */
export function webhookRetentionJob({ olderThanDays }: { olderThanDays: number }): Job | null {
  if (olderThanDays <= 0) return null;
  return {
    name: "webhook-retention",
    intervalMs: 6 * 60 * minute,
    run: async ({ db, clock }) => ({
      done: await deleteFinishedDeliveries(
        db,
        new Date(clock.now().getTime() - olderThanDays * 24 * 60 * minute),
      ),
    }),
  };
}
