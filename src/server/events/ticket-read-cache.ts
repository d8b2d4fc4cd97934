import type { Bus, BusMessage } from "#server/realtime/bus.ts";

/**
 * A few seconds' memory of what answers with tickets read and only an announced change changes (decision
 * 066): the dashboard counters a list's total and the dashboards are summed from, and the settings tickets
 * are presented with. Every ticket change the app makes ("ticket-event") and every settings area saved
 * ("settings-changed") is announced after its commit: the instance that made it forgets everything at once
 * (before it answers), the others when the bus delivers it (LISTEN/NOTIFY, milliseconds); a bus that may
 * have lost messages empties it too. A change made in SQL behind the app's back is seen within `ttlMs`.
 */
export interface TicketReadCache {
  /** What `key` read less than ttlMs ago and no ticket change since; otherwise `load`, remembered. */
  read<V>(key: string, load: () => Promise<V>): Promise<V>;
  /** Forgets everything: a ticket or a setting changed, or announcements may have been lost. */
  clear(): void;
  readonly size: number;
}

interface Entry {
  /** The read, kept from the moment it starts: requests that ask meanwhile wait for it instead of reading. */
  value: Promise<unknown>;
  freshUntil: number;
}

export function createTicketReadCache({ ttlMs, max }: { ttlMs: number; max: number }): TicketReadCache {
  const entries = new Map<string, Entry>();
  return {
    read<V>(key: string, load: () => Promise<V>): Promise<V> {
      const now = Date.now();
      const entry = entries.get(key);
      if (entry && entry.freshUntil > now) return entry.value as Promise<V>;
      if (entry) entries.delete(key);
      const value = load();
      if (ttlMs <= 0) return value;
      // A clear while it runs removes it, so a read that began before a change is not kept after it.
      const kept: Entry = { value, freshUntil: now + ttlMs };
      // Oldest first in a Map: dropping the first keeps the cache bounded however many people ask.
      if (entries.size >= max) entries.delete(entries.keys().next().value as string);
      entries.set(key, kept);
      value.catch(() => {
        if (entries.get(key) === kept) entries.delete(key);
      });
      return value;
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}

/** What a message means for the cache: a ticket or a setting changed, so it forgets everything. */
export const ticketReadCacheRule = (cache: TicketReadCache) => (message: BusMessage) => {
  if (message.kind === "ticket-event" || message.kind === "settings-changed") cache.clear();
};

/** Keeps the cache honest across instances: ticketReadCacheRule for every message; a gap empties it. */
export function listenForTicketChanges(bus: Bus, cache: TicketReadCache): () => void {
  const unsubscribe = bus.subscribe(ticketReadCacheRule(cache));
  const unGap = bus.onGap(() => cache.clear());
  return () => {
    unsubscribe();
    unGap();
  };
}
