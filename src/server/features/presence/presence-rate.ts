/**
 * Presence requests per person, counted in this instance's memory: a heartbeat must cost no database
 * write, so the shared rate_limits table (rate-limit.ts) is not for it. Behind a balancer each instance
 * counts its share; the limit is there to stop a runaway page, not to be exact.
 */
export function createPresenceRate({ windowMs, max }: { windowMs: number; max: number }) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    /** Counts one request; the seconds to wait when it is one too many, else 0. */
    retryAfter(userId: string, now: number): number {
      const window = windows.get(userId);
      if (!window || window.start + windowMs <= now) {
        windows.set(userId, { start: now, count: 1 });
        return 0;
      }
      window.count += 1;
      return window.count > max ? Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)) : 0;
    },
    /** Forgets the windows that ended, so that the map holds only people active lately. */
    sweep(now: number) {
      for (const [userId, window] of windows) if (window.start + windowMs <= now) windows.delete(userId);
    },
  };
}
