import type { ServiceContext } from "../context.ts";
import type { Db } from "../db/client.ts";
import type { Announcement } from "./dispatcher.ts";
import { consoleLogError } from "./dispatcher.ts";
import { recordTicketEvent, type TicketEventInput } from "./record-ticket-event.ts";

/** Records a ticket event (timeline + notifications + their e-mails + webhook deliveries) in the running transaction; returns the event id. */
export type RecordEvent = (event: TicketEventInput) => Promise<string>;

/**
 * The one way services change tickets: the change and what it records commit together, and only after
 * the commit is anyone told (a rolled-back change announces nothing).
 */
export async function inTransaction<T>(
  // Only the database and the dispatcher: scheduled jobs, which act for nobody, use it too.
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
