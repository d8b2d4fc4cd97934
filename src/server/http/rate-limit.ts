import { randomUUID } from "node:crypto";
import { eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rateLimits } from "../db/schema/index.ts";
import { tooManyAttempts } from "../errors.ts";

export interface RateRule {
  /** Seconds. */
  window: number;
  max: number;
}

/**
 * Adds one to `key`'s counter in the shared rate_limits table (the one better-auth uses), atomically,
 * so that every app instance sees the same counters. A counter older than its window starts again at 1.
 * Returns the count and the seconds until the window ends.
 */
export async function countAttempt(
  db: Db,
  key: string,
  window: number,
): Promise<{ count: number; retryAfter: number }> {
  const now = Date.now();
  const windowStart = now - window * 1000;
  const [row] = await db
    .insert(rateLimits)
    .values({ id: randomUUID(), key, count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.lastRequest} < ${windowStart} then 1 else ${rateLimits.count} + 1 end`,
        lastRequest: sql`case when ${rateLimits.lastRequest} < ${windowStart} then ${now} else ${rateLimits.lastRequest} end`,
      },
    })
    .returning({ count: rateLimits.count, lastRequest: rateLimits.lastRequest });
  const count = row?.count ?? 1;
  const started = row?.lastRequest ?? now;
  return { count, retryAfter: Math.max(1, Math.ceil((started + window * 1000 - now) / 1000)) };
}

/** Counts one attempt for `key`; throws 429 with the wait when over the limit. */
export async function consumeRateLimit(db: Db, key: string, { window, max }: RateRule): Promise<void> {
  const { count, retryAfter } = await countAttempt(db, key, window);
  if (count > max) throw tooManyAttempts(retryAfter);
}

/** Reads `key`'s counter without counting: the seconds to wait if it already reached `max`, else null. */
export async function retryAfterIfLimited(db: Db, key: string, { window, max }: RateRule) {
  const [row] = await db
    .select({ count: rateLimits.count, lastRequest: rateLimits.lastRequest })
    .from(rateLimits)
    .where(eq(rateLimits.key, key));
  if (!row || row.count < max) return null;
  const seconds = Math.ceil((row.lastRequest + window * 1000 - Date.now()) / 1000);
  return seconds > 0 ? seconds : null;
}

export async function clearAttempts(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Deletes counters whose window started more than `maxWindow` seconds ago (no rule can still use them). */
export async function pruneAttempts(db: Db, maxWindow: number): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.lastRequest, Date.now() - maxWindow * 1000));
}
