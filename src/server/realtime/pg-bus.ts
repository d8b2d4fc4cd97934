import { sql } from "drizzle-orm";
import pg from "pg";
import type { Db } from "#server/db/client.ts";
import type { DatabaseHealth } from "#server/db/health-gate.ts";
import type { LogError } from "#server/log-error.ts";
import { type Bus, type BusListener, decodeBusMessage, encodeBusMessage } from "./bus.ts";

export const busChannel = "helpdesk_events";

/**
 * Every app instance LISTENs on one channel through a dedicated connection; publishing is a pg_notify
 * from the pool, sent after the writer's transaction committed (inside it, it cuts write throughput).
 * A lost listener reconnects with backoff and reports a gap: messages sent meanwhile are gone, so the
 * streams are closed and browsers reconnect with Last-Event-ID, replaying from the table.
 *
 * A stalled server breaks nothing that the listener could notice: its connection just stops delivering,
 * for good (the pool's health gate notices, decision 049). So when the gate opens again, the listener starts
 * over on a new connection, as after a loss.
 */
export async function createPgBus({
  connectionString,
  db,
  logError,
  health,
}: {
  connectionString: string;
  db: Db;
  logError: LogError;
  health?: Pick<DatabaseHealth, "onChange">;
}): Promise<Bus> {
  const listeners = new Set<BusListener>();
  const gapListeners = new Set<() => void>();
  let current: pg.Client | null = null;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;

  function lost(client: pg.Client, error?: unknown) {
    // Each client is given up once, whether it reports an error, an end, or both.
    if (closed || current !== client) return;
    current = null;
    if (error) logError(error, "the push listener lost its PostgreSQL connection");
    client.removeAllListeners();
    client.on("error", () => {});
    client.end().catch(() => {});
    const delay = Math.min(10_000, 250 * 2 ** failures++);
    retry = setTimeout(() => void connect(true), delay);
    retry.unref();
  }

  async function connect(isReconnect: boolean) {
    if (closed) return;
    const client = new pg.Client({ connectionString });
    current = client;
    client.on("notification", (message) => {
      if (message.channel !== busChannel || !message.payload) return;
      const decoded = decodeBusMessage(message.payload);
      if (decoded) for (const listener of listeners) listener(decoded);
    });
    client.on("error", (error) => lost(client, error));
    client.on("end", () => lost(client));
    try {
      await client.connect();
      await client.query(`listen ${busChannel}`);
      failures = 0;
      if (isReconnect) for (const listener of gapListeners) listener();
    } catch (error) {
      lost(client, error);
    }
  }

  await connect(false);
  const stopWatching = health?.onChange(({ available }) => {
    if (!available || closed) return;
    const frozen = current;
    current = null;
    clearTimeout(retry);
    failures = 0;
    if (frozen) {
      frozen.removeAllListeners();
      frozen.on("error", () => {});
      frozen.connection.stream.destroy();
    }
    void connect(true);
  });

  return {
    publish: async (message) => {
      await db.execute(sql`select pg_notify(${busChannel}, ${encodeBusMessage(message)})`);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onGap: (listener) => {
      gapListeners.add(listener);
      return () => gapListeners.delete(listener);
    },
    close: async () => {
      closed = true;
      stopWatching?.();
      clearTimeout(retry);
      listeners.clear();
      gapListeners.clear();
      const client = current;
      current = null;
      await client?.end().catch(() => {});
    },
  };
}
