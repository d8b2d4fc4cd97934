import type { Clock } from "#server/clock.ts";

export interface TestClock extends Clock {
  /** Moves the time forward (or back, with a negative amount). */
  advance(ms: number): void;
  set(at: Date): void;
}

/** Listeners told after each jump of a test clock (Clock.onJump), so timers set on it (runAt) look again. */
function jumpListeners() {
  const listeners = new Set<() => void>();
  return {
    onJump(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    jumped() {
      for (const listener of [...listeners]) listener();
    },
  };
}

/** A clock that stands still until the test moves it: inject it through AppDeps, the job runner or a ServiceContext. */
export function createTestClock(start: Date = new Date("2030-01-07T09:00:00Z")): TestClock {
  let current = start.getTime();
  const { onJump, jumped } = jumpListeners();
  return {
    now: () => new Date(current),
    onJump,
    advance: (ms) => {
      current += ms;
      jumped();
    },
    set: (at) => {
      current = at.getTime();
      jumped();
    },
  };
}

export interface OffsetClock extends Clock {
  /** Moves the time forward by `ms` from here on (sessions and cookies keep working: real time still passes). */
  advance(ms: number): void;
  /** How far ahead of the system clock it runs. */
  offsetMs(): number;
}

/**
 * The system time plus an offset the browser journeys move (scripts/e2e-app.ts): a ticket's due time can
 * pass without waiting, while everything that reads real time (sign-in sessions, cookies) goes on as usual.
 */
export function createOffsetClock(): OffsetClock {
  let offset = 0;
  const { onJump, jumped } = jumpListeners();
  return {
    now: () => new Date(Date.now() + offset),
    onJump,
    advance: (ms) => {
      offset += ms;
      jumped();
    },
    offsetMs: () => offset,
  };
}
