import type { Clock } from "#server/clock.ts";
import type { Db } from "#server/db/client.ts";
import type { Dispatcher } from "#server/events/dispatcher.ts";
import { readSettings } from "#server/features/settings/settings.service.ts";
import { endHold } from "#server/features/ticket-events/ticket-hold.ts";
import { inTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { updateTicketStatus } from "#server/features/ticket-records/ticket.queries.ts";
import type { Job, JobLog } from "#server/jobs/job-runner.ts";
import { addBusinessDays } from "#shared/service-levels/business-hours.ts";
import { claimDueHolds, claimLongHolds } from "./on-hold.queries.ts";

// On hold (decision 070): the scheduled work on tickets that wait on their requester. Holds whose lift
// date has come are lifted (the assignee is told), and, when an admin turned it on, a ticket on hold for
// the set number of business days is resolved with a notice to its requester, as auto-close does.

interface OnHoldContext {
  db: Db;
  clock: Clock;
  log: Pick<JobLog, "info">;
  dispatcher?: Dispatcher;
}

const jobName = "on-hold";
const dayMs = 86_400_000;
/** A day of the zone's offset change is at most this much shorter than 24 hours. */
const offsetChangeMs = 2 * 3_600_000;

/** Lifts every hold whose lift date has come, a batch per transaction. Returns how many it lifted. */
export async function liftDueHoldsNow(
  { db, clock, log, dispatcher }: OnHoldContext,
  { batchSize = 100 }: { batchSize?: number } = {},
): Promise<number> {
  let total = 0;
  for (;;) {
    const now = clock.now();
    const lifted = await inTransaction({ db, dispatcher }, async (tx, recordEvent) => {
      const holds = await claimDueHolds(tx, { now, limit: batchSize });
      // One after the other: a transaction is one connection.
      for (const hold of holds)
        await endHold(tx, recordEvent, hold, { reason: "date", actorId: null, at: now });
      return holds.map((hold) => hold.id);
    });
    if (lifted.length > 0) {
      log.info({ job: jobName, tickets: lifted }, `On hold: lifted ${lifted.length} holds at their date`);
    }
    total += lifted.length;
    if (lifted.length < batchSize) return total;
  }
}

/**
 * Resolves every ticket on hold for the configured business days (off: does nothing), a batch per
 * transaction: the hold's end (its held time moves the resolution target on), the status, and the
 * "auto_resolved" entry that tells the requester (and the assignee) commit together. Returns how many.
 */
export async function resolveLongHoldsNow(
  { db, clock, log, dispatcher }: OnHoldContext,
  { batchSize = 100 }: { batchSize?: number } = {},
): Promise<number> {
  const { "on-hold": settings, "business-calendar": calendar } = await readSettings(db, [
    "on-hold",
    "business-calendar",
  ]);
  if (!settings.autoResolve) return 0;
  const days = settings.businessDays;
  let total = 0;
  for (;;) {
    const now = clock.now();
    const { resolved, isDone } = await inTransaction({ db, dispatcher }, async (tx, recordEvent) => {
      // N business days are at least N calendar days (less an offset change): read no hold younger than that,
      // then keep, longest held first, those whose business days are up. The later ones are younger still.
      const holds = await claimLongHolds(tx, {
        before: new Date(now.getTime() - days * dayMs + offsetChangeMs),
        limit: batchSize,
      });
      const due = holds.filter((hold) => addBusinessDays(calendar, hold.onHoldSince, days) <= now);
      for (const hold of due) {
        await endHold(tx, recordEvent, hold, { reason: "status", actorId: null, at: now });
        await updateTicketStatus(tx, hold.id, { status: "Resolved", updatedAt: now });
        await recordEvent({
          ticketId: hold.id,
          type: "auto_resolved",
          actorId: null,
          fromStatus: "In Progress",
          toStatus: "Resolved",
          idleDays: days,
          createdAt: now,
        });
      }
      return {
        resolved: due.map((hold) => hold.id),
        isDone: holds.length < batchSize || due.length < holds.length,
      };
    });
    if (resolved.length > 0) {
      log.info(
        { job: jobName, tickets: resolved, businessDays: days },
        `On hold: resolved ${resolved.length} tickets after ${days} business days waiting for the requester`,
      );
    }
    total += resolved.length;
    if (isDone) return total;
  }
}

/** The scheduled job (every minute by default): lift dates first, then auto-resolve. */
export function onHoldJob({ intervalMs = 60_000 }: { intervalMs?: number } = {}): Job {
  return {
    name: jobName,
    intervalMs,
    run: async (ctx) => ({ done: (await liftDueHoldsNow(ctx)) + (await resolveLongHoldsNow(ctx)) }),
  };
}
