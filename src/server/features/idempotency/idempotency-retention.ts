import type { Job } from "#server/jobs/job-runner.ts";
import { purgeIdempotencyKeys } from "./idempotency.queries.ts";

/** How long a key and its answer are kept: a retry within this time gets the first answer again. */
export const idempotencyKeyLifetimeMs = 24 * 60 * 60_000;

/**
 * Deletes the keys whose lifetime is over (decision 078), hourly, once across instances. Only storage:
 * a key that has expired but is still stored is taken over by its next request, so nothing waits for this.
 */
export function idempotencyKeyRetentionJob(): Job {
  return {
    name: "idempotency-key-retention",
    intervalMs: 60 * 60_000,
    run: async ({ db, clock }) => ({
      done: await purgeIdempotencyKeys(db, new Date(clock.now().getTime() - idempotencyKeyLifetimeMs)),
    }),
  };
}
