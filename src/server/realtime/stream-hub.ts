import type { Db } from "#server/db/client.ts";
import type { NotificationRow } from "#server/db/schema/index.ts";
import { toNotificationDto } from "#server/features/notifications/notification.presenter.ts";
import {
  findLatestNotificationId,
  findNotificationsAfter,
  findNotificationsByIds,
  findNotificationsOfEvent,
} from "#server/features/notifications/notification.queries.ts";
import { findTicketFacts } from "#server/features/tickets/ticket.queries.ts";
import { findUserById } from "#server/features/users/user.queries.ts";
import type { LogError } from "#server/log-error.ts";
import { heartbeatIntervalMs } from "#shared/notifications/notification.schemas.ts";
import { type Actor, can } from "#shared/permissions.ts";
import type { Bus, BusMessage } from "./bus.ts";
import { findLiveSessionIds } from "./session.queries.ts";

/** One open Server-Sent Events stream: who it belongs to and how to write to it. */
export interface StreamClient {
  actor: Actor;
  sessionId: string;
  write(chunk: string): void;
  end(): void;
}

export interface StreamHub {
  /** Registers the stream, replays what came after lastEventId, then says `ready` with its position as id. */
  open(client: StreamClient, lastEventId: number | null): Promise<void>;
  remove(client: StreamClient): void;
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

export interface StreamHubOptions {
  db: Db;
  bus: Bus;
  logError: LogError;
  heartbeatMs?: number;
  /** How often every stream's session is checked for expiry or deactivation. */
  sessionSweepMs?: number;
  /** At most this many missed notifications are replayed; the list is the truth beyond that. */
  replayLimit?: number;
}

interface Entry {
  client: StreamClient;
  /** While replaying, live rows wait here so that nothing is sent twice or out of order. */
  pending: NotificationRow[] | null;
  /**
   * What the replay sent: a live delivery whose rows were loaded while the replay ran can arrive after it
   * ended, and must not send them again (at most replayLimit ids, for the stream's life). Null when the
   * stream replayed nothing, as most do: an idle stream should hold as little as possible.
   */
  replayed: Set<number> | null;
}

const frame = (event: string, data: unknown, id?: number) =>
  `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * `notification` frames for rows in id order. The rows of one event say the same thing to each recipient
 * (a broadcast to 1,000 technicians: the same text 1,000 times) but for their id and recipient: that common
 * part is serialised once and each frame is only its id and person in front of it. Byte for byte what
 * `frame("notification", toNotificationDto(row), row.id)` would be.
 */
function notificationFrames() {
  let last: NotificationRow | null = null;
  let lastParams = "";
  let tail = "";
  // Each row's params are an object of their own (jsonb, parsed): compared by their text, one
  // serialisation a row.
  const sameContent = (a: NotificationRow, b: NotificationRow, bParams: string) =>
    a.type === b.type &&
    a.message === b.message &&
    a.ticketId === b.ticketId &&
    a.broadcast === b.broadcast &&
    (a.readAt === null) === (b.readAt === null) &&
    a.createdAt.getTime() === b.createdAt.getTime() &&
    lastParams === bParams;
  return (row: NotificationRow) => {
    const params = JSON.stringify(row.params);
    if (!last || !sameContent(last, row, params)) {
      lastParams = params;
      const { notificationId: _id, uid: _uid, ...content } = toNotificationDto(row);
      // Without its opening brace, to follow the two fields that differ (the DTO's own key order).
      tail = JSON.stringify(content).slice(1);
      last = row;
    }
    return `id: ${row.id}\nevent: notification\ndata: {"notificationId":"${row.id}","uid":${JSON.stringify(row.userId)},${tail}\n\n`;
  };
}

/**
 * The streams open on this instance, by person. A bus message names an event or notifications; the hub
 * loads the rows once, for the people connected here only, and writes each to its recipient's streams only.
 */
export function createStreamHub({
  db,
  bus,
  logError,
  heartbeatMs = heartbeatIntervalMs,
  sessionSweepMs = 30_000,
  replayLimit = 500,
}: StreamHubOptions): StreamHub {
  const byUser = new Map<string, Set<Entry>>();
  const byClient = new Map<StreamClient, Entry>();

  function write(entry: Entry, chunk: string) {
    try {
      entry.client.write(chunk);
    } catch {
      remove(entry.client);
    }
  }

  function send(entry: Entry, row: NotificationRow) {
    if (entry.replayed?.has(row.id)) return;
    if (entry.pending) entry.pending.push(row);
    else write(entry, frame("notification", toNotificationDto(row), row.id));
  }

  function remove(client: StreamClient) {
    const entry = byClient.get(client);
    if (!entry) return;
    byClient.delete(client);
    const set = byUser.get(client.actor.id);
    set?.delete(entry);
    if (set?.size === 0) byUser.delete(client.actor.id);
  }

  function end(entry: Entry) {
    remove(entry.client);
    try {
      entry.client.end();
    } catch {
      // Already gone: nothing to close.
    }
  }

  function deliver(rows: NotificationRow[]) {
    for (const row of rows) for (const entry of byUser.get(row.userId) ?? []) send(entry, row);
  }

  /**
   * A ticket event: each connected recipient's rows, then "ticket changed" to every stream whose person may
   * see the ticket, all of a stream's frames in one write. One write is one system call per stream, and a new
   * ticket's fan-out is about nothing else (two writes a technician before: notification, then ticket).
   */
  async function handleTicketEvent(message: Extract<BusMessage, { kind: "ticket-event" }>) {
    // Nobody this event notified is connected here: no rows to read.
    const people = message.recipients
      ? message.recipients.filter((id) => byUser.has(id))
      : [...byUser.keys()];
    const [rows, ticket] = await Promise.all([
      people.length > 0 ? findNotificationsOfEvent(db, message.eventId, people) : [],
      message.ticket ?? findTicketFacts(db, message.ticketId),
    ]);
    const chunks = new Map<Entry, string>();
    const notificationFrame = notificationFrames();
    for (const row of rows) {
      let text: string | undefined;
      for (const entry of byUser.get(row.userId) ?? []) {
        if (entry.replayed?.has(row.id)) continue;
        if (entry.pending) {
          entry.pending.push(row);
          continue;
        }
        text ??= notificationFrame(row);
        chunks.set(entry, (chunks.get(entry) ?? "") + text);
      }
    }
    if (ticket) {
      const changed = frame("ticket", { ticketId: message.ticketId });
      for (const entry of byClient.values()) {
        const { actor } = entry.client;
        if (can.viewTicket(actor, ticket) && (!message.staffOnly || can.seeInternal(actor)))
          chunks.set(entry, (chunks.get(entry) ?? "") + changed);
      }
    }
    for (const [entry, text] of chunks) write(entry, text);
  }

  async function endDeadSessions(entries: Entry[]) {
    const live = await findLiveSessionIds(
      db,
      [...new Set(entries.map((e) => e.client.sessionId))],
      new Date(),
    );
    for (const entry of entries) if (!live.has(entry.client.sessionId)) end(entry);
  }

  async function handle(message: BusMessage) {
    const people = [...byUser.keys()];
    if (people.length === 0) return;
    if (message.kind === "session-ended") {
      const entries = [...(byUser.get(message.userId) ?? [])];
      // A stream decides what its person may see by the role it opened with: after a role change it
      // closes, and the browser's reconnect opens one with the new role.
      const person = entries.length > 0 ? await findUserById(db, message.userId) : undefined;
      for (const entry of entries) if (entry.client.actor.role !== (person?.role ?? null)) end(entry);
      await endDeadSessions(entries.filter((entry) => byClient.has(entry.client)));
      return;
    }
    if (message.kind === "notifications") {
      deliver(await findNotificationsByIds(db, message.ids, people));
      return;
    }
    await handleTicketEvent(message);
  }

  const inFlight = new Set<Promise<void>>();
  const unsubscribe = bus.subscribe((message) => {
    const handling = handle(message)
      .catch((error) => logError(error, "could not push a bus message to the streams"))
      .finally(() => inFlight.delete(handling));
    inFlight.add(handling);
  });
  // Browsers reconnect with Last-Event-ID and the table replays whatever the gap swallowed.
  const unsubscribeGap = bus.onGap(() => {
    for (const entry of [...byClient.values()]) end(entry);
  });
  const heartbeat = setInterval(() => {
    for (const entry of byClient.values()) write(entry, ": ping\n\n");
  }, heartbeatMs);
  const sweep = setInterval(() => {
    endDeadSessions([...byClient.values()]).catch((error) =>
      logError(error, "could not check stream sessions"),
    );
  }, sessionSweepMs);
  heartbeat.unref();
  sweep.unref();

  return {
    async open(client, lastEventId) {
      const entry: Entry = { client, pending: [], replayed: null };
      byClient.set(client, entry);
      const set = byUser.get(client.actor.id) ?? new Set();
      set.add(entry);
      byUser.set(client.actor.id, set);
      // Reconnecting browsers wait 2 s (spec's polling interval), not EventSource's default 3 s.
      write(entry, "retry: 2000\n\n");
      let last: number | null = lastEventId;
      try {
        if (lastEventId !== null) {
          const rows = await findNotificationsAfter(db, client.actor.id, lastEventId, replayLimit);
          if (rows.length > 0) entry.replayed = new Set();
          for (const row of rows) {
            write(entry, frame("notification", toNotificationDto(row), row.id));
            entry.replayed?.add(row.id);
            last = row.id;
          }
        } else {
          last = await findLatestNotificationId(db, client.actor.id);
        }
      } finally {
        const waiting = entry.pending ?? [];
        entry.pending = null;
        for (const row of waiting) {
          if (entry.replayed?.has(row.id)) continue;
          send(entry, row);
          last = Math.max(last ?? 0, row.id);
        }
      }
      // Its id is where the stream stands, so a browser that drops it before any notification arrived still
      // reconnects with Last-Event-ID and gets what the gap swallowed (0: they had none, so all theirs).
      write(entry, frame("ready", { lastEventId: last === null ? null : String(last) }, last ?? 0));
    },
    remove,
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
        write(entry, `retry: ${500 + Math.floor(Math.random() * 1_500)}\n\n`);
        end(entry);
      }
    },
  };
}
