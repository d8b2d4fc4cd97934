import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import type { Job } from "#server/jobs/job-runner.ts";

const dayMs = 24 * 60 * 60_000;

/**
 * Deletes read notifications older than the retention, a batch at a time so that no single statement
 * locks many rows; unread ones are kept whatever their age. A notification to an audience (decision 068)
 * is read when every member has passed it with Mark All as Read (a member's single read marks do not
 * count: it stays until they mark all, or leave). SKIP LOCKED lets several instances prune at once without
 * waiting on each other. Returns how many it deleted.
 */
export async function pruneReadNotifications(
  db: Db,
  { olderThanDays, now, batchSize = 1000 }: { olderThanDays: number; now: Date; batchSize?: number },
): Promise<number> {
  if (olderThanDays <= 0) return 0;
  const cutoff = new Date(now.getTime() - olderThanDays * dayMs);
  // An audience no one is in (a team whose members all left): no one can read its rows, so all count as read.
  const read = [
    sql`user_id is not null and read_at is not null`,
    sql`audience is not null and not exists (
      select 1 from notification_audience_members m where m.audience = notifications.audience)`,
  ];
  // Per audience with members (the technicians, each team's: decision 069), the lowest mark among them:
  // every one of them has read what lies below it.
  const result = await db.execute(sql`
    select audience, min(read_up_to_id) as bound from notification_audience_members group by audience`);
  const bounds = (result as unknown as { rows: Array<{ audience: string; bound: string | number }> }).rows;
  for (const { audience, bound } of bounds) read.push(sql`audience = ${audience} and id <= ${Number(bound)}`);
  let deleted = 0;
  for (const isRead of read) {
    for (;;) {
      const result = await db.execute(sql`
        delete from notifications where id in (
          select id from notifications
          where ${isRead} and created_at < ${cutoff.toISOString()}
          limit ${batchSize}
          for update skip locked
        ) returning id`);
      const count = (result as unknown as { rows: unknown[] }).rows.length;
      deleted += count;
      if (count < batchSize) break;
    }
  }
  return deleted;
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
