import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "#server/db/client.ts";
import { tickets } from "#server/db/schema/index.ts";
import { createInProcessBus } from "#server/realtime/bus.ts";
import { signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { TicketPage, TicketSummary } from "#shared/tickets/ticket.schemas.ts";

// Decision 066: each instance remembers the dashboard counters for a minute here, so a total that follows
// a change made on the other instance within a second proves the change was announced to it
// (LISTEN/NOTIFY on PostgreSQL, where each instance has a pool of its own).
let a: TestApp;
let b: TestApp;
let closeSecond: () => Promise<void> = async () => {};
beforeAll(async () => {
  const bus = process.env.TEST_DATABASE_URL ? undefined : createInProcessBus();
  a = await createTestApp({ ticketReadCacheTtlMs: 60_000, bus });
  const second = a.database.url ? createDatabase({ databaseUrl: a.database.url }) : null;
  if (second) closeSecond = () => second.close();
  b = await createTestApp({ ticketReadCacheTtlMs: 60_000, database: second ?? a.database, bus });
});
afterAll(async () => {
  await b.app.close();
  await closeSecond();
  await a.close();
});

const ticketInput = {
  title: "Counted on two instances",
  description: "Counted",
  category: "Network",
  priority: "High",
  department: "IT",
  floor: "1",
  officeNumber: "101",
};

/** Resolved in SQL: the list shows when auto-close will close it (the write's own counts are not tested here). */
const insertTicketStatus = (id: string, status: "Resolved") =>
  a.database.db.update(tickets).set({ status }).where(eq(tickets.id, id));

/** What `read` gives on the second instance within a second of a change on the first. */
async function onBWithinASecond(read: () => Promise<number>, expected: number) {
  const deadline = Date.now() + 1_000;
  for (;;) {
    const seen = await read();
    if (seen === expected) return;
    if (Date.now() > deadline)
      throw new Error(`the second instance still says ${seen}, not ${expected}, after 1 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("what a list remembers, on two instances", () => {
  it("follows a ticket created and taken on the other instance", async () => {
    // Signed in on the first instance; the session is in the database, so the second takes the cookie too.
    const admin = await signedInAs(a.app, a.database.db, "admin");
    const tech = await signedInAs(a.app, a.database.db, "technician");
    const user = await signedInAs(a.app, a.database.db, "user");
    const totalOnB = async (query = "") =>
      (
        await request(b.app, { method: "GET", url: `/api/tickets${query}`, cookie: admin.cookie })
      ).json<TicketPage>().total!.count;
    const openOnB = async () =>
      (
        await request(b.app, { method: "GET", url: "/api/tickets/summary", cookie: admin.cookie })
      ).json<TicketSummary>().open;
    const [all, open] = [await totalOnB(), await openOnB()];
    expect([await totalOnB(), await openOnB()]).toEqual([all, open]);

    const created = await request(a.app, {
      method: "POST",
      url: "/api/tickets",
      cookie: user.cookie,
      payload: ticketInput,
    });
    expect(created.statusCode).toBe(201);
    await onBWithinASecond(totalOnB, all + 1);
    await onBWithinASecond(openOnB, open + 1);

    const { ticketId } = created.json<{ ticketId: string }>();
    const taken = await request(a.app, {
      method: "POST",
      url: `/api/tickets/${ticketId}/assign`,
      cookie: tech.cookie,
      payload: {},
    });
    expect(taken.statusCode, taken.body).toBe(200);
    await onBWithinASecond(() => totalOnB("?status=In%20Progress"), 1);
    await onBWithinASecond(openOnB, open);
  });

  it("shows tickets with the auto-close days an administrator saved on the other instance", async () => {
    const admin = await signedInAs(a.app, a.database.db, "admin");
    const user = await signedInAs(a.app, a.database.db, "user");
    const created = await request(a.app, {
      method: "POST",
      url: "/api/tickets",
      cookie: user.cookie,
      payload: ticketInput,
    });
    const { ticketId } = created.json<{ ticketId: string }>();
    await insertTicketStatus(ticketId, "Resolved");
    const autoCloseOnB = async () => {
      const page = (
        await request(b.app, { method: "GET", url: "/api/tickets?status=Resolved", cookie: admin.cookie })
      ).json<TicketPage>();
      const ticket = page.items.find((item) => item.ticketId === ticketId)!;
      return Math.round((Date.parse(ticket.autoCloseAt!) - Date.parse(ticket.updatedAt)) / 86_400_000);
    };
    const save = (days: number) =>
      request(a.app, {
        method: "PUT",
        url: "/api/admin/settings/auto-close",
        cookie: admin.cookie,
        payload: { enabled: true, days },
      });
    expect((await save(7)).statusCode).toBe(200);
    await onBWithinASecond(autoCloseOnB, 7);
    expect(await autoCloseOnB()).toBe(7);
    expect((await save(12)).statusCode).toBe(200);
    await onBWithinASecond(autoCloseOnB, 12);
  });
});
