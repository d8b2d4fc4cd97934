import type { Clock } from "#server/clock.ts";
import type { Db } from "#server/db/client.ts";
import type { Dispatcher } from "#server/events/dispatcher.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import { inTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import type { Job, JobLog } from "#server/jobs/job-runner.ts";
import { autoCloseCutoff } from "#shared/service-levels/auto-close.schemas.ts";
import { closeIdleResolvedTickets } from "./auto-close.queries.ts";

interface AutoCloseContext {
  db: Db;
  clock: Clock;
  log: Pick<JobLog, "info">;
  dispatcher?: Dispatcher;
}

/**
 * Closes every Resolved ticket without activity for the configured number of days (decision 021), a
 * batch per transaction: each ticket's Close, its timeline entry ("Closed automatically after N days
 * without activity", nobody's act) and the creator's notification commit together, through the one
 * write path. Does nothing while auto-close is off. Returns how many tickets it closed.
 */
export async function closeIdleResolvedTicketsNow(
  { db, clock, log, dispatcher }: AutoCloseContext,
  { batchSize = 100 }: { batchSize?: number } = {},
): Promise<number> {
  const settings = await readSetting(db, "auto-close");
  if (!settings.enabled) return 0;
  let total = 0;
  for (;;) {
    const now = clock.now();
    const closed = await inTransaction({ db, dispatcher }, async (tx, recordEvent) => {
      const ids = await closeIdleResolvedTickets(tx, {
        cutoff: autoCloseCutoff(settings, now),
        at: now,
        limit: batchSize,
      });
      for (const ticketId of ids) {
        await recordEvent({
          ticketId,
          type: "auto_closed",
          actorId: null,
          fromStatus: "Resolved",
          toStatus: "Closed",
          idleDays: settings.days,
          createdAt: now,
        });
      }
      return ids;
    });
    if (closed.length > 0)
      log.info(
        { job: autoCloseJobName, tickets: closed, days: settings.days },
        `Auto-close closed ${closed.length} resolved tickets after ${settings.days} days without activity`,
      );
    total += closed.length;
    if (closed.length < batchSize) return total;
  }
}

const autoCloseJobName = "auto-close";

/** The scheduled job (every 5 minutes by default) that closes idle Resolved tickets. */
export function autoCloseJob({ intervalMs = 5 * 60_000 }: { intervalMs?: number } = {}): Job {
  return {
    name: autoCloseJobName,
    intervalMs,
    run: async (ctx) => ({ done: await closeIdleResolvedTicketsNow(ctx) }),
  };
}
