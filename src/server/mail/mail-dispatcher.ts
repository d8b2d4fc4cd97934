import type { Db } from "#server/db/client.ts";
import type { MailOutboxRow } from "#server/db/schema/index.ts";
import type { InstanceLiveness } from "#server/instances/instance-liveness.ts";
import {
  claimDueMails,
  markMailFailed,
  markMailForRetry,
  markMailSent,
  releaseMailClaim,
} from "./mail-outbox.queries.ts";
import type { Mailer } from "./mailer.ts";

export interface MailDispatcherOptions {
  db: Db;
  mailer: Mailer;
  log: {
    info: (message: string) => void;
    warn: (message: string) => void;
    error: (message: string) => void;
  };
  clock?: () => Date;
  /** Attempts before a mail is given up as failed (MAIL_RETRY_MAX). */
  maxAttempts?: number;
  /** How often due mail (retries, mail queued by an instance that stopped) is looked for. */
  intervalMs?: number;
  /** Delay after the first failed attempt; it doubles with each further one, up to maxRetryDelayMs. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  batchSize?: number;
  /**
   * How long a claimed mail is left to its sender before another instance may try it, even though the
   * sender still beats (it hangs). A dead sender's mail is taken over sooner: see `instance`.
   */
  leaseMs?: number;
  /**
   * This instance's heartbeat (decision 041): claims carry its id, so that when it dies the others give
   * its mail back within seconds; and it sends a claimed mail only while its claims are still its own.
   * Without it (tests of the dispatcher alone) claims are anonymous and only the lease frees them.
   */
  instance?: Pick<InstanceLiveness, "id" | "isAlive" | "mark" | "stillHolds">;
}

export interface MailDispatcher {
  /** Sends what is due now; the write path calls it after its transaction commits. Never throws. */
  wake(): void;
  /** Runs one round to the end (claims and sends until nothing is due). For tests and start-up. */
  drain(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Sends queued mail (mail_outbox) after commit and on a timer, with exponential backoff on failure.
 * Any number of instances may run on one database: each mail is claimed by exactly one of them.
 */
export function createMailDispatcher(options: MailDispatcherOptions): MailDispatcher {
  const {
    db,
    mailer,
    log,
    clock = () => new Date(),
    maxAttempts = 8,
    intervalMs = 30_000,
    retryDelayMs = 30_000,
    maxRetryDelayMs = 60 * 60_000,
    batchSize = 10,
    leaseMs = 5 * 60_000,
    instance,
  } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function deliver(mail: MailOutboxRow, mark: number) {
    if (instance && !instance.stillHolds(mark)) {
      // This instance's heartbeat had a gap since the claim: another may have taken the mail over.
      await releaseMailClaim(db, mail.id, { instanceId: instance.id, now: clock() });
      return;
    }
    try {
      await mailer.send({
        to: mail.toAddress,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? undefined,
        link: mail.link ?? undefined,
        headers: mail.headers,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (mail.attempts >= maxAttempts) {
        await markMailFailed(db, mail.id, reason);
        log.error(`Mail ${mail.id} to ${mail.toAddress} failed ${mail.attempts} times, giving up: ${reason}`);
        return;
      }
      const delay = Math.min(retryDelayMs * 2 ** (mail.attempts - 1), maxRetryDelayMs);
      await markMailForRetry(db, mail.id, { error: reason, retryAt: new Date(clock().getTime() + delay) });
      log.warn(`Mail ${mail.id} to ${mail.toAddress} failed (attempt ${mail.attempts}), retrying: ${reason}`);
      return;
    }
    // Outside the try: a mail that went out must not be retried because recording it failed.
    await markMailSent(db, mail.id, clock());
  }

  async function round() {
    for (;;) {
      // Not beating: no claims now (the heartbeat wakes the dispatcher when it gets through again).
      if (instance && !instance.isAlive()) return;
      const mark = instance?.mark() ?? 0;
      const now = clock();
      const claimed = await claimDueMails(db, {
        now,
        leaseUntil: new Date(now.getTime() + leaseMs),
        limit: batchSize,
        claimedBy: instance?.id ?? null,
      });
      await Promise.all(claimed.map((mail) => deliver(mail, mark)));
      if (claimed.length < batchSize || stopped) return;
    }
  }

  // One round at a time per instance; a wake during a round asks for one more round after it.
  function drain(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await round();
        } while (again && !stopped);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  const wake = () => {
    if (stopped) return;
    drain().catch((error: unknown) =>
      log.error(`Sending queued mail failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  };

  return {
    wake,
    drain,
    start() {
      stopped = false;
      timer ??= setInterval(wake, intervalMs);
      timer.unref();
      // Mail queued before a restart goes out now, not one interval later.
      wake();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
}
