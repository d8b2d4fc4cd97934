import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createDatabase, type Database } from "#server/db/client.ts";
import {
  notifications,
  scheduledJobs,
  ticketEvents,
  tickets,
  type UserRow,
} from "#server/db/schema/index.ts";
import { createJobRunner, type JobLog, type JobRunner } from "#server/jobs/job-runner.ts";
import { createTestClock, type TestClock } from "#server/test/clock.ts";
import { insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { slaEscalationJob } from "./sla-escalation.ts";

// Decision 018 for escalations: two app instances on one PostgreSQL run the scheduler, and each due
// warning and breach is announced exactly once; a breach that fell due while the app was down is sent at
// the first run after the start. On PGlite both runners share the one connection (one process).

type Line = { level: "info" | "debug" | "error"; fields: Record<string, unknown>; message: string };
function recorder(): JobLog & { lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: Line["level"]) => (fields: object, message: string) =>
    void lines.push({ level, fields: fields as Record<string, unknown>, message });
  return { lines, info: at("info"), debug: at("debug"), error: at("error") };
}

const minute = 60_000;
const hour = 60 * minute;
let database: TestDatabase;
let clock: TestClock;
let log: ReturnType<typeof recorder>;
let creator: UserRow;
let technicians: UserRow[];
const runners: JobRunner[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  creator = await insertUser(db, { role: "user" });
  technicians = [await insertUser(db, { role: "technician" }), await insertUser(db, { role: "technician" })];
  // An admin hears of every ticket.
  await insertUser(db, { role: "admin" });
});
afterAll(() => database.destroy());
beforeEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
  const { db } = database;
  await db.delete(scheduledJobs);
  await db.delete(notifications);
  await db.delete(tickets);
  clock = createTestClock();
  log = recorder();
});

const at = (minutes: number) => new Date(clock.now().getTime() + minutes * minute);

function runner(options: { db?: Database["db"]; instanceId: string; tickMs?: number; firstTickMs?: number }) {
  const r = createJobRunner({ db: database.db, log, clock, tickMs: hour, firstTickMs: hour, ...options });
  runners.push(r);
  return r;
}

/** A second runner with a connection pool of its own on PostgreSQL; the same PGlite otherwise. */
function secondConnection(): { db: Database["db"]; close: () => Promise<void> } {
  if (!database.url) return { db: database.db, close: async () => {} };
  const other = createDatabase({ databaseUrl: database.url });
  return { db: other.db, close: () => other.close() };
}

/** Tickets whose first-response warning is due now and whose breach is due in 10 minutes; half assigned. */
async function insertDueTickets(count: number) {
  await database.db.insert(tickets).values(
    Array.from({ length: count }, (_, i) => ({
      id: `TKTDUE${String(i).padStart(4, "0")}`,
      title: `Due ${i}`,
      description: "Nobody answered yet",
      createdBy: creator.id,
      assignedTo: i % 2 === 0 ? technicians[0]!.id : null,
      firstResponseWarnAt: at(-1),
      firstResponseDueAt: at(10),
    })),
  );
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Recipients per ticket and type that were told other than exactly once. */
async function notifiedOtherThanOnce() {
  return rowsOf(
    await database.db.execute(sql`
      select ticket_id, user_id, type, count(*)::int as n from ${notifications}
      group by ticket_id, user_id, type having count(*) <> 1`),
  );
}
async function countOf(type: "sla_warning" | "sla_breached") {
  const [row] = rowsOf<{ n: number }>(
    await database.db.execute(sql`select count(*)::int as n from ${notifications} where type = ${type}`),
  );
  return row!.n;
}
async function eventsPerTicket(type: "sla_warning" | "sla_breached") {
  return rowsOf<{ n: number }>(
    await database.db.execute(
      sql`select count(*)::int as n from ${ticketEvents} where type = ${type} group by ticket_id`,
    ),
  ).map((row) => row.n);
}

describe("escalation on two instances", () => {
  it("announces each ticket's warning and breach exactly once while both instances run the job at once", async () => {
    const second = secondConnection();
    const count = 50;
    await insertDueTickets(count);
    // Lease and interval so short that both instances run the job side by side; small batches interleave.
    const job = () => ({ ...slaEscalationJob({ intervalMs: 0, batchSize: 3 }), leaseMs: 1 });
    try {
      const a = runner({ instanceId: "a" });
      const b = runner({ instanceId: "b", db: second.db });
      a.register(job());
      b.register(job());
      const bothTick = async (rounds: number) => {
        const keepTicking = async (r: JobRunner) => {
          for (let i = 0; i < rounds; i++) {
            await r.tick();
            clock.advance(1);
          }
        };
        await Promise.all([keepTicking(a), keepTicking(b)]);
      };

      await bothTick(4);
      // Per ticket, two rows: an assigned one tells its technician and the admin; an unassigned one the
      // admin and the technicians as a whole, one row addressed to them (decision 068).
      const perType = count * 2;
      expect(await countOf("sla_warning")).toBe(perType);
      expect(await countOf("sla_breached")).toBe(0);

      clock.advance(10 * minute);
      await bothTick(4);
      expect(await countOf("sla_breached")).toBe(perType);
      expect(await countOf("sla_warning")).toBe(perType);
      expect(await notifiedOtherThanOnce()).toEqual([]);
      expect(await eventsPerTicket("sla_warning")).toEqual(Array(count).fill(1));
      expect(await eventsPerTicket("sla_breached")).toEqual(Array(count).fill(1));
      const [unannounced] = rowsOf<{ n: number }>(
        await database.db.execute(
          sql`select count(*)::int as n from ${tickets} where first_response_breached_at is null`,
        ),
      );
      expect(unannounced?.n).toBe(0);
    } finally {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      await second.close();
    }
  });
});

describe("escalation across a restart", () => {
  it("sends a breach that fell due while the app was down at the first run after the start, without the stale warning", async () => {
    const ticket = {
      id: "TKTRESTART1",
      title: "Down while due",
      description: "The server was off",
      createdBy: creator.id,
      assignedTo: technicians[1]!.id,
      status: "In Progress" as const,
      firstRespondedAt: at(-10),
      resolutionWarnAt: at(30),
      resolutionDueAt: at(60),
    };
    await database.db.insert(tickets).values(ticket);
    const before = runner({ instanceId: "before" });
    before.register(slaEscalationJob());
    expect(await before.tick()).toEqual(["sla-escalation"]);
    await before.stop();
    expect(await countOf("sla_warning")).toBe(0);

    // Two hours later the app starts again: its first look comes at once and finds the breach.
    clock.advance(2 * hour);
    const after = runner({ instanceId: "after", firstTickMs: 0 });
    after.register(slaEscalationJob());
    after.start();
    // The run logs what it did once it has finished.
    const ranLine = () =>
      log.lines.find((line) => line.level === "info" && line.fields.job === "sla-escalation");
    await vi.waitFor(() => expect(ranLine()).toBeDefined());
    expect(await countOf("sla_breached")).toBe(2);
    expect(await countOf("sla_warning")).toBe(0);
    expect(ranLine()).toMatchObject({
      fields: {
        firstResponseWarnings: 0,
        firstResponseBreaches: 0,
        resolutionWarnings: 0,
        resolutionBreaches: 1,
      },
      message: "SLA escalation: 0 warnings, 1 breach",
    });
  });
});
