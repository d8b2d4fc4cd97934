import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import type { Job } from "#server/jobs/job-runner.ts";

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

/**
 * The scheduled job (hourly by default) that prunes read notifications older than the retention
 * (NOTIFICATION_RETENTION_DAYS); none when the retention is 0, which keeps them forever.
 */
export function notificationRetentionJob({
  olderThanDays,
  intervalMs = 60 * 60_000,
}: {
  olderThanDays: number;
  intervalMs?: number;
}): Job | null {
  if (olderThanDays <= 0) return null;
  return {
    name: "notification-retention",
    intervalMs,
    run: async ({ db, clock }) => ({
      done: await pruneReadNotifications(db, { olderThanDays, now: clock.now() }),
    }),
  };
}
