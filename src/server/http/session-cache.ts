import type { Bus, BusMessage } from "#server/realtime/bus.ts";
import type { Actor } from "#shared/permissions.ts";

/** What a valid session cookie resolved to: who, which session, and until when the session holds. */
export interface CachedSession {
  actor: Actor;
  sessionId: string;
  expiresAt: number;
  /** Must set up two-factor sign-in before using the API (decision 046). */
  mustSetUpTwoFactor: boolean;
}

interface Entry extends CachedSession {
  userId: string;
  /** When this entry stops being trusted without asking the database again. */
  freshUntil: number;
}

export interface SessionCache {
  get(key: string, now: number): CachedSession | null;
  set(key: string, session: CachedSession, now: number): void;
  /** Forgets every cached session of this person (sign-out, deactivation, role change…). */
  evictUser(userId: string): void;
  clear(): void;
  readonly size: number;
  /** Moves on at every eviction: a lookup that began before one must not cache what it read. */
  readonly epoch: number;
}

/**
 * Half a minute's memory of which session cookie is whom (decisions 039 and 066), so that a person's
 * requests do not each ask the database. Anything that ends a session or changes what it may do says so
 * after its commit: "session-ended" for one person (sign-out, deactivation, a role changed or chosen, a
 * password reset's revocation, a session revoked, two-factor turned on or off — every session better-auth
 * deletes), "sessions-changed" for everyone (the two-factor requirement). The instance that made the change
 * forgets at once (before it answers), the others when the bus delivers it (LISTEN/NOTIFY, milliseconds);
 * a bus that may have lost messages empties the cache. A session's expiry is kept with it. What is left to
 * `ttlMs` is a change made in SQL behind the app's back, and an announcement the bus failed to send.
 */
export function createSessionCache({ ttlMs, max }: { ttlMs: number; max: number }): SessionCache {
  const entries = new Map<string, Entry>();
  let epoch = 0;
  return {
    get(key, now) {
      const entry = entries.get(key);
      if (!entry) return null;
      if (entry.freshUntil <= now || entry.expiresAt <= now) {
        entries.delete(key);
        return null;
      }
      return entry;
    },
    set(key, session, now) {
      if (ttlMs <= 0) return;
      entries.delete(key);
      // Oldest first in a Map: dropping the first keeps the cache bounded however many cookies arrive.
      if (entries.size >= max) entries.delete(entries.keys().next().value as string);
      entries.set(key, { ...session, userId: session.actor.id, freshUntil: now + ttlMs });
    },
    evictUser(userId) {
      epoch++;
      for (const [key, entry] of entries) if (entry.userId === userId) entries.delete(key);
    },
    clear() {
      epoch++;
      entries.clear();
    },
    get size() {
      return entries.size;
    },
    get epoch() {
      return epoch;
    },
  };
}

/** What a message means for the cache: "session-ended" evicts the person, "sessions-changed" everyone. */
export const sessionCacheRule = (cache: SessionCache) => (message: BusMessage) => {
  if (message.kind === "session-ended") cache.evictUser(message.userId);
  if (message.kind === "sessions-changed") cache.clear();
};

/** Keeps the cache honest across instances: sessionCacheRule for every message; a possible gap empties it. */
export function listenForSessionChanges(bus: Bus, cache: SessionCache): () => void {
  const unsubscribe = bus.subscribe(sessionCacheRule(cache));
  const unGap = bus.onGap(() => cache.clear());
  return () => {
    unsubscribe();
    unGap();
  };
}
