import { and, asc, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { tickets } from "#server/db/schema/index.ts";

/**
 * Claims up to `limit` Resolved tickets whose last activity is before `cutoff`, oldest first, and closes
 * them, inside the caller's transaction. SKIP LOCKED: a ticket another instance (or a person rating it
 * right now) holds is left for later, and the update re-checks the status, so each closes exactly once.
 */
export async function closeIdleResolvedTickets(
  tx: Db,
  { cutoff, at, limit }: { cutoff: Date; at: Date; limit: number },
): Promise<string[]> {
  const due = await tx
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.status, "Resolved"), lt(tickets.updatedAt, cutoff)))
    .orderBy(asc(tickets.updatedAt), asc(tickets.id))
    .limit(limit)
    // The ticket writers' own lock mode (decision 053): skips a ticket someone is changing, not one that
    // someone is only commenting on while it is Resolved.
    .for("no key update", { skipLocked: true });
  if (due.length === 0) return [];
  const closed = await tx
    .update(tickets)
    .set({ status: "Closed", updatedAt: at })
    .where(
      and(
        inArray(
          tickets.id,
          due.map((row) => row.id),
        ),
        eq(tickets.status, "Resolved"),
      ),
    )
    .returning({ id: tickets.id });
  return closed.map((row) => row.id).sort();
}
