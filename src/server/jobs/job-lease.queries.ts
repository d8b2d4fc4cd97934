import { and, eq, isNull, lt, lte, or } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { type ScheduledJobRow, scheduledJobs } from "#server/db/schema/index.ts";

/**
 * Takes the job's lease when the job is due and nobody holds it: one conditional UPDATE, so of several
 * instances asking at once exactly one gets the row back. Null when not due or held elsewhere.
 */
export async function claimDueJob(
  db: Db,
  {
    name,
    instanceId,
    now,
    intervalMs,
    leaseMs,
  }: { name: string; instanceId: string; now: Date; intervalMs: number; leaseMs: number },
): Promise<ScheduledJobRow | null> {
  await db.insert(scheduledJobs).values({ name }).onConflictDoNothing();
  const dueBefore = new Date(now.getTime() - intervalMs);
  const [row] = await db
    .update(scheduledJobs)
    .set({ lockedBy: instanceId, lockedUntil: new Date(now.getTime() + leaseMs) })
    .where(
      and(
        eq(scheduledJobs.name, name),
        or(isNull(scheduledJobs.lockedUntil), lt(scheduledJobs.lockedUntil, now)),
        or(isNull(scheduledJobs.lastRunAt), lte(scheduledJobs.lastRunAt, dueBefore)),
      ),
    )
    .returning();
  return row ?? null;
}

/** Records a successful run and frees the lease (only if this instance still holds it). */
export async function finishJob(
  db: Db,
  {
    name,
    instanceId,
    startedAt,
    finishedAt,
    done,
  }: { name: string; instanceId: string; startedAt: Date; finishedAt: Date; done: number },
) {
  await db
    .update(scheduledJobs)
    .set({
      lastRunAt: startedAt,
      lastFinishedAt: finishedAt,
      lastDone: done,
      lastDurationMs: Math.max(0, finishedAt.getTime() - startedAt.getTime()),
      lastError: null,
      lastErrorAt: null,
      lockedBy: null,
      lockedUntil: null,
    })
    .where(and(eq(scheduledJobs.name, name), eq(scheduledJobs.lockedBy, instanceId)));
}

/** Records a failure and frees the lease without moving last_run_at: the job stays due and is retried. */
export async function failJob(
  db: Db,
  { name, instanceId, at, message }: { name: string; instanceId: string; at: Date; message: string },
) {
  await db
    .update(scheduledJobs)
    .set({ lastError: message.slice(0, 2000), lastErrorAt: at, lockedBy: null, lockedUntil: null })
    .where(and(eq(scheduledJobs.name, name), eq(scheduledJobs.lockedBy, instanceId)));
}

export async function findJobState(db: Db, name: string): Promise<ScheduledJobRow | null> {
  const [row] = await db.select().from(scheduledJobs).where(eq(scheduledJobs.name, name));
  return row ?? null;
}
