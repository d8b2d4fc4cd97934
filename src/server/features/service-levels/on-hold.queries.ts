import { and, asc, isNotNull, lte } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { tickets } from "#server/db/schema/index.ts";

export interface ClaimedHold {
  id: string;
  onHoldSince: Date;
}

/**
 * Claims up to `limit` holds whose lift date has come by `now`, earliest first, inside the caller's
 * transaction (through tickets_hold_until_idx). SKIP LOCKED, in the ticket writers' own lock mode
 * (decision 053): a ticket someone is changing is left for the next run, and a lifted hold no longer
 * matches, so each is lifted once across instances.
 */
export async function claimDueHolds(
  tx: Db,
  { now, limit }: { now: Date; limit: number },
): Promise<ClaimedHold[]> {
  const rows = await tx
    .select({ id: tickets.id, onHoldSince: tickets.onHoldSince })
    .from(tickets)
    .where(and(isNotNull(tickets.holdUntil), lte(tickets.holdUntil, now), isNotNull(tickets.onHoldSince)))
    .orderBy(asc(tickets.holdUntil), asc(tickets.id))
    .limit(limit)
    .for("no key update", { skipLocked: true });
  return rows.map((row) => ({ id: row.id, onHoldSince: row.onHoldSince! }));
}

/**
 * Claims up to `limit` tickets on hold since `before` at the latest, longest held first (through
 * tickets_on_hold_idx), with the same claim rules: the auto-resolve job then keeps those whose business
 * days are up.
 */
export async function claimLongHolds(
  tx: Db,
  { before, limit }: { before: Date; limit: number },
): Promise<ClaimedHold[]> {
  const rows = await tx
    .select({ id: tickets.id, onHoldSince: tickets.onHoldSince })
    .from(tickets)
    .where(and(isNotNull(tickets.onHoldSince), lte(tickets.onHoldSince, before)))
    .orderBy(asc(tickets.onHoldSince), asc(tickets.id))
    .limit(limit)
    .for("no key update", { skipLocked: true });
  return rows.map((row) => ({ id: row.id, onHoldSince: row.onHoldSince! }));
}
