import { AppError } from "#server/errors.ts";

/**
 * How many requests that check or make a password hash this process lets in at once (decision 054).
 * password.ts runs one argon2id hash at a time (≈50 ms here), so the last of 32 waits about 1.6 s; a burst
 * beyond that is refused at once instead of queueing hundreds of hashes, each holding its request and
 * everything it has read, and keeping every later sign-in waiting behind it.
 */
export const defaultPasswordChecksInFlight = 32;

export interface PasswordCheckGate {
  /** A place among the checks in flight, and the function that gives it back (once), or null when full. */
  tryEnter(): (() => void) | null;
}

export function createPasswordCheckGate(max = defaultPasswordChecksInFlight): PasswordCheckGate {
  let inFlight = 0;
  return {
    tryEnter() {
      if (inFlight >= max) return null;
      inFlight += 1;
      let isReleased = false;
      return () => {
        if (isReleased) return;
        isReleased = true;
        inFlight -= 1;
      };
    },
  };
}

/** 503 with Retry-After (the error handler's, one second): the server is busy, not the caller at fault. */
export const passwordChecksBusy = () =>
  new AppError(
    "unavailable",
    "The server is checking too many passwords at once. Please try again in a moment.",
  );
