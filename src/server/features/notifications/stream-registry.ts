import type { Actor } from "#shared/permissions.ts";
import type { ReaderNotification } from "./notification-audience.queries.ts";
import { notificationFrame } from "./stream-frames.ts";

/** One open Server-Sent Events stream: who it belongs to and how to write to it. */
export interface StreamClient {
  actor: Actor;
  sessionId: string;
  write(chunk: string): void;
  end(): void;
}

export interface StreamEntry {
  client: StreamClient;
  /** While replaying, live rows wait here so that nothing is sent twice or out of order. */
  pending: ReaderNotification[] | null;
  /**
   * What the replay sent: a live delivery whose rows were loaded while the replay ran can arrive after it
   * ended, and must not send them again (at most replayLimit ids, for the stream's life). Null when the
   * stream replayed nothing, as most do: an idle stream should hold as little as possible.
   */
  replayed: Set<number> | null;
}

/** The streams open on this instance, by person and by client, and the ways to write to and end them. */
export interface StreamRegistry {
  byUser: Map<string, Set<StreamEntry>>;
  byClient: Map<StreamClient, StreamEntry>;
  add(client: StreamClient): StreamEntry;
  /** Writes a chunk; a stream that cannot take it is forgotten. */
  write(entry: StreamEntry, chunk: string): void;
  /** A row to its stream: held while it replays, never a row its replay sent. */
  send(entry: StreamEntry, row: ReaderNotification): void;
  remove(client: StreamClient): void;
  end(entry: StreamEntry): void;
}

export function createStreamRegistry(): StreamRegistry {
  const byUser = new Map<string, Set<StreamEntry>>();
  const byClient = new Map<StreamClient, StreamEntry>();

  function remove(client: StreamClient) {
    const entry = byClient.get(client);
    if (!entry) return;
    byClient.delete(client);
    const set = byUser.get(client.actor.id);
    set?.delete(entry);
    if (set?.size === 0) byUser.delete(client.actor.id);
  }

  function write(entry: StreamEntry, chunk: string) {
    try {
      entry.client.write(chunk);
    } catch {
      remove(entry.client);
    }
  }

  return {
    byUser,
    byClient,
    add(client) {
      const entry: StreamEntry = { client, pending: [], replayed: null };
      byClient.set(client, entry);
      const set = byUser.get(client.actor.id) ?? new Set();
      set.add(entry);
      byUser.set(client.actor.id, set);
      return entry;
    },
    write,
    send(entry, row) {
      if (entry.replayed?.has(row.id)) return;
      if (entry.pending) entry.pending.push(row);
      else write(entry, notificationFrame(row));
    },
    remove,
    end(entry) {
      remove(entry.client);
      try {
        entry.client.end();
      } catch {
        // Already gone: nothing to close.
      }
    },
  };
}
