import { setTimeout as delay } from "node:timers/promises";
import type { Database } from "./client.ts";
import { unavailabilityOf } from "./connection-errors.ts";

export interface WaitOptions {
  log: (message: string) => void;
  /** 0 or Infinity: keep trying. */
  giveUpAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const firstPauseMs = 1_000;
const longestPauseMs = 30_000;

/**
 * Start-up on a database that is not up yet (containers starting together, a server rebooting): pings until
 * it answers, pausing 1, 2, 4 … 30 s between tries. Other failures (wrong password, no such database) stop
 * at once, since waiting will not fix them.
 */
export async function waitForDatabase(
  database: Database,
  { log, giveUpAfterMs = 0, sleep = (ms) => delay(ms), now = Date.now }: WaitOptions,
): Promise<void> {
  const started = now();
  const limit = giveUpAfterMs > 0 ? giveUpAfterMs : Number.POSITIVE_INFINITY;
  for (let pause = firstPauseMs; ; pause = Math.min(pause * 2, longestPauseMs)) {
    try {
      await database.ping();
      return;
    } catch (error) {
      const reason = unavailabilityOf(error);
      if (!reason) throw new Error(`${database.location}: ${innermostMessage(error)}`, { cause: error });
      const remaining = limit - (now() - started);
      if (remaining <= 0) {
        throw new Error(
          `${database.location} did not answer within ${limit / 1000} s (last error: ${reason})`,
        );
      }
      const wait = Math.min(pause, remaining);
      log(`${database.location} is not answering (${reason}); retrying in ${wait / 1000} s`);
      await sleep(wait);
    }
  }
}

/** drizzle wraps the server's words ("database \"x\" does not exist") in "Failed query: select 1". */
function innermostMessage(error: unknown): string {
  let message = String(error);
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    message = current.message;
    current = current.cause;
  }
  return message;
}
