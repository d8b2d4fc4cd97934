import { randomUUID } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { rateLimits } from "#server/db/schema/index.ts";
import { tooManyAttempts } from "#server/errors.ts";

export interface RateRule {
  /** Seconds. */
  window: number;
  max: number;
}

/**
 * Adds one to `key`'s counter in the shared rate_limits table (the one better-auth uses), atomically,
 * so that every app instance sees the same counters. A counter older than its window starts again at 1.
 * Returns the count, the seconds until the window ends, and when the window started (to give the attempt
 * back with `giveBackAttempt`).
 */
export async function countAttempt(
  db: Db,
  key: string,
  window: number,
): Promise<{ count: number; retryAfter: number; windowStart: number }> {
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
  return {
    count,
    retryAfter: Math.max(1, Math.ceil((started + window * 1000 - now) / 1000)),
    windowStart: started,
  };
}

/**
 * Takes back one attempt `countAttempt` counted, atomically, and only within the window it was counted in:
 * once that window has ended the counter belongs to newer attempts, which must keep theirs.
 */
export async function giveBackAttempt(db: Db, key: string, windowStart: number): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(and(eq(rateLimits.key, key), eq(rateLimits.lastRequest, windowStart)));
}

/** Where a caller stands in a rule's window once an attempt is counted (the RateLimit headers, decision 078). */
export interface RateUsage {
  rule: RateRule;
  /** Attempts left in this window (0 once over the limit). */
  remaining: number;
  /** Seconds until the window ends. */
  resetIn: number;
}

/**
 * Counts one attempt for `key`; throws 429 with the wait when over the limit. `onCount` hears the usage
 * first, over the limit too, so that the answer can say it.
 */
export async function consumeRateLimit(
  db: Db,
  key: string,
  rule: RateRule,
  onCount?: (usage: RateUsage) => void,
): Promise<void> {
  const { count, retryAfter } = await countAttempt(db, key, rule.window);
  onCount?.({ rule, remaining: Math.max(0, rule.max - count), resetIn: retryAfter });
  if (count > rule.max) throw tooManyAttempts(retryAfter);
}

export async function clearAttempts(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Deletes counters whose window started more than `maxWindow` seconds ago (no rule can still use them). */
export async function pruneAttempts(db: Db, maxWindow: number): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.lastRequest, Date.now() - maxWindow * 1000));
}
