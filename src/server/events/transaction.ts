import type { ServiceContext } from "../context.ts";
import type { Db } from "../db/client.ts";
import type { Announcement } from "./dispatcher.ts";
import { consoleLogError } from "./dispatcher.ts";
import { recordTicketEvent, type TicketEventInput } from "./record-ticket-event.ts";

/** Records a ticket event (timeline + notifications) in the running transaction; returns the event id. */
export type RecordEvent = (event: TicketEventInput) => Promise<string>;

/**
 * The one way services change tickets: the change and what it records commit together, and only after
 * the commit is anyone told (a rolled-back change announces nothing).
 */
export async function inTransaction<T>(
  ctx: ServiceContext,
  work: (tx: Db, recordEvent: RecordEvent) => Promise<T>,
): Promise<T> {
  const announcements: Announcement[] = [];
  const logError = ctx.dispatcher?.logError ?? consoleLogError;
  const result = await ctx.db.transaction((tx) =>
    work(tx, async (event) => {
      const announcement = await recordTicketEvent(tx, event, logError);
      announcements.push(announcement);
      return announcement.eventId;
    }),
  );
  ctx.dispatcher?.dispatch(announcements);
  return result;
}
