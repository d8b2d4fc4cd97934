import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  appInstances,
  inboundMessages,
  mailOutbox,
  scheduledJobs,
  webhookDeliveries,
} from "#server/db/schema/index.ts";

// Heartbeats and deaths are judged by the database's clock (now()), never an instance's: instances on
// different machines then agree on who is dead whatever their clocks say.

/** Writes this instance's heartbeat (creating its row on the first beat, or if it was ever removed). */
export async function beat(db: Db, id: string) {
  await db
    .insert(appInstances)
    .values({ id })
    .onConflictDoUpdate({ target: appInstances.id, set: { heartbeatAt: sql`now()` } });
}

/** Instances but `except` whose last heartbeat is older than `deadAfterMs` but newer than `forgetAfterMs`. */
export async function findDeadInstanceIds(
  db: Db,
  { deadAfterMs, forgetAfterMs, except }: { deadAfterMs: number; forgetAfterMs: number; except: string },
): Promise<string[]> {
  const rows = await db
    .select({ id: appInstances.id })
    .from(appInstances)
    .where(
      and(
        ne(appInstances.id, except),
        sql`${appInstances.heartbeatAt} < now() - ${deadAfterMs} * interval '1 millisecond'`,
        sql`${appInstances.heartbeatAt} >= now() - ${forgetAfterMs} * interval '1 millisecond'`,
      ),
    );
  return rows.map((row) => row.id);
}

/** Forgets instances dead for longer than `forgetAfterMs` (every lease they could have held has run out). */
export async function deleteLongDeadInstances(db: Db, forgetAfterMs: number) {
  await db
    .delete(appInstances)
    .where(sql`${appInstances.heartbeatAt} < now() - ${forgetAfterMs} * interval '1 millisecond'`);
}

export async function deleteInstances(db: Db, ids: string[]) {
  if (ids.length > 0) await db.delete(appInstances).where(inArray(appInstances.id, ids));
}

/** This instance's row goes on a clean stop, once its work under way has finished. */
export async function deleteInstance(db: Db, id: string) {
  await db.delete(appInstances).where(eq(appInstances.id, id));
}

export interface ReleasedClaims {
  mails: number;
  webhookDeliveries: number;
  jobs: number;
  inboundMessages: number;
}

/**
 * Gives back everything the given instances had claimed, if they are still dead when the statement runs
 * (an instance that beats again keeps its claims): queued mail and webhook deliveries become due at `now`,
 * job leases are freed, inbound messages under way are deleted so that the sending server's retry is
 * processed. Any number of instances may run it at once: each claim is given back once.
 */
export async function releaseClaimsOf(
  db: Db,
  { ids, deadAfterMs, now }: { ids: string[]; deadAfterMs: number; now: Date },
): Promise<ReleasedClaims> {
  if (ids.length === 0) return { mails: 0, webhookDeliveries: 0, jobs: 0, inboundMessages: 0 };
  const stillDead = db
    .select({ id: appInstances.id })
    .from(appInstances)
    .where(
      and(
        inArray(appInstances.id, ids),
        sql`${appInstances.heartbeatAt} < now() - ${deadAfterMs} * interval '1 millisecond'`,
      ),
    );
  const mails = await db
    .update(mailOutbox)
    .set({ claimedBy: null, nextAttemptAt: now })
    .where(and(eq(mailOutbox.status, "pending"), inArray(mailOutbox.claimedBy, stillDead)))
    .returning({ id: mailOutbox.id });
  const deliveries = await db
    .update(webhookDeliveries)
    .set({ claimedBy: null, nextAttemptAt: now })
    .where(and(eq(webhookDeliveries.status, "pending"), inArray(webhookDeliveries.claimedBy, stillDead)))
    .returning({ id: webhookDeliveries.id });
  const jobs = await db
    .update(scheduledJobs)
    .set({ lockedBy: null, lockedUntil: null })
    .where(inArray(scheduledJobs.lockedBy, stillDead))
    .returning({ name: scheduledJobs.name });
  const inbound = await db
    .delete(inboundMessages)
    .where(and(eq(inboundMessages.outcome, "processing"), inArray(inboundMessages.claimedBy, stillDead)))
    .returning({ id: inboundMessages.id });
  return {
    mails: mails.length,
    webhookDeliveries: deliveries.length,
    jobs: jobs.length,
    inboundMessages: inbound.length,
  };
}
