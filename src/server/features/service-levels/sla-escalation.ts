import type { Db } from "#server/db/client.ts";
import type { Dispatcher } from "#server/events/dispatcher.ts";
import { inTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import type { Job } from "#server/jobs/job-runner.ts";
import { type SlaEventType, type SlaTarget, slaTargets } from "#shared/service-levels/sla-escalation.ts";
import { type ClaimedTicket, claimBreachedTickets, claimWarnedTickets } from "./sla-escalation.queries.ts";

/** How many of each kind the escalation job announced in one run. */
interface EscalationCounts {
  firstResponseWarnings: number;
  firstResponseBreaches: number;
  resolutionWarnings: number;
  resolutionBreaches: number;
}

const countKey: Record<SlaEventType, Record<SlaTarget, keyof EscalationCounts>> = {
  sla_warning: { first_response: "firstResponseWarnings", resolution: "resolutionWarnings" },
  sla_breached: { first_response: "firstResponseBreaches", resolution: "resolutionBreaches" },
};

const claims: Record<SlaEventType, typeof claimBreachedTickets> = {
  // Breaches first: a ticket whose warning time and due time both passed while the job was not running
  // gets only the breach (its claim stamps warnedAt too).
  sla_breached: claimBreachedTickets,
  sla_warning: claimWarnedTickets,
};

/**
 * Announces every service-level warning and breach due at `now` (docs/decisions/020-escalation.md), a
 * batch at a time: each batch claims its tickets (a conditional stamp on rows locked with SKIP LOCKED) and
 * records their events in the same transaction, so with several instances each is announced exactly once,
 * and a batch that fails leaves its tickets unclaimed for the next run.
 */
async function escalateDueTickets(
  ctx: { db: Db; dispatcher?: Dispatcher },
  { now, batchSize = 200 }: { now: Date; batchSize?: number },
): Promise<EscalationCounts> {
  const counts: EscalationCounts = {
    firstResponseWarnings: 0,
    firstResponseBreaches: 0,
    resolutionWarnings: 0,
    resolutionBreaches: 0,
  };
  for (const type of ["sla_breached", "sla_warning"] as const) {
    for (const target of slaTargets) {
      for (;;) {
        const claimed: ClaimedTicket[] = await inTransaction(ctx, async (tx, recordEvent) => {
          const tickets = await claims[type](tx, target, { now, limit: batchSize });
          // One after the other: a transaction is one connection.
          for (const { ticketId, dueAt } of tickets)
            await recordEvent({ ticketId, type, slaTarget: target, dueAt, createdAt: now });
          return tickets;
        });
        counts[countKey[type][target]] += claimed.length;
        if (claimed.length < batchSize) break;
      }
    }
  }
  return counts;
}

/**
 * The scheduled job (every minute by default) that warns at 80% of a target's business time and tells of
 * a missed target, each once. Logs the counts of what it sent when it sent anything.
 */
export function slaEscalationJob({
  intervalMs = 60_000,
  batchSize,
}: {
  intervalMs?: number;
  batchSize?: number;
} = {}): Job {
  return {
    name: "sla-escalation",
    intervalMs,
    run: async ({ db, clock, dispatcher, log }) => {
      const counts = await escalateDueTickets({ db, dispatcher }, { now: clock.now(), batchSize });
      const done = Object.values(counts).reduce((sum, count) => sum + count, 0);
      if (done > 0) {
        const warnings = counts.firstResponseWarnings + counts.resolutionWarnings;
        const breaches = counts.firstResponseBreaches + counts.resolutionBreaches;
        log.info(
          { job: "sla-escalation", ...counts },
          `SLA escalation: ${warnings} ${warnings === 1 ? "warning" : "warnings"}, ` +
            `${breaches} ${breaches === 1 ? "breach" : "breaches"}`,
        );
      }
      return { done };
    },
  };
}
