import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "#server/db/client.ts";
import { notifications, ticketEvents, tickets } from "#server/db/schema/index.ts";
import { updateSetting } from "#server/features/settings/settings.service.ts";
import { createTestClock } from "#server/test/clock.ts";
import { contextAs, insertTicket, insertUser } from "#server/test/factories.ts";
import { createTestApp, type TestApp } from "#server/test/test-app.ts";
import { liftDueHoldsNow, resolveLongHoldsNow } from "./on-hold.ts";

// Decisions 018 and 070: two app instances on one PostgreSQL run the on-hold job, and each hold is lifted
// (or its ticket resolved) exactly once. On PGlite (one process) both instances share the one connection;
// CI runs this on PostgreSQL.

const day = 24 * 60 * 60_000;
// Wednesday 8 May 2030, 10:00 UTC.
const clock = createTestClock(new Date("2030-05-08T10:00:00Z"));
let a: TestApp;
let b: TestApp;
let closeSecond: () => Promise<void> = async () => {};
beforeAll(async () => {
  a = await createTestApp({ clock, jobs: { firstTickMs: 3_600_000, tickMs: 3_600_000, instanceId: "a" } });
  // A pool of its own on PostgreSQL, like a second server would have.
  const second = a.database.url ? createDatabase({ databaseUrl: a.database.url }) : null;
  if (second) closeSecond = () => second.close();
  b = await createTestApp({
    clock,
    database: second ?? a.database,
    jobs: { firstTickMs: 3_600_000, tickMs: 3_600_000, instanceId: "b" },
  });
});
afterAll(async () => {
  await b.close();
  await closeSecond();
  await a.close();
});

const log = { info: () => {} };
const countOf = async (type: "taken_off_hold" | "auto_resolved") =>
  Number(
    (
      await a.database.db
        .select({ n: sql<number>`count(*)` })
        .from(ticketEvents)
        .where(eq(ticketEvents.type, type))
    )[0]?.n,
  );
/** Tickets with more than one event of the type: none may have two. */
const twice = async (type: string) =>
  (
    (await a.database.db.execute(
      sql`select ticket_id from ticket_events where type = ${type} group by ticket_id having count(*) > 1`,
    )) as unknown as { rows: unknown[] }
  ).rows;

async function insertHeldTickets(n: number, values: { onHoldSince: Date; holdUntil: Date | null }) {
  const { db } = a.database;
  const creator = await insertUser(db, { role: "user" });
  const tech = await insertUser(db, { role: "technician" });
  for (let i = 0; i < n; i++)
    await insertTicket(db, { createdBy: creator.id, assignedTo: tech.id, status: "In Progress", ...values });
  return { creator, tech };
}

describe("the on-hold job on two app instances", () => {
  it("lifts each of 40 holds at its date exactly once, with one entry and one notice each, when both run at once", async () => {
    const { tech } = await insertHeldTickets(40, {
      onHoldSince: new Date(clock.now().getTime() - day),
      holdUntil: new Date(clock.now().getTime() - 60_000),
    });
    const [byA, byB] = await Promise.all([
      liftDueHoldsNow({ db: a.database.db, clock, log }, { batchSize: 5 }),
      liftDueHoldsNow({ db: b.database.db, clock, log }, { batchSize: 5 }),
    ]);
    expect(byA + byB).toBe(40);
    expect(await countOf("taken_off_hold")).toBe(40);
    expect(await twice("taken_off_hold")).toEqual([]);
    const told = await a.database.db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(eq(notifications.type, "ticket_hold_lifted"));
    expect(told).toHaveLength(40);
    expect(new Set(told.map((row) => row.userId))).toEqual(new Set([tech.id]));
  });

  it("resolves each of 30 tickets held too long exactly once when both run at once", async () => {
    const admin = await insertUser(a.database.db, { role: "admin" });
    await updateSetting(contextAs(a.database.db, admin, { clock }), "on-hold", {
      autoResolve: true,
      businessDays: 3,
    });
    // On hold since Wednesday a week ago: three business days were up on Monday.
    await insertHeldTickets(30, { onHoldSince: new Date(clock.now().getTime() - 7 * day), holdUntil: null });
    const [byA, byB] = await Promise.all([
      resolveLongHoldsNow({ db: a.database.db, clock, log }, { batchSize: 4 }),
      resolveLongHoldsNow({ db: b.database.db, clock, log }, { batchSize: 4 }),
    ]);
    expect(byA + byB).toBe(30);
    expect(await countOf("auto_resolved")).toBe(30);
    expect(await twice("auto_resolved")).toEqual([]);
    const held = await a.database.db
      .select({ n: sql<number>`count(*)` })
      .from(tickets)
      .where(sql`${tickets.onHoldSince} is not null`);
    expect(Number(held[0]?.n)).toBe(0);
  });

  it("runs the scheduled job on one instance only when both schedulers tick at once", async () => {
    await insertHeldTickets(10, {
      onHoldSince: new Date(clock.now().getTime() - 60_000),
      holdUntil: new Date(clock.now().getTime() + 5 * 60_000),
    });
    clock.advance(10 * 60_000);
    const ran = await Promise.all([a.app.jobs.tick(), b.app.jobs.tick()]);
    expect(ran.flat().filter((name) => name === "on-hold")).toEqual(["on-hold"]);
    // 40 lifted at their date above, 30 ended by the resolution, and these 10.
    expect(await countOf("taken_off_hold")).toBe(80);
    expect(await twice("taken_off_hold")).toEqual([]);
  });
});
