import { hash, verify } from "@node-rs/argon2";

// argon2id at OWASP's minimum (19 MiB, t=2, p=1); @node-rs/argon2 runs it off the event loop.
const argon2idOptions = {
  algorithm: 2 /* Algorithm.Argon2id */,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * One hash at a time per process. libuv's pool would run four at once, and on a small machine four
 * hashing threads take every core from the event loop: during a burst of sign-ins every other request
 * waited (event-loop delay p99 38 ms at 20 sign-ins a second on 2 cores). Queued, a hash waits its turn
 * instead, and one core is always left for everything else.
 */
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => {});
  return run;
}

export function hashPassword(password: string): Promise<string> {
  return oneAtATime(() => hash(password, argon2idOptions));
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }) {
  try {
    return await oneAtATime(() => verify(stored, password));
  } catch {
    return false;
  }
}
