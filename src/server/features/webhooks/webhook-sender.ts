import { type Clock, systemClock } from "../../clock.ts";
import type { Db } from "../../db/client.ts";
import type { InstanceLiveness } from "../../instances/instance-liveness.ts";
import type { Job } from "../../jobs/job-runner.ts";
import {
  claimDueDeliveries,
  deleteFinishedDeliveries,
  recordAttempt,
  releaseDeliveryClaim,
} from "./webhook.queries.ts";
import { postWebhook, type WebhookPostResult, webhookTimeoutMs } from "./webhook-post.ts";

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
export const webhookMaxAttempts = webhookRetryDelaysMs.length + 1;

export interface WebhookSenderOptions {
  db: Db;
  /** WEBHOOKS_ALLOW_PRIVATE: loopback and private targets are allowed (tests, e2e, an intranet receiver). */
  allowPrivate: boolean;
  log: { warn(fields: object, message: string): void; error(fields: object, message: string): void };
  clock?: Clock;
  batchSize?: number;
  /** One attempt's limit (10 s). */
  timeoutMs?: number;
  /**
   * This instance's heartbeat (decision 041): claims carry its id, so that when it dies the others take
   * its deliveries over within seconds; and it posts a claimed delivery only while the claim is its own.
   */
  instance?: Pick<InstanceLiveness, "id" | "isAlive" | "mark" | "stillHolds">;
}

export interface WebhookSender {
  /** Sends what is due, in the background; the dispatcher calls it after a commit queued deliveries. Never throws. */
  wake(): void;
  /** Claims and sends until nothing is due; resolves with how many attempts were made. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

const isRetryable = (result: WebhookPostResult) =>
  result.kind === "error"
    ? !result.refused
    : result.status === 429 || result.status >= 500 || result.status === 408;

/**
 * Sends queued webhook deliveries: woken after each commit that queued some, and by the scheduled job
 * (webhookDeliveryJob) for retries and for what an instance left behind when it stopped. Any number of
 * instances may run on one database: each attempt is claimed by exactly one of them.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { db, allowPrivate, log, clock = systemClock, batchSize = 10, instance } = options;
  const timeoutMs = options.timeoutMs ?? webhookTimeoutMs;
  // Longer than one attempt can take, so a live sender's claim never lapses under it.
  const leaseMs = timeoutMs + 2 * minute;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;

  async function attempt(
    { delivery, endpoint }: Awaited<ReturnType<typeof claimDueDeliveries>>[number],
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
    if (result.kind === "response" && result.status >= 200 && result.status < 300) {
      await recordAttempt(db, delivery.id, { status: "delivered", ...response, lastError: null, at });
      return;
    }
    const error =
      result.kind === "error"
        ? result.error
        : result.status >= 300 && result.status < 400
          ? `The receiver answered ${result.status} (redirects are not followed)`
          : `The receiver answered ${result.status}`;
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
    await recordAttempt(db, delivery.id, { status: "failed", ...response, lastError: error, at });
    log.warn(
      { deliveryId: delivery.id, attempt: delivery.attempts },
      `Webhook delivery ${delivery.id} failed: ${error}`,
    );
  }

  async function round(): Promise<number> {
    let attempts = 0;
    for (;;) {
      // Not beating: no claims now (the heartbeat wakes the sender when it gets through again).
      if (instance && !instance.isAlive()) return attempts;
      const mark = instance?.mark() ?? 0;
      const now = clock.now();
      const claimed = await claimDueDeliveries(db, {
        now,
        leaseUntil: new Date(now.getTime() + leaseMs),
        limit: batchSize,
        claimedBy: instance?.id ?? null,
      });
      await Promise.all(claimed.map((claim) => attempt(claim, mark)));
      attempts += claimed.length;
      if (claimed.length < batchSize || stopped) return attempts;
    }
  }

  // One round at a time per instance; a wake during a round asks for one more round after it.
  function drain(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          total += await round();
        } while (again && !stopped);
      } finally {
        running = null;
      }
      return total;
    })();
    return running;
  }

  return {
    wake() {
      if (stopped) return;
      drain().catch((error: unknown) => log.error({ err: error }, "Sending webhooks failed"));
    },
    drain,
    async stop() {
      stopped = true;
      await running?.catch(() => {});
    },
  };
}

/** Retries and deliveries left behind by a stopped instance, every 30 s. */
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
