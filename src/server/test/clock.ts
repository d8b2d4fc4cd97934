import type { Clock } from "../clock.ts";

export interface TestClock extends Clock {
  /** Moves the time forward (or back, with a negative amount). */
  advance(ms: number): void;
  set(at: Date): void;
}

/** A clock that stands still until the test moves it: inject it through AppDeps, the job runner or a ServiceContext. */
export function createTestClock(start: Date = new Date("2030-01-07T09:00:00Z")): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (at) => {
      current = at.getTime();
    },
  };
}
