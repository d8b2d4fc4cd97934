import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "#server/db/client.ts";
import {
  automationRuleRuns,
  automationRules,
  notifications,
  scheduledJobs,
  ticketComments,
  ticketEvents,
  tickets,
  type UserRow,
  users,
} from "#server/db/schema/index.ts";
import { createJobRunner, type JobLog, type JobRunner } from "#server/jobs/job-runner.ts";
import { createTestClock, type TestClock } from "#server/test/clock.ts";
import { insertTeam, insertTicket, insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import type { RuleActions } from "#shared/automation/rule-actions.ts";
import type { RuleCondition } from "#shared/automation/rule-conditions.ts";
import { automationTimeRulesJob, runTimeRulesNow } from "./time-rules.ts";

// Decision 076: time-based rules act when their clock has run, once per rule and ticket, whichever instance
// gets there first; the rule's run row, inserted where it acts, is the claim.

const minute = 60_000;
const hour = 60 * minute;
const quiet: JobLog = { info: () => {}, debug: () => {}, error: () => {} };
let database: TestDatabase;
let clock: TestClock;
let admin: UserRow;
let requester: UserRow;
let technician: UserRow;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());
beforeEach(async () => {
  await database.reset();
  const { db } = database;
  admin = await insertUser(db, { role: "admin", name: "Ada Admin" });
  requester = await insertUser(db, { role: "user" });
  technician = await insertUser(db, { role: "technician", name: "Tess Tech" });
  // Monday 2030-01-07 09:00 UTC: the default calendar's working day has just begun.
  clock = createTestClock();
});

let ruleCount = 0;
async function addTimeRule(conditions: RuleCondition[], actions: RuleActions, name = "Nobody took it") {
  const [rule] = await database.db
    .insert(automationRules)
    .values({
      id: `ar_${String(++ruleCount).padStart(16, "0")}`,
      name,
      position: ruleCount,
      enabled: true,
      trigger: "time",
      conditions,
      actions,
      createdBy: admin.id,
    })
    .returning();
  return rule!;
}

const unassignedForTwoBusinessHours: RuleCondition[] = [
  { field: "status", op: "is", value: "Open" },
  { field: "assignee", op: "is", value: null },
  { field: "elapsed", since: "created", hours: 2, business: true },
];

const raise = (values: Partial<typeof tickets.$inferInsert> = {}) =>
  insertTicket(database.db, { createdBy: requester.id, createdAt: clock.now(), ...values });

const run = (db: Database["db"] = database.db) => runTimeRulesNow({ db, clock, log: quiet });

const rowOf = async (id: string) => (await database.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
const ruleEventsOf = (ticketId: string) =>
  database.db
    .select()
    .from(ticketEvents)
    .where(and(eq(ticketEvents.ticketId, ticketId), eq(ticketEvents.viaKind, "rule")))
    .orderBy(asc(ticketEvents.createdAt), asc(ticketEvents.id));

describe("a time-based rule", () => {
  it("acts once its business hours have run, on the tickets its conditions hold for, and never twice", async () => {
    const network = await insertTeam(database.db, { name: "Network", memberIds: [technician.id] });
    await addTimeRule(unassignedForTwoBusinessHours, {
      priority: "High",
      addTags: ["waiting"],
      note: "Nobody has taken this for two business hours.",
      notify: { userIds: [], teamIds: [network.id] },
    });
    const waiting = await raise({ title: "Laptop will not start" });
    const taken = await raise({ title: "Mouse broken", status: "In Progress", assignedTo: technician.id });
    clock.advance(30 * minute);
    const later = await raise({ title: "Screen flickers" });

    clock.advance(89 * minute);
    expect(await run()).toBe(0);

    clock.advance(minute);
    expect(await run()).toBe(1);
    expect(await rowOf(waiting.id)).toMatchObject({ priority: "High", tags: ["waiting"] });
    expect(await rowOf(taken.id)).toMatchObject({ priority: "Low", tags: [] });
    expect(await rowOf(later.id)).toMatchObject({ priority: "Low", tags: [] });
    const events = await ruleEventsOf(waiting.id);
    expect(events.map((event) => [event.type, event.actorId, event.viaName])).toEqual([
      ["edited", null, "Nobody took it"],
      ["tags_changed", null, "Nobody took it"],
      ["internal_note", null, "Nobody took it"],
      ["rule_notified", null, "Nobody took it"],
    ]);
    expect(new Set(events.map((event) => event.batchId)).size).toBe(1);
    const notices = await database.db
      .select()
      .from(notifications)
      .where(eq(notifications.type, "rule_notice"));
    expect(notices.map((notice) => [notice.userId, notice.ticketId])).toEqual([[technician.id, waiting.id]]);

    // Half an hour later the other ticket's time has come; the first is not acted on again, even when its
    // conditions hold again after a change.
    await database.db.update(tickets).set({ priority: "Low" }).where(eq(tickets.id, waiting.id));
    clock.advance(30 * minute);
    expect(await run()).toBe(1);
    expect(await rowOf(later.id)).toMatchObject({ priority: "High" });
    expect(await rowOf(waiting.id)).toMatchObject({ priority: "Low" });
    expect(await run()).toBe(0);
  });

  it("counts business hours: a ticket raised late on Friday is due on Monday morning, not over the weekend", async () => {
    clock.set(new Date("2030-01-11T16:00:00Z"));
    await addTimeRule(unassignedForTwoBusinessHours, { priority: "High" });
    const friday = await raise();
    clock.set(new Date("2030-01-14T09:59:00Z"));
    expect(await run()).toBe(0);
    clock.set(new Date("2030-01-14T10:00:00Z"));
    expect(await run()).toBe(1);
    expect(await rowOf(friday.id)).toMatchObject({ priority: "High" });
  });

  it("that cannot act says why on the timeline, once, and leaves the ticket as it was", async () => {
    const leaver = await insertUser(database.db, { role: "technician", name: "Lee Leaving" });
    await addTimeRule(unassignedForTwoBusinessHours, { addTags: ["stale"], assigneeId: leaver.id });
    await database.db.update(users).set({ status: "Inactive" }).where(eq(users.id, leaver.id));
    const ticket = await raise();
    clock.advance(2 * hour);
    expect(await run()).toBe(1);
    expect(await run()).toBe(0);
    expect(await rowOf(ticket.id)).toMatchObject({ assignedTo: null, tags: [] });
    const events = await ruleEventsOf(ticket.id);
    expect(events.map((event) => event.type)).toEqual(["rule_refused"]);
    expect(events[0]!.note).toMatch(/^Assignee: /);
  });

  it("leaves a ticket alone that changed under it: the conditions are checked again under its lock", async () => {
    await addTimeRule(unassignedForTwoBusinessHours, { priority: "High" });
    const ticket = await raise();
    clock.advance(2 * hour);
    await database.db
      .update(tickets)
      .set({ status: "In Progress", assignedTo: technician.id })
      .where(eq(tickets.id, ticket.id));
    expect(await run()).toBe(0);
    expect(await database.db.select().from(automationRuleRuns)).toEqual([]);
  });
});

describe("time-based rules on two instances", () => {
  const runners: JobRunner[] = [];

  /** A second connection pool on PostgreSQL; the same PGlite otherwise. */
  function secondConnection(): { db: Database["db"]; close: () => Promise<void> } {
    if (!database.url) return { db: database.db, close: async () => {} };
    const other = createDatabase({ databaseUrl: database.url });
    return { db: other.db, close: () => other.close() };
  }

  it("act on each ticket exactly once while both run the job at the same moment", async () => {
    await database.db.delete(scheduledJobs);
    await addTimeRule(unassignedForTwoBusinessHours, {
      addTags: ["waiting"],
      note: "Still waiting for a technician.",
    });
    const count = 30;
    for (let i = 0; i < count; i++) await raise({ title: `Waiting ${i}` });
    clock.advance(2 * hour);
    const second = secondConnection();
    try {
      // Both instances read the same due tickets before either acts (no job lease between them, as when a
      // lease expired under a slow run): only the run row decides.
      const both = await Promise.all([run(database.db), run(second.db)]);
      expect(both[0] + both[1]).toBe(count);
      // The job itself, registered on a runner, finds nothing left to do.
      const runner = createJobRunner({ db: database.db, log: quiet, clock, tickMs: hour, firstTickMs: hour });
      runners.push(runner);
      runner.register(automationTimeRulesJob());
      expect(await runner.tick()).toEqual(["automation-time-rules"]);

      const runs = await database.db.select().from(automationRuleRuns);
      expect(runs).toHaveLength(count);
      const notesPerTicket = await database.db.execute(
        sql`select count(*)::int as n from ${ticketComments} where is_internal group by ticket_id`,
      );
      expect((notesPerTicket as unknown as { rows: Array<{ n: number }> }).rows.map((row) => row.n)).toEqual(
        Array(count).fill(1),
      );
      const tagged = await database.db.select({ tags: tickets.tags }).from(tickets);
      expect(tagged.every((row) => row.tags.join() === "waiting")).toBe(true);
    } finally {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      await second.close();
    }
  });
});
