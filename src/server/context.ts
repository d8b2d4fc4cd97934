import type { Actor } from "#shared/permissions.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Db } from "./db/client.ts";
import type { Dispatcher } from "./events/dispatcher.ts";
import type { TicketReadCache } from "./events/ticket-read-cache.ts";

/** What every service receives: the database and who is acting. Services never see Fastify. */
export interface ServiceContext {
  db: Db;
  actor: Actor;
  /** Told after each commit what it recorded (push, later mail and webhooks). Bare service tests omit it. */
  dispatcher?: Dispatcher;
  /** The time to use; contextFor passes the app's clock (the system clock in production). Bare service tests omit it. */
  clock?: Clock;
  /** Reads that only a ticket change changes, remembered a few seconds (decision 066). Absent: always read. */
  ticketReads?: TicketReadCache;
}

/** The current time as the context's clock tells it (the system clock when none is given). */
export const nowOf = (ctx: { clock?: Clock }): Date => (ctx.clock ?? systemClock).now();
