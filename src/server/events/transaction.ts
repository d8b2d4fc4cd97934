import type { ServiceContext } from "../context.ts";
import type { Db } from "../db/client.ts";
import { isTransientConflict } from "../db/connection-errors.ts";
import type { Announcement } from "./dispatcher.ts";
import { consoleLogError } from "./dispatcher.ts";
import { recordTicketEvent, type TicketEventInput } from "./record-ticket-event.ts";

/** Records a ticket event (timeline + notifications + their e-mails + webhook deliveries) in the running transaction; returns the event id. */
export type RecordEvent = (event: TicketEventInput) => Promise<string>;

/** How many times a change is tried when PostgreSQL aborts it for a deadlock or a serialization failure. */
export const transactionAttempts = 3;

/**
 * The one way services change tickets: the change and what it records commit together, and only after
 * the commit is anyone told (a rolled-back change announces nothing).
 *
 * Two changes that lock the same rows in opposite orders (two bulk actions at once, both touching the
 * reports' rollup rows of the same days, decision 027) can deadlock; PostgreSQL aborts one. Nothing of
 * it committed and nobody was told, so it is run again from the start, after a short random pause,
 * instead of answering the person with a 500 for something they did not do wrong.
 */
export async function inTransaction<T>(
  // Only the database and the dispatcher: scheduled jobs, which act for nobody, use it too.
  ctx: Pick<ServiceContext, "db" | "dispatcher">,
  work: (tx: Db, recordEvent: RecordEvent) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptTransaction(ctx, work);
    } catch (error) {
      if (attempt >= transactionAttempts || !isTransientConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

async function attemptTransaction<T>(
  ctx: Pick<ServiceContext, "db" | "dispatcher">,
  work: (tx: Db, recordEvent: RecordEvent) => Promise<T>,
): Promise<T> {
  const announcements: Announcement[] = [];
  let mailQueued = false;
  let webhookQueued = false;
  const effects = { logError: ctx.dispatcher?.logError ?? consoleLogError, mail: ctx.dispatcher?.mail };
  const result = await ctx.db.transaction((tx) =>
    work(tx, async (event) => {
      const recorded = await recordTicketEvent(tx, event, effects);
      announcements.push(recorded.announcement);
      mailQueued ||= recorded.mailsQueued > 0;
      webhookQueued ||= recorded.webhooksQueued > 0;
      return recorded.announcement.eventId;
    }),
  );
  ctx.dispatcher?.dispatch(announcements, { mailQueued, webhookQueued });
  return result;
}
