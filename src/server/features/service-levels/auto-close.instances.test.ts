import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "#server/db/client.ts";
import { notifications, ticketEvents, tickets } from "#server/db/schema/index.ts";
import { createTestClock } from "#server/test/clock.ts";
import { insertTicket, insertUser } from "#server/test/factories.ts";
import { createTestApp, type TestApp } from "#server/test/test-app.ts";
import { closeIdleResolvedTicketsNow } from "./auto-close.ts";

// Decisions 018 and 021: two app instances on one PostgreSQL run the scheduler, and each auto-close happens
// exactly once. On PGlite (one process) both instances share the one connection; CI runs this on PostgreSQL.

const day = 24 * 60 * 60_000;
const clock = createTestClock(new Date("2030-05-06T08:00:00Z"));
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

const count = async (query: Promise<Array<{ n: number | string }>>) => Number((await query)[0]?.n);
const counts = (table: "ticket_events" | "notifications") =>
  a.database.db.execute(
    sql`select ticket_id, count(*) as n from ${sql.identifier(table)} where type = ${table === "ticket_events" ? "auto_closed" : "ticket_auto_closed"} group by ticket_id having count(*) <> 1`,
  );

async function insertDueTickets(n: number) {
  const { db } = a.database;
  const creator = await insertUser(db, { role: "user" });
  const tech = await insertUser(db, { role: "technician" });
  const idleSince = new Date(clock.now().getTime() - 8 * day);
  for (let i = 0; i < n; i++)
    await insertTicket(db, {
      createdBy: creator.id,
      assignedTo: tech.id,
      status: "Resolved",
      createdAt: idleSince,
      updatedAt: idleSince,
    });
  return creator;
}

describe("auto-close on two app instances", () => {
  it("closes each of 50 due tickets exactly once, with one timeline entry and one notification each, even when both run the job at once", async () => {
    const creator = await insertDueTickets(50);
    // Both instances act at the same moment, as they would after a lease expired mid-run: a few tickets a
    // transaction, so their batches interleave.
    const log = { info: () => {} };
    const [byA, byB] = await Promise.all([
      closeIdleResolvedTicketsNow({ db: a.database.db, clock, log }, { batchSize: 5 }),
      closeIdleResolvedTicketsNow({ db: b.database.db, clock, log }, { batchSize: 5 }),
    ]);
    expect(byA + byB).toBe(50);

    const { db } = a.database;
    expect(
      await count(db.select({ n: sql<number>`count(*)` }).from(tickets).where(eq(tickets.status, "Closed"))),
    ).toBe(50);
    expect(
      await count(
        db
          .select({ n: sql<number>`count(*)` })
          .from(ticketEvents)
          .where(eq(ticketEvents.type, "auto_closed")),
      ),
    ).toBe(50);
    const told = await db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(eq(notifications.type, "ticket_auto_closed"));
    expect(told).toHaveLength(50);
    expect(new Set(told.map((n) => n.userId))).toEqual(new Set([creator.id]));
    for (const table of ["ticket_events", "notifications"] as const)
      expect((await counts(table)) as unknown as { rows: unknown[] }).toMatchObject({ rows: [] });
  });

  it("runs the scheduled job on one instance only when both schedulers tick at once", async () => {
    await insertDueTickets(20);
    clock.advance(10 * 60_000);
    const ran = await Promise.all([a.app.jobs.tick(), b.app.jobs.tick()]);
    expect(ran.flat().filter((name) => name === "auto-close")).toEqual(["auto-close"]);
    const { db } = a.database;
    expect(
      await count(
        db.select({ n: sql<number>`count(*)` }).from(tickets).where(eq(tickets.status, "Resolved")),
      ),
    ).toBe(0);
    expect(
      await count(
        db
          .select({ n: sql<number>`count(*)` })
          .from(ticketEvents)
          .where(eq(ticketEvents.type, "auto_closed")),
      ),
    ).toBe(70);
    for (const table of ["ticket_events", "notifications"] as const)
      expect((await counts(table)) as unknown as { rows: unknown[] }).toMatchObject({ rows: [] });
  });
});
