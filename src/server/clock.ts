/** Where services and jobs read the time. Production always uses systemClock; tests inject a controllable one. */
export interface Clock {
  now(): Date;
  /**
   * Test clocks only: they jump instead of flowing, and call `listener` after each jump, so that a timer set
   * for a time on this clock (`runAt`) looks again. Returns a function that stops listening.
   */
  onJump?(listener: () => void): () => void;
}

export const systemClock: Clock = { now: () => new Date() };

/** The longest delay setTimeout holds (about 24.8 days); a later time is looked at again then. */
const longestTimerMs = 2 ** 31 - 1;

/**
 * Calls `run` once `clock` reads `at` or later. A timer for the time left, which looks again when it fires
 * (the wall clock may have been set meanwhile) and after each jump of a test clock. Unref'd: it never keeps
 * the process alive. Returns a function that cancels it.
 */
export function runAt(clock: Clock, at: Date, run: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  let stopListening: (() => void) | undefined;
  const cancel = () => {
    done = true;
    clearTimeout(timer);
    stopListening?.();
  };
  const look = () => {
    if (done) return;
    const left = at.getTime() - clock.now().getTime();
    if (left <= 0) {
      cancel();
      run();
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(look, Math.min(left, longestTimerMs));
    timer.unref();
  };
  stopListening = clock.onJump?.(look);
  look();
  return cancel;
}
