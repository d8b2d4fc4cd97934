import type { Db } from "../../db/client.ts";
import { deleteUnlinkedBefore } from "./attachment.queries.ts";

const dayMs = 24 * 60 * 60_000;

/** Uploads never linked within a day (a form abandoned, a process that died mid-upload) are deleted. */
export function deleteAbandonedUploads(db: Db, now: Date) {
  return deleteUnlinkedBefore(db, new Date(now.getTime() - dayMs));
}

/** Runs the cleanup hourly. Returns a function that stops it. */
export function startAttachmentCleanup({
  db,
  log,
  clock = () => new Date(),
  intervalMs = 60 * 60_000,
}: {
  db: Db;
  log: { info: (message: string) => void; error: (message: string) => void };
  clock?: () => Date;
  intervalMs?: number;
}): () => Promise<void> {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = deleteAbandonedUploads(db, clock())
      .then((deleted) => {
        if (deleted > 0) log.info(`Deleted ${deleted} attachments never sent within a day`);
      })
      .catch((error: unknown) =>
        log.error(
          `Deleting abandoned uploads failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
