import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rateLimits } from "../db/schema/index.ts";
import { tooManyAttempts } from "../errors.ts";

export interface RateRule {
  /** Seconds. */
  window: number;
  max: number;
}

/**
 * Counts one attempt for `key` in the shared rate_limits table (the one better-auth uses), atomically,
 * so that every app instance sees the same counters. Throws 429 with the wait when over the limit.
 */
export async function consumeRateLimit(db: Db, key: string, { window, max }: RateRule): Promise<void> {
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
  if (row && row.count > max) {
    const seconds = Math.max(1, Math.ceil((row.lastRequest + window * 1000 - now) / 1000));
    throw tooManyAttempts(seconds);
  }
}
