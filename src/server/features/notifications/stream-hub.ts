import type { Db } from "#server/db/client.ts";
import type { LogError } from "#server/log-error.ts";
import type { Bus } from "#server/realtime/bus.ts";
import { heartbeatIntervalMs } from "#shared/notifications/notification.schemas.ts";
import type { Actor } from "#shared/permissions.ts";
import {
  findLatestReaderNotificationId,
  findReaderNotificationsAfter,
} from "./reader-notifications.queries.ts";
import { deliverBusMessage, endDeadSessions } from "./stream-delivery.ts";
import { frame, notificationFrame } from "./stream-frames.ts";
import {
  createStreamRegistry,
  type StreamClient,
  type StreamEntry,
  type StreamRegistry,
} from "./stream-registry.ts";

export type { StreamClient } from "./stream-registry.ts";

export interface StreamHub {
  /** Registers the stream, replays what came after lastEventId, then says `ready` with its position as id. */
  open(client: StreamClient, lastEventId: number | null): Promise<void>;
  remove(client: StreamClient): void;
  /**
   * Writes a frame to this person's streams open on this instance whose actor (role as the stream opened
   * with) `accept`s it: what another feature pushes that is not a notification (presence, decision 072).
   */
  sendTo(userId: string, chunk: string, accept: (actor: Actor) => boolean): void;
  readonly size: number;
  /** Resolves once every bus message received so far has been written to the streams. */
  settled(): Promise<void>;
  /**
   * Ends every stream (the app is shutting down). Each first gets a short `retry:` hint, spread over a
   * second or two, so browsers reconnect promptly (through the balancer, to an instance still running)
   * without all arriving at once; Last-Event-ID replays what they miss meanwhile.
   */
  close(): void;
}

interface StreamHubOptions {
  db: Db;
  bus: Bus;
  logError: LogError;
  heartbeatMs?: number;
  /** How often every stream's session is checked for expiry or deactivation. */
  sessionSweepMs?: number;
  /** At most this many missed notifications are replayed; the list is the truth beyond that. */
  replayLimit?: number;
}

/**
 * A new stream: `retry`, the replay of what came after lastEventId (live rows wait meanwhile and follow it,
 * none twice), then `ready` with where the stream stands.
 */
async function openStream(
  db: Db,
  streams: StreamRegistry,
  entry: StreamEntry,
  lastEventId: number | null,
  replayLimit: number,
) {
  const { client } = entry;
  // Reconnecting browsers wait 2 s, not EventSource's default 3 s.
  streams.write(entry, "retry: 2000\n\n");
  let last: number | null = lastEventId;
  try {
    if (lastEventId !== null) {
      const rows = await findReaderNotificationsAfter(db, client.actor.id, lastEventId, replayLimit);
      if (rows.length > 0) entry.replayed = new Set();
      for (const row of rows) {
        streams.write(entry, notificationFrame(row));
        entry.replayed?.add(row.id);
        last = row.id;
      }
    } else {
      last = await findLatestReaderNotificationId(db, client.actor.id);
    }
  } finally {
    const waiting = entry.pending ?? [];
    entry.pending = null;
    for (const row of waiting) {
      if (entry.replayed?.has(row.id)) continue;
      streams.send(entry, row);
      last = Math.max(last ?? 0, row.id);
    }
  }
  // Its id is where the stream stands, so a browser that drops it before any notification arrived still
  // reconnects with Last-Event-ID and gets what the gap swallowed (0: they had none, so all theirs).
  streams.write(entry, frame("ready", { lastEventId: last === null ? null : String(last) }, last ?? 0));
}

/**
 * The streams open on this instance, by person (docs/decisions/008-notifications-and-live-push.md). A bus
 * message names an event or notifications; the hub loads the rows once, for the people connected here only,
 * and writes each to its recipient's streams only. A heartbeat keeps them open, a sweep ends those whose
 * session ended.
 */
export function createStreamHub({
  db,
  bus,
  logError,
  heartbeatMs = heartbeatIntervalMs,
  sessionSweepMs = 30_000,
  replayLimit = 500,
}: StreamHubOptions): StreamHub {
  const streams = createStreamRegistry();
  const { byClient } = streams;

  const inFlight = new Set<Promise<void>>();
  const unsubscribe = bus.subscribe((message) => {
    const handling = deliverBusMessage(db, streams, message)
      .catch((error) => logError(error, "could not push a bus message to the streams"))
      .finally(() => inFlight.delete(handling));
    inFlight.add(handling);
  });
  // Browsers reconnect with Last-Event-ID and the table replays whatever the gap swallowed.
  const unsubscribeGap = bus.onGap(() => {
    for (const entry of [...byClient.values()]) streams.end(entry);
  });
  const heartbeat = setInterval(() => {
    for (const entry of byClient.values()) streams.write(entry, ": ping\n\n");
  }, heartbeatMs);
  const sweep = setInterval(() => {
    endDeadSessions(db, streams, [...byClient.values()]).catch((error) =>
      logError(error, "could not check stream sessions"),
    );
  }, sessionSweepMs);
  heartbeat.unref();
  sweep.unref();

  return {
    open: (client, lastEventId) => openStream(db, streams, streams.add(client), lastEventId, replayLimit),
    remove: streams.remove,
    sendTo(userId, chunk, accept) {
      for (const entry of streams.byUser.get(userId) ?? [])
        if (accept(entry.client.actor)) streams.write(entry, chunk);
    },
    get size() {
      return byClient.size;
    },
    async settled() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    close() {
      unsubscribe();
      unsubscribeGap();
      clearInterval(heartbeat);
      clearInterval(sweep);
      for (const entry of [...byClient.values()]) {
        streams.write(entry, `retry: ${500 + Math.floor(Math.random() * 1_500)}\n\n`);
        streams.end(entry);
      }
    },
  };
}
