import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";

const dayMs = 24 * 60 * 60_000;

/**
 * Deletes read notifications older than the retention, a batch at a time so that no single statement
 * locks many rows; unread ones are kept whatever their age. SKIP LOCKED lets several instances prune at
 * once without waiting on each other. Returns how many it deleted.
 */
export async function pruneReadNotifications(
  db: Db,
  { olderThanDays, now, batchSize = 1000 }: { olderThanDays: number; now: Date; batchSize?: number },
): Promise<number> {
  if (olderThanDays <= 0) return 0;
  const cutoff = new Date(now.getTime() - olderThanDays * dayMs);
  let deleted = 0;
  for (;;) {
    // Raw SQL: the notifications table is defined on the notify-server branch, not in this schema yet.
    const result = await db.execute(sql`
      delete from notifications where id in (
        select id from notifications
        where read_at is not null and created_at < ${cutoff.toISOString()}
        limit ${batchSize}
        for update skip locked
      ) returning id`);
    const count = (result as unknown as { rows: unknown[] }).rows.length;
    deleted += count;
    if (count < batchSize) return deleted;
  }
}

export interface RetentionJobOptions {
  db: Db;
  /** NOTIFICATION_RETENTION_DAYS; 0 keeps notifications forever. */
  olderThanDays: number;
  log: { info: (message: string) => void; error: (message: string) => void };
  clock?: () => Date;
  intervalMs?: number;
  /** The first run waits a little, so that a start-up is not slowed by it. */
  firstRunDelayMs?: number;
}

/** Prunes on a timer (hourly by default). Returns a function that stops it. */
export function startNotificationRetention({
  db,
  olderThanDays,
  log,
  clock = () => new Date(),
  intervalMs = 60 * 60_000,
  firstRunDelayMs = 60_000,
}: RetentionJobOptions): () => Promise<void> {
  if (olderThanDays <= 0) return async () => {};
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = pruneReadNotifications(db, { olderThanDays, now: clock() })
      .then((deleted) => {
        if (deleted > 0) log.info(`Deleted ${deleted} read notifications older than ${olderThanDays} days`);
      })
      .catch((error: unknown) =>
        log.error(
          `Pruning old notifications failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, firstRunDelayMs);
  const timer = setInterval(run, intervalMs);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
