import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createDatabase, type Database } from "#server/db/client.ts";
import { scheduledJobs } from "#server/db/schema/index.ts";
import { createTestClock, type TestClock } from "#server/test/clock.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { findJobState } from "./job-lease.queries.ts";
import { createJobRunner, type Job, type JobLog, type JobRunner } from "./job-runner.ts";

// Decision 018: jobs run inside the app on a timer, once per due item even with several instances on
// one PostgreSQL, survive a restart and log what they did.

type Line = { level: "info" | "debug" | "error"; fields: Record<string, unknown>; message: string };
function recorder(): JobLog & { lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: Line["level"]) => (fields: object, message: string) =>
    void lines.push({ level, fields: fields as Record<string, unknown>, message });
  return { lines, info: at("info"), debug: at("debug"), error: at("error") };
}

const hour = 60 * 60_000;
let database: TestDatabase;
let clock: TestClock;
let log: ReturnType<typeof recorder>;
const runners: JobRunner[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`create table job_test_items (id integer primary key, done_at timestamptz)`);
  await database.db.execute(sql`create table job_test_runs (item_id integer not null, runner text not null)`);
});
afterAll(() => database.destroy());
beforeEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
  await database.db.delete(scheduledJobs);
  await database.db.execute(sql`truncate job_test_items, job_test_runs`);
  clock = createTestClock();
  log = recorder();
});

/** A runner driven by hand (its timer is far off unless a test starts it with a short one). */
function runner(
  options: { db?: Database["db"]; instanceId?: string; tickMs?: number; firstTickMs?: number } = {},
) {
  const r = createJobRunner({ db: database.db, log, clock, tickMs: hour, firstTickMs: hour, ...options });
  runners.push(r);
  return r;
}

function countingJob(overrides: Partial<Job> = {}) {
  const job = {
    calls: 0,
    name: "counting",
    intervalMs: hour,
    run: async () => {
      job.calls++;
      return { done: 1 };
    },
    ...overrides,
  };
  return job;
}

describe("a job on its interval", () => {
  it("runs when first due, then not again until its interval has passed", async () => {
    const r = runner();
    const job = countingJob();
    r.register(job);

    expect(await r.tick()).toEqual(["counting"]);
    expect(await r.tick()).toEqual([]);
    clock.advance(hour - 1);
    expect(await r.tick()).toEqual([]);
    clock.advance(1);
    expect(await r.tick()).toEqual(["counting"]);
    expect(job.calls).toBe(2);
  });

  it("runs on its own timer once started, and stops running when stopped", async () => {
    const r = runner({ tickMs: 10, firstTickMs: 0 });
    const job = countingJob({ intervalMs: 0 });
    r.register(job);
    r.start();
    await vi.waitFor(() => expect(job.calls).toBeGreaterThanOrEqual(3));
    await r.stop();
    const calls = job.calls;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(job.calls).toBe(calls);
  });

  it("logs the job, the items done and the duration: info when it did something, debug when not", async () => {
    const r = runner();
    let done = 3;
    r.register(countingJob({ run: async () => ({ done }) }));
    await r.tick();
    clock.advance(hour);
    done = 0;
    await r.tick();
    expect(log.lines.map((l) => [l.level, l.fields.job, l.fields.done])).toEqual([
      ["info", "counting", 3],
      ["debug", "counting", 0],
    ]);
    expect(log.lines[0]?.fields.durationMs).toEqual(expect.any(Number));
    expect(log.lines[0]?.message).toBe("Job counting handled 3 items");
  });

  it("logs a crashed handler, keeps the job due and retries it at the next tick", async () => {
    const r = runner();
    let attempts = 0;
    r.register(
      countingJob({
        run: async () => {
          attempts++;
          if (attempts === 1) throw new Error("disk on fire");
          return { done: 2 };
        },
      }),
    );

    expect(await r.tick()).toEqual(["counting"]);
    expect(log.lines).toEqual([
      expect.objectContaining({ level: "error", message: "Job counting failed; retried at the next tick" }),
    ]);
    expect(await findJobState(database.db, "counting")).toMatchObject({
      lastRunAt: null,
      lastError: "disk on fire",
      lockedBy: null,
    });

    expect(await r.tick()).toEqual(["counting"]);
    expect(attempts).toBe(2);
    expect(await findJobState(database.db, "counting")).toMatchObject({
      lastRunAt: clock.now(),
      lastDone: 2,
      lastError: null,
    });
  });
});

describe("across a restart", () => {
  it("waits out the interval of a job that ran recently, and runs an overdue one promptly", async () => {
    const before = runner({ instanceId: "before" });
    const recent = countingJob({ name: "recent", intervalMs: 2 * hour });
    const overdue = countingJob({ name: "overdue", intervalMs: hour });
    before.register(recent);
    before.register(overdue);
    await before.tick();
    await before.stop();

    clock.advance(hour + 1);
    const after = runner({ instanceId: "after", tickMs: 10, firstTickMs: 0 });
    const recentAfter = countingJob({ name: "recent", intervalMs: 2 * hour });
    const overdueAfter = countingJob({ name: "overdue", intervalMs: hour });
    after.register(recentAfter);
    after.register(overdueAfter);
    after.start();
    await vi.waitFor(() => expect(overdueAfter.calls).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(recentAfter.calls).toBe(0);
    clock.advance(hour);
    await vi.waitFor(() => expect(recentAfter.calls).toBe(1));
    expect(overdueAfter.calls).toBe(2);
  });

  it("lets another instance take a job whose lease expired with the instance holding it", async () => {
    const crashed = runner({ instanceId: "crashed" });
    let release: () => void = () => {};
    crashed.register(
      countingJob({
        leaseMs: 5 * 60_000,
        run: () => new Promise((resolve) => (release = () => resolve({ done: 1 }))),
      }),
    );
    const hanging = crashed.tick();
    await vi.waitFor(async () =>
      expect((await findJobState(database.db, "counting"))?.lockedBy).toBe("crashed"),
    );

    const other = runner({ instanceId: "other" });
    const job = countingJob();
    other.register(job);
    expect(await other.tick()).toEqual([]);
    clock.advance(5 * 60_000 + 1);
    expect(await other.tick()).toEqual(["counting"]);
    expect(job.calls).toBe(1);
    // The first instance finishing late does not overwrite the run the other one recorded.
    release();
    await hanging;
    expect(await findJobState(database.db, "counting")).toMatchObject({
      lockedBy: null,
      lastRunAt: clock.now(),
    });
  });
});

describe("several instances on one database", () => {
  /** A second runner with a connection pool of its own on PostgreSQL; the same PGlite otherwise (one process). */
  async function secondConnection(): Promise<{ db: Database["db"]; close: () => Promise<void> }> {
    if (!database.url) return { db: database.db, close: async () => {} };
    const other = createDatabase({ databaseUrl: database.url });
    return { db: other.db, close: () => other.close() };
  }

  it("runs a due job on exactly one of two instances ticking at the same moment", async () => {
    const second = await secondConnection();
    try {
      const a = countingJob();
      const b = countingJob();
      const ra = runner({ instanceId: "a" });
      const rb = runner({ instanceId: "b", db: second.db });
      ra.register(a);
      rb.register(b);
      for (let round = 0; round < 5; round++) {
        const ran = await Promise.all([ra.tick(), rb.tick()]);
        expect(ran.flat()).toEqual(["counting"]);
        clock.advance(hour);
      }
      expect(a.calls + b.calls).toBe(5);
    } finally {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      await second.close();
    }
  });

  it("handles each of N due items exactly once, even when the leases expire and both run the job at once", async () => {
    const second = await secondConnection();
    const items = 60;
    await database.db.execute(
      sql`insert into job_test_items (id) select g from generate_series(1, ${items}) g`,
    );
    /** Claims a few not-yet-done items at a time with SKIP LOCKED, the way item-processing jobs must. */
    const itemJob = (): Job => ({
      name: "items",
      intervalMs: 0,
      leaseMs: 1,
      run: async ({ db, instanceId }) => {
        let done = 0;
        for (;;) {
          const handled = await db.transaction(async (tx) => {
            const result = await tx.execute(sql`
              update job_test_items set done_at = now() where id in (
                select id from job_test_items where done_at is null order by id limit 3 for update skip locked
              ) returning id`);
            const ids = (result as unknown as { rows: Array<{ id: number }> }).rows.map((row) => row.id);
            for (const id of ids)
              await tx.execute(
                sql`insert into job_test_runs (item_id, runner) values (${id}, ${instanceId})`,
              );
            await new Promise((resolve) => setTimeout(resolve, 2));
            return ids.length;
          });
          done += handled;
          if (handled === 0) return { done };
        }
      },
    });
    try {
      const ra = runner({ instanceId: "a" });
      const rb = runner({ instanceId: "b", db: second.db });
      ra.register(itemJob());
      rb.register(itemJob());
      const remaining = async () =>
        Number(
          (
            (await database.db.execute(
              sql`select count(*) as n from job_test_items where done_at is null`,
            )) as unknown as {
              rows: Array<{ n: number | string }>;
            }
          ).rows[0]?.n,
        );
      const keepTicking = async (r: JobRunner) => {
        for (let i = 0; i < 200 && (await remaining()) > 0; i++) {
          await r.tick();
          clock.advance(10);
        }
      };
      await Promise.all([keepTicking(ra), keepTicking(rb)]);

      expect(await remaining()).toBe(0);
      const runs = await database.db.execute(
        sql`select item_id, count(*) as n from job_test_runs group by item_id having count(*) <> 1`,
      );
      expect((runs as unknown as { rows: unknown[] }).rows).toEqual([]);
      const total = await database.db.execute(sql`select count(*) as n from job_test_runs`);
      expect(Number((total as unknown as { rows: Array<{ n: string }> }).rows[0]?.n)).toBe(items);
    } finally {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      await second.close();
    }
  });
});
