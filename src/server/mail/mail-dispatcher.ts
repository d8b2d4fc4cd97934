import type { Db } from "../db/client.ts";
import type { MailOutboxRow } from "../db/schema/index.ts";
import { claimDueMails, markMailFailed, markMailForRetry, markMailSent } from "./mail-outbox.queries.ts";
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
  /** How long a claimed mail is left to its sender before another instance may try it. */
  leaseMs?: number;
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
  } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function deliver(mail: MailOutboxRow) {
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
      const now = clock();
      const claimed = await claimDueMails(db, {
        now,
        leaseUntil: new Date(now.getTime() + leaseMs),
        limit: batchSize,
      });
      await Promise.all(claimed.map(deliver));
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
