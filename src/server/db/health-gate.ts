import pg from "pg";
import { databaseMarkedUnavailable, hasErrorCode, isDatabaseUnavailable } from "./connection-errors.ts";

/**
 * PostgreSQL's health gate (docs/decisions/049-database-health-gate.md). A watchdog pings the server on a
 * connection of its own, never one of the pool's: a pool full of slow but healthy queries is not a stall.
 * A ping with no answer in time closes the gate; the pool then refuses work at once and drops every
 * connection it has, so requests answer 503 instead of waiting for the pool's own timeouts. The watchdog
 * keeps trying, on a new connection each time, and the first answer opens the gate again.
 */
export interface HealthGateOptions {
  connectionString: string;
  /** A `select 1` on the watchdog's open connection with no answer within this long closes the gate. */
  pingTimeoutMs: number;
  /** Opening the watchdog's connection (a new one for each try while the gate is closed). */
  connectTimeoutMs: number;
  /** Pings while the gate is open. */
  intervalMs?: number;
  /** Tries while it is closed. */
  retryMs?: number;
  /** Work on the pool (a checkout or a query) still waiting after this long asks for a ping at once. */
  suspectAfterMs?: number;
}

export interface HealthChange {
  available: boolean;
  /** Why it closed, in the driver's words or ours. */
  reason?: string;
  /** On opening: how long it was closed. */
  unavailableForMs?: number;
}

export interface DatabaseHealth {
  /** False from a ping that got no answer in time until the next ping that does. */
  isAvailable(): boolean;
  /** While closed, why: the failed ping's reason. */
  unavailableBecause(): string | undefined;
  /** Called when the gate closes and when it opens again, never for each ping. */
  onChange(listener: (change: HealthChange) => void): () => void;
  /** Pings now (after the ping under way, if any) and answers whether the gate is open after it. */
  check(): Promise<boolean>;
  /**
   * The pool calls this as work begins and the returned function when it ends; work still going after
   * suspectAfterMs asks for a ping, so a stall is found within about suspectAfterMs + pingTimeoutMs.
   * Nothing happens before start().
   */
  watch(): () => void;
  /** How many times the gate has closed (for the metrics). */
  closures(): number;
  /**
   * Starts the watchdog. The app does (buildApp); command-line tools and benches do not, so a long seed or
   * migration is never cut short by a ping that came late, and they open no extra connection.
   */
  start(): void;
  stop(): Promise<void>;
}

export const defaultPingTimeoutMs = 600;
const defaultIntervalMs = 1_000;
const defaultRetryMs = 500;
const defaultSuspectAfterMs = 100;
// Under a pool full of slow queries every waiting request is suspect: at most ten pings a second then.
const minimumSpacingMs = 100;

class NoAnswer extends Error {}

const noop = () => {};

/**
 * The promise's outcome, or NoAnswer once ms have passed. A busy event loop must not be taken for a
 * silent server: when the timer fires, the answer may be sitting unread in the socket, because timers run
 * before I/O in each turn of the loop. setImmediate runs after that turn's I/O, so an answer that arrived
 * in time is read before the verdict.
 */
function settleWithin<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (!settled) reject(new NoAnswer(`${what}: no answer within ${ms} ms`));
        }),
      ms,
    );
    work.then(
      (value) => {
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

const destroy = (client: pg.Client) => client.connection.stream.destroy();

/**
 * Why the server is not answering, or undefined when it did answer, if only with a refusal: a wrong
 * password or a missing database is not a stall, and the requests' own errors say it better than a 503.
 * Nor is "too many connections" (53300): the pool's open connections still work, and dropping them would
 * leave it unable to open new ones.
 */
function whyNotAnswering(error: unknown): string | undefined {
  if (error instanceof NoAnswer) return error.message;
  if (!isDatabaseUnavailable(error) || hasErrorCode(error, ["53300"])) return undefined;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The gate's own connection, outside the pool: kept open between pings, replaced when it dies or a ping
 * on it gets no answer.
 */
function createWatchdogConnection(options: HealthGateOptions, isStopped: () => boolean) {
  /** The watchdog's open connection; null until the next ping opens one. */
  let connection: pg.Client | null = null;
  let opening: pg.Client | null = null;

  function openConnection(): pg.Client {
    const client = new pg.Client({
      connectionString: options.connectionString,
      application_name: "helpdesk health check",
      keepAlive: true,
    });
    // A connection the server closes between pings is replaced by the next ping, not reported.
    client.on("error", () => {
      if (connection === client) connection = null;
    });
    return client;
  }

  /** One ping: undefined when PostgreSQL answered, else why not. */
  async function pingOnce(): Promise<string | undefined> {
    const reused = connection;
    if (reused) {
      try {
        await settleWithin(reused.query("select 1"), options.pingTimeoutMs, "ping timeout");
        return undefined;
      } catch (error) {
        // A frozen connection would answer a later ping with this one's late reply: never reuse it.
        if (connection === reused) connection = null;
        destroy(reused);
        if (error instanceof NoAnswer) return error.message;
        // It died between pings (the server restarted, say): the next question is whether a new one answers.
      }
    }
    const client = openConnection();
    opening = client;
    try {
      await settleWithin(client.connect(), options.connectTimeoutMs, "connection timeout");
      await settleWithin(client.query("select 1"), options.pingTimeoutMs, "ping timeout");
      if (isStopped()) {
        destroy(client);
        return undefined;
      }
      connection = client;
      return undefined;
    } catch (error) {
      destroy(client);
      return whyNotAnswering(error);
    } finally {
      opening = null;
    }
  }

  /** Ends the connection; one a ping is still using is destroyed rather than waited for. */
  async function close({ pingUnderWay }: { pingUnderWay: boolean }) {
    if (opening) destroy(opening);
    const open = connection;
    connection = null;
    if (!open) return;
    if (pingUnderWay) destroy(open);
    else await open.end().catch(() => {});
  }

  return { pingOnce, close };
}

export function createHealthGate(options: HealthGateOptions): DatabaseHealth {
  const intervalMs = options.intervalMs ?? defaultIntervalMs;
  const retryMs = options.retryMs ?? defaultRetryMs;
  const suspectAfterMs = options.suspectAfterMs ?? defaultSuspectAfterMs;
  const listeners = new Set<(change: HealthChange) => void>();
  let available = true;
  let reasonClosed: string | undefined;
  let unavailableSince = 0;
  let closures = 0;
  let started = false;
  let stopped = false;
  let running: Promise<void> | null = null;
  let lastStartedAt = Number.NEGATIVE_INFINITY;
  /** Work that began after the ping under way started is waiting too long: ping again after it. */
  let pingAgain = false;
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Number.POSITIVE_INFINITY;
  const watchdog = createWatchdogConnection(options, () => stopped);

  function settle(reason: string | undefined) {
    if (stopped) return;
    if (reason !== undefined) reasonClosed = reason;
    if (reason === undefined && !available) {
      available = true;
      reasonClosed = undefined;
      const unavailableForMs = Math.round(performance.now() - unavailableSince);
      for (const listener of listeners) listener({ available, unavailableForMs });
    } else if (reason !== undefined && available) {
      available = false;
      unavailableSince = performance.now();
      closures++;
      for (const listener of listeners) listener({ available, reason });
    }
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    const at = performance.now() + delayMs;
    if (timer && at >= dueAt) return;
    clearTimeout(timer);
    dueAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      dueAt = Number.POSITIVE_INFINITY;
      void ping();
    }, delayMs);
    timer.unref();
  }

  function ping(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) return running;
    clearTimeout(timer);
    timer = undefined;
    dueAt = Number.POSITIVE_INFINITY;
    lastStartedAt = performance.now();
    running = watchdog.pingOnce().then((reason) => {
      running = null;
      settle(reason);
      const again = pingAgain && available;
      pingAgain = false;
      if (again) schedule(Math.max(0, lastStartedAt + minimumSpacingMs - performance.now()));
      else schedule(available ? intervalMs : retryMs);
    });
    return running;
  }

  /** Work that began at startedAt has waited suspectAfterMs. */
  function suspect(startedAt: number) {
    if (stopped || !available) return;
    // A ping sent after this work began either answered (the work is merely slow) or will close the gate.
    if (lastStartedAt >= startedAt) return;
    if (running) {
      pingAgain = true;
      return;
    }
    schedule(Math.max(0, lastStartedAt + minimumSpacingMs - performance.now()));
  }

  function start() {
    if (started || stopped) return;
    started = true;
    void ping();
  }

  return {
    isAvailable: () => available,
    unavailableBecause: () => (available ? undefined : reasonClosed),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    check: async () => {
      started = true;
      // A ping under way may have been sent before the question: its answer is not about now.
      if (running) await running;
      await ping();
      return available;
    },
    watch: () => {
      if (!started) return noop;
      const startedAt = performance.now();
      const suspicion = setTimeout(() => suspect(startedAt), suspectAfterMs);
      return () => clearTimeout(suspicion);
    },
    closures: () => closures,
    start,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      listeners.clear();
      await watchdog.close({ pingUnderWay: running !== null });
    },
  };
}

/** What the pool throws, without touching a connection, while the gate is closed. */
export const gateClosedError = (health: DatabaseHealth) =>
  new Error(`${databaseMarkedUnavailable}: ${health.unavailableBecause() ?? "no answer"}`);
