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
  /** Automation rules (decision 076), run by the write path after a change. Absent: none run. */
  automation?: TicketAutomation;
}

/** An event as the write path records it; the write path's own type says what it holds. */
type AnyEvent = { ticketId: string; type: string } & Record<string, unknown>;
type RecordAnyEvent = (event: AnyEvent) => Promise<string>;

/**
 * Runs `work` in a savepoint of the running ticket transaction (ticket-transaction.ts): when it throws, its
 * writes and what they would have announced are undone, nothing else, and the error is thrown on.
 */
export type AttemptInSavepoint = (
  work: (tx: Db, recordEvent: RecordAnyEvent) => Promise<void>,
) => Promise<void>;

/**
 * What the write path (ticket-transaction.ts) tells the automation rules (decision 076): inside a change's
 * transaction, after its events, which ticket changed, how, and by whom. `attempt` runs a rule's changes in
 * a savepoint: a rule refused undoes its own changes and what they would have announced, nothing else;
 * `recordEvent` records outside it (a refused rule's own entry).
 */
export interface TicketAutomation {
  afterChange(change: {
    tx: Db;
    ticketId: string;
    trigger: "created" | "changed";
    actor: Actor;
    clock?: Clock;
    attempt: AttemptInSavepoint;
    recordEvent: RecordAnyEvent;
  }): Promise<void>;
}

/** The current time as the context's clock tells it (the system clock when none is given). */
export const nowOf = (ctx: { clock?: Clock }): Date => (ctx.clock ?? systemClock).now();
