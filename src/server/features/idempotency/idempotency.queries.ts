import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { type IdempotencyKeyRow, idempotencyKeys } from "#server/db/schema/index.ts";

type KeyOf = Pick<IdempotencyKeyRow, "caller" | "route" | "key">;

const whereKey = ({ caller, route, key }: KeyOf) =>
  and(eq(idempotencyKeys.caller, caller), eq(idempotencyKeys.route, route), eq(idempotencyKeys.key, key));

/**
 * Claims a key for a request about to run: inserts its row, or takes over a row that has expired (older
 * than `expiredBefore`) or was abandoned while in flight (no answer since `abandonedBefore`: its process
 * stopped). Returns true when this request holds the key now; false when another row stands (the caller
 * reads it with findIdempotencyKey). One statement, so two requests with one key cannot both win.
 */
export async function claimIdempotencyKey(
  db: Db,
  row: KeyOf & { requestHash: string; createdAt: Date },
  { expiredBefore, abandonedBefore }: { expiredBefore: Date; abandonedBefore: Date },
): Promise<boolean> {
  const claimed = await db
    .insert(idempotencyKeys)
    .values(row)
    .onConflictDoUpdate({
      target: [idempotencyKeys.caller, idempotencyKeys.route, idempotencyKeys.key],
      set: {
        requestHash: row.requestHash,
        statusCode: null,
        responseBody: null,
        createdAt: row.createdAt,
      },
      setWhere: or(
        lt(idempotencyKeys.createdAt, expiredBefore),
        and(isNull(idempotencyKeys.statusCode), lt(idempotencyKeys.createdAt, abandonedBefore)),
      ),
    })
    .returning({ key: idempotencyKeys.key });
  return claimed.length === 1;
}

export async function findIdempotencyKey(db: Db, key: KeyOf): Promise<IdempotencyKeyRow | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(whereKey(key));
  return row;
}

/** Keeps the answer of the request that holds the key (claimed at `claimedAt`). */
export async function recordIdempotentAnswer(
  db: Db,
  key: KeyOf,
  claimedAt: Date,
  answer: { statusCode: number; responseBody: string },
) {
  await db
    .update(idempotencyKeys)
    .set(answer)
    .where(and(whereKey(key), eq(idempotencyKeys.createdAt, claimedAt), isNull(idempotencyKeys.statusCode)));
}

/** Gives a key back (its request failed: nothing was made, so a retry must run again). */
export async function releaseIdempotencyKey(db: Db, key: KeyOf, claimedAt: Date) {
  await db
    .delete(idempotencyKeys)
    .where(and(whereKey(key), eq(idempotencyKeys.createdAt, claimedAt), isNull(idempotencyKeys.statusCode)));
}

/** Deletes the keys older than `before` (every caller's); answers how many. */
export async function purgeIdempotencyKeys(db: Db, before: Date): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, before))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}
