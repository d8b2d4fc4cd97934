import type { Db } from "#server/db/client.ts";
import type { Job } from "#server/jobs/job-runner.ts";
import { deleteUnlinkedBefore } from "./attachment.queries.ts";

const dayMs = 24 * 60 * 60_000;

/** Uploads never linked within a day (a form abandoned, a process that died mid-upload) are deleted. */
export function deleteAbandonedUploads(db: Db, now: Date) {
  return deleteUnlinkedBefore(db, new Date(now.getTime() - dayMs));
}

/** The scheduled job (hourly by default) that deletes abandoned uploads. */
export function attachmentCleanupJob({ intervalMs = 60 * 60_000 }: { intervalMs?: number } = {}): Job {
  return {
    name: "attachment-cleanup",
    intervalMs,
    run: async ({ db, clock }) => ({ done: await deleteAbandonedUploads(db, clock.now()) }),
  };
}
