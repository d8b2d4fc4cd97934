import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// One row per scheduled job (decision 018): the lease that lets one app instance at a time run it, and
// the last run, so that a restart neither repeats a job that ran recently nor forgets one that is overdue.
export const scheduledJobs = pgTable("scheduled_jobs", {
  name: text("name").primaryKey(),
  /** The instance holding the lease may run the job until then; null or past: free to claim. */
  lockedUntil: timestamp("locked_until", { withTimezone: true, precision: 3 }),
  lockedBy: text("locked_by"),
  /** When the last successful run started; the next one is due an interval later. */
  lastRunAt: timestamp("last_run_at", { withTimezone: true, precision: 3 }),
  lastFinishedAt: timestamp("last_finished_at", { withTimezone: true, precision: 3 }),
  /** Items the last successful run handled. */
  lastDone: integer("last_done"),
  lastDurationMs: integer("last_duration_ms"),
  /** The last failure's message; cleared by the next success. */
  lastError: text("last_error"),
  lastErrorAt: timestamp("last_error_at", { withTimezone: true, precision: 3 }),
});

export type ScheduledJobRow = typeof scheduledJobs.$inferSelect;
