import { randomUUID } from "node:crypto";
import { type Clock, systemClock } from "#server/clock.ts";
import type { Db } from "#server/db/client.ts";
import type { Dispatcher } from "#server/events/dispatcher.ts";
import { claimDueJob, failJob, finishJob } from "./job-lease.queries.ts";

/** Pino's call shape (app.log fits); tests pass a recorder. */
export interface JobLog {
  info(fields: object, message: string): void;
  debug(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** What a handler receives: the database, the clock to read the time from, and the dispatcher for push after commit. */
export interface JobContext {
  db: Db;
  clock: Clock;
  log: JobLog;
  dispatcher?: Dispatcher;
  /** This instance's name in the lease table, for log lines. */
  instanceId: string;
}

export interface Job {
  /** Unique; the lease row's key. */
  name: string;
  /** A run is due this long after the last successful run started. */
  intervalMs: number;
  /**
   * How long one run may hold the lease; another instance may claim the job once it has passed (or once
   * the holder has died: decision 041). Handlers
   * that act on many items still claim each item (FOR UPDATE SKIP LOCKED or a conditional update), so an
   * expired lease never makes an item happen twice. 10 minutes by default.
   */
  leaseMs?: number;
  /** Does the due work and tells how many items it handled. */
  run(ctx: JobContext): Promise<{ done: number }>;
}

export interface JobRunnerOptions {
  db: Db;
  log: JobLog;
  clock?: Clock;
  dispatcher?: Dispatcher;
  /** How often the runner looks for due jobs (30 s by default). */
  tickMs?: number;
  /** The first look after start (5 s by default, so a start-up is not slowed and an overdue job runs promptly). */
  firstTickMs?: number;
  instanceId?: string;
  /** Told of every run this instance made (the metrics count them). */
  onRun?: (job: string, outcome: "ok" | "failed") => void;
  /**
   * Whether this instance's heartbeat is current (decision 041): while it is not, no job is claimed, since
   * the other instances may be about to take this one's leases over. Always true when left out.
   */
  isAlive?: () => boolean;
}

export interface JobRunner {
  register(job: Job): void;
  /** Starts the timer (unref'd: it never keeps the process alive). */
  start(): void;
  /** Runs every due job once (the timer calls it; tests call it directly). Resolves with the names that ran. */
  tick(): Promise<string[]>;
  /** Stops the timer and waits for runs under way. */
  stop(): Promise<void>;
  readonly instanceId: string;
}

const defaultLeaseMs = 10 * 60_000;
const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs registered jobs on a timer, at most one instance at a time per job: each run first takes the job's
 * lease row with a conditional UPDATE (docs/decisions/018-scheduled-jobs.md). A failing run is logged and
 * stays due, so the next tick retries it; nothing a job does can crash the app.
 */
export function createJobRunner({
  db,
  log,
  clock = systemClock,
  dispatcher,
  tickMs = 30_000,
  firstTickMs = 5_000,
  instanceId = randomUUID(),
  onRun = () => {},
  isAlive = () => true,
}: JobRunnerOptions): JobRunner {
  const jobs = new Map<string, Job>();
  const running = new Map<string, Promise<boolean>>();
  let first: NodeJS.Timeout | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const ctx: JobContext = { db, clock, log, dispatcher, instanceId };

  async function runIfDue(job: Job): Promise<boolean> {
    if (!isAlive()) return false;
    const startedAt = clock.now();
    const claimed = await claimDueJob(db, {
      name: job.name,
      instanceId,
      now: startedAt,
      intervalMs: job.intervalMs,
      leaseMs: job.leaseMs ?? defaultLeaseMs,
    });
    if (!claimed) return false;
    const started = performance.now();
    try {
      const { done } = await job.run(ctx);
      const durationMs = Math.round(performance.now() - started);
      await finishJob(db, { name: job.name, instanceId, startedAt, finishedAt: clock.now(), done });
      onRun(job.name, "ok");
      const fields = { job: job.name, done, durationMs };
      if (done > 0) log.info(fields, `Job ${job.name} handled ${done} items`);
      else log.debug(fields, `Job ${job.name} found nothing to do`);
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      log.error(
        { job: job.name, durationMs, err: error },
        `Job ${job.name} failed; retried at the next tick`,
      );
      onRun(job.name, "failed");
      await failJob(db, { name: job.name, instanceId, at: clock.now(), message: errorMessage(error) });
    }
    return true;
  }

  const runOne = (job: Job): Promise<boolean> => {
    const underWay = running.get(job.name);
    if (underWay) return underWay.then(() => false);
    const run = runIfDue(job)
      .catch((error: unknown) => {
        // The lease row could not be claimed or updated (database down): the next tick tries again.
        log.error(
          { job: job.name, err: error },
          `Job ${job.name} could not reach the database; retried at the next tick`,
        );
        return false;
      })
      .finally(() => running.delete(job.name));
    running.set(job.name, run);
    return run;
  };

  const tick = async () => {
    const list = [...jobs.values()];
    const ran = await Promise.all(list.map(runOne));
    return list.filter((_, i) => ran[i]).map((job) => job.name);
  };

  return {
    instanceId,
    register(job) {
      if (jobs.has(job.name)) throw new Error(`A job named ${job.name} is registered already`);
      jobs.set(job.name, job);
    },
    start() {
      if (stopped || timer) return;
      const onTimer = () => void tick();
      first = setTimeout(onTimer, firstTickMs);
      timer = setInterval(onTimer, tickMs);
      first.unref();
      timer.unref();
    },
    tick,
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await Promise.all(running.values());
    },
  };
}
