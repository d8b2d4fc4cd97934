import { sql } from "drizzle-orm";
import type { AttemptInSavepoint, ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { isLockWait, isTransientConflict } from "#server/db/connection-errors.ts";
import { ticketChangedMeanwhile } from "#server/errors.ts";
import type { Announcement } from "#server/events/dispatcher.ts";
import { lockTicket, type TicketFields } from "#server/features/ticket-records/ticket.queries.ts";
import { consoleLogError } from "#server/log-error.ts";
import { recordTicketEvent } from "./record-ticket-event.ts";
import type { TicketEventInput } from "./ticket-event-input.ts";
import { slaChangeOf, syncTicketSla } from "./ticket-sla.ts";

/**
 * Records a ticket event in the running transaction: first the ticket's service levels catch up with it
 * (syncTicketSla), then the timeline row, the notifications and their e-mails and the webhook deliveries
 * (recordTicketEvent). Returns the event id.
 */
export type RecordEvent = (event: TicketEventInput) => Promise<string>;

/**
 * A ticket as a change finds it under its row lock (inside inTicketTransaction): the transaction, the way
 * to record its events, and the locked row. The services' steps that run "under the lock" take it, so the
 * single action and a macro (decision 075) decide by the same code.
 */
export interface HeldTicket {
  tx: Db;
  recordEvent: RecordEvent;
  ticket: TicketFields;
}

/** How many times a change is tried when PostgreSQL aborts it for a deadlock or a serialization failure. */
export const transactionAttempts = 3;

/**
 * The longest a write waits for a row another transaction holds (lock_timeout), and never more than half
 * the statement timeout: a write stuck behind another fails with PostgreSQL's lock_not_available (55P03),
 * a conflict answered 409, before the statement timeout would cancel it as a database that does not
 * answer (503). The writers of one ticket hold its row for milliseconds (decision 053).
 */
const lockWaitMs = 2_000;

/** `attempt` runs part of the work in a savepoint: when it throws, only its writes and announcements go. */
type Work<T> = (tx: Db, recordEvent: RecordEvent, attempt: AttemptInSavepoint) => Promise<T>;
/** The database and the dispatcher; and who acts, when someone does (a job acts for nobody). */
type Context = Pick<ServiceContext, "db" | "dispatcher"> &
  Partial<Pick<ServiceContext, "actor" | "automation" | "clock">>;

/**
 * A transaction that writes tickets: the change and what it records commit together, and only after
 * the commit is anyone told (a rolled-back change announces nothing). A change to an existing ticket
 * goes through inTicketTransaction, which locks the ticket first; this one is for a new ticket and for
 * the scheduled jobs, whose claim (FOR NO KEY UPDATE SKIP LOCKED) is their first statement and locks
 * the tickets they change.
 *
 * Two changes that still lock shared rows in opposite orders (the reports' rollup rows at commit, the
 * dashboard counters, decision 053) can deadlock; PostgreSQL aborts one. Nothing of it committed and
 * nobody was told, so it is run again from the start, after a short random pause, instead of answering
 * the person with a 500 for something they did not do wrong.
 */
export async function inTransaction<T>(
  // Only the database and the dispatcher: scheduled jobs, which act for nobody, use it too.
  ctx: Context,
  work: Work<T>,
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

/**
 * The one way services change an existing ticket: inTransaction, with the ticket's row locked as its
 * first statement (decision 053), before anything that references the ticket is written. The writers of
 * one ticket then take turns on that row instead of deadlocking on the key-share locks their inserts
 * take, and each decides on the ticket as the one before it left it. `work` gets the locked row
 * (undefined when the ticket does not exist). What is still a conflict after the retries, or waited too
 * long for the row, is a 409 that tells the person to try again.
 */
export async function inTicketTransaction<T>(
  ctx: Context,
  ticketId: string,
  work: (tx: Db, recordEvent: RecordEvent, ticket: TicketFields | undefined) => Promise<T>,
): Promise<T> {
  try {
    return await inTransaction(ctx, async (tx, recordEvent) =>
      work(tx, recordEvent, await lockTicket(tx, ticketId)),
    );
  } catch (error) {
    if (isTransientConflict(error) || isLockWait(error)) throw ticketChangedMeanwhile(error);
    throw error;
  }
}

async function attemptTransaction<T>(ctx: Context, work: Work<T>): Promise<T> {
  const announcements: Announcement[] = [];
  let mailQueued = false;
  let webhookQueued = false;
  const effects = {
    logError: ctx.dispatcher?.logError ?? consoleLogError,
    mail: ctx.dispatcher?.mail,
    baseURL: ctx.dispatcher?.baseURL,
  };
  const result = await ctx.db.transaction(async (tx) => {
    await limitLockWaits(tx);
    const changed = new Map<string, "created" | "changed">();
    const recordIn =
      (db: Db): RecordEvent =>
      async (event) => {
        // Before the event reads the ticket back: its notifications and webhook payload see the new state.
        const slaChange = slaChangeOf(event, ctx.actor);
        if (slaChange) await syncTicketSla(db, event.ticketId, event.createdAt ?? new Date(), slaChange);
        const recorded = await recordTicketEvent(db, event, effects);
        announcements.push(recorded.announcement);
        mailQueued ||= recorded.mailsQueued > 0;
        webhookQueued ||= recorded.webhooksQueued > 0;
        // What the rules run after (decision 076): a rule's own changes never run rules again.
        if (event.viaKind !== "rule" && changed.get(event.ticketId) !== "created") {
          changed.set(event.ticketId, event.type === "created" ? "created" : "changed");
        }
        return recorded.announcement.eventId;
      };
    const attempt: AttemptInSavepoint = async (part) => {
      const before = announcements.length;
      try {
        await tx.transaction((savepoint) =>
          part(savepoint, recordIn(savepoint) as (event: object) => Promise<string>),
        );
      } catch (error) {
        announcements.length = before;
        throw error;
      }
    };
    const done = await work(tx, recordIn(tx), attempt);
    if (ctx.automation && ctx.actor) {
      for (const [ticketId, trigger] of changed) {
        await ctx.automation.afterChange({
          tx,
          ticketId,
          trigger,
          actor: ctx.actor,
          clock: ctx.clock,
          attempt,
          recordEvent: recordIn(tx) as (event: object) => Promise<string>,
        });
      }
    }
    return done;
  });
  ctx.dispatcher?.dispatch(announcements, { mailQueued, webhookQueued });
  return result;
}

/**
 * lock_timeout for the rest of the transaction: lockWaitMs, or half the connection's statement_timeout
 * when that is shorter (a pool configured with a short one). PGlite has one connection and never waits
 * for a lock; the setting changes nothing there.
 */
async function limitLockWaits(tx: Db) {
  // Half the statement timeout in ms (seconds × 500); a statement timeout of 0 (none) leaves lockWaitMs.
  const half = sql`(extract(epoch from current_setting('statement_timeout')::interval) * 500)::int`;
  await tx.execute(
    sql`select set_config('lock_timeout', least(${lockWaitMs}::int, coalesce(nullif(${half}, 0), ${lockWaitMs}::int))::text, true)`,
  );
}

/**
 * inTicketTransaction for a change to two tickets at once (decision 074: a link, a merge): both rows are
 * locked before anything else, in the order of their ids, so that two changes of the same pair (or of
 * pairs that share a ticket) take turns instead of deadlocking (decision 053's order, extended to two
 * rows). `work` gets the locked rows in the order the ids were given (undefined when one does not exist).
 */
export async function inTicketPairTransaction<T>(
  ctx: Context,
  [firstId, secondId]: readonly [string, string],
  work: (
    tx: Db,
    recordEvent: RecordEvent,
    tickets: [TicketFields | undefined, TicketFields | undefined],
  ) => Promise<T>,
): Promise<T> {
  try {
    return await inTransaction(ctx, async (tx, recordEvent) => {
      const [low, high] = firstId < secondId ? [firstId, secondId] : [secondId, firstId];
      const lowRow = await lockTicket(tx, low);
      const highRow = low === high ? lowRow : await lockTicket(tx, high);
      const byId = new Map([
        [low, lowRow],
        [high, highRow],
      ]);
      return work(tx, recordEvent, [byId.get(firstId), byId.get(secondId)]);
    });
  } catch (error) {
    if (isTransientConflict(error) || isLockWait(error)) throw ticketChangedMeanwhile(error);
    throw error;
  }
}
