import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shapesBuiltOn } from "#server/db/statement-shapes.ts";
import { insertTicket, insertUser, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { TicketPage } from "#shared/tickets/ticket.schemas.ts";

// Decision 066: a list's page runs a statement built once per shape, with the request's values bound; the
// first page's total comes from the counters, remembered until a ticket changes.
let t: TestApp;
beforeAll(async () => {
  // Counts remembered for a minute: a total that follows a change proves the change emptied the cache.
  t = await createTestApp({ ticketReadCacheTtlMs: 60_000 });
});
afterAll(() => t.close());

const list = async (cookie: string, query: string) => {
  const response = await request(t.app, { method: "GET", url: `/api/tickets${query}`, cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TicketPage>();
};
const idsOf = (page: TicketPage) => page.items.map((ticket) => ticket.ticketId).sort();
const pageShapes = () => shapesBuiltOn(t.database.db).filter(({ shape }) => shape.startsWith("ticket-page|"));

describe("a list's statement, built once per shape", () => {
  it("answers two filter values through the same shape with each one's rows, and keeps no value", async () => {
    const { db } = t.database;
    const admin = await signedInAs(t.app, db, "admin");
    const requester = await insertUser(db, { role: "user" });
    const open = [
      await insertTicket(db, { createdBy: requester.id, status: "Open", priority: "High" }),
      await insertTicket(db, { createdBy: requester.id, status: "Open", priority: "Low" }),
    ];
    const resolved = [
      await insertTicket(db, { createdBy: requester.id, status: "Resolved", priority: "High" }),
    ];

    expect(idsOf(await list(admin.cookie, "?status=Open"))).toEqual(open.map((row) => row.id).sort());
    expect(idsOf(await list(admin.cookie, "?status=Resolved"))).toEqual(resolved.map((row) => row.id));
    expect(idsOf(await list(admin.cookie, "?status=Open&priority=High"))).toEqual([open[0]!.id]);
    expect(idsOf(await list(admin.cookie, "?status=Resolved&priority=Low"))).toEqual([]);

    const shapes = pageShapes().map(({ shape }) => shape);
    expect(shapes.filter((shape) => shape.startsWith("ticket-page|admin|visible|status|||"))).toHaveLength(1);
    expect(
      shapes.filter((shape) => shape.startsWith("ticket-page|admin|visible|status|priority||")),
    ).toHaveLength(1);
    for (const { shape, text } of pageShapes()) {
      for (const value of ["Open", "Resolved", "High", "Low", admin.user.id, requester.id]) {
        expect(shape).not.toContain(value);
        expect(text).not.toContain(value);
      }
    }
  });

  it("gives each person their own tickets through one shape for their role and tab", async () => {
    const { db } = t.database;
    const [theo, tara] = [
      await signedInAs(t.app, db, "technician"),
      await signedInAs(t.app, db, "technician"),
    ];
    const requester = await insertUser(db, { role: "user" });
    const theirs = async (tech: typeof theo) => [
      (await insertTicket(db, { createdBy: requester.id, assignedTo: tech.user.id, status: "In Progress" }))
        .id,
    ];
    const [theos, taras] = [await theirs(theo), await theirs(tara)];
    expect(idsOf(await list(theo.cookie, "?scope=mine"))).toEqual(theos);
    expect(idsOf(await list(tara.cookie, "?scope=mine"))).toEqual(taras);
    expect(pageShapes().filter(({ shape }) => shape.startsWith("ticket-page|technician|mine|"))).toHaveLength(
      1,
    );
  });

  it("follows a cursor through the same shape for every later page, whoever asks and from where", async () => {
    const { db } = t.database;
    const admin = await signedInAs(t.app, db, "admin");
    const requester = await insertUser(db, { role: "user" });
    for (let i = 0; i < 7; i++)
      await insertTicket(db, {
        createdBy: requester.id,
        status: "Closed",
        priority: "Medium",
        createdAt: new Date(Date.UTC(2031, 0, 1, 9, i % 3)),
      });
    const read = async (query: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(admin.cookie, `${query}&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
        seen.push(...page.items.map((ticket) => ticket.ticketId));
        cursor = page.nextCursor;
      } while (cursor);
      return seen;
    };
    const byPriority = await read("?status=Closed&sort=priority&dir=asc");
    expect(byPriority).toHaveLength(7);
    expect(new Set(byPriority).size).toBe(7);
    expect((await read("?status=Closed")).sort()).toEqual([...byPriority].sort());
    expect(pageShapes().filter(({ shape }) => shape.endsWith("|priority.asc|after"))).toHaveLength(1);
  });

  it("stays within the shapes the roles, tabs, filters present, orders and cursors make", async () => {
    const { db } = t.database;
    const user = await signedInAs(t.app, db, "user");
    const before = pageShapes().length;
    for (const status of ["Open", "In Progress", "Resolved", "Closed"])
      for (const category of ["Hardware", "Software", "Network"])
        await list(user.cookie, `?status=${encodeURIComponent(status)}&category=${category}`);
    expect(pageShapes().length - before).toBe(1);
  });
});

describe("the first page's total, remembered until a ticket changes", () => {
  const ticketInput = {
    title: "Counted",
    description: "Counted",
    category: "Hardware",
    priority: "Medium",
    department: "IT",
    floor: "1",
    officeNumber: "101",
  };

  it("counts a ticket created, taken and resolved through the app at once", async () => {
    const { db } = t.database;
    const admin = await signedInAs(t.app, db, "admin");
    const tech = await signedInAs(t.app, db, "technician");
    const user = await signedInAs(t.app, db, "user");
    const total = async (cookie: string, query = "") => (await list(cookie, query)).total!.count;
    const [all, open, mine] = [
      await total(admin.cookie),
      await total(admin.cookie, "?status=Open"),
      await total(tech.cookie, "?scope=mine"),
    ];
    // Asked twice: the second answer is the remembered one.
    expect(await total(admin.cookie)).toBe(all);

    const created = await request(t.app, {
      method: "POST",
      url: "/api/tickets",
      cookie: user.cookie,
      payload: ticketInput,
    });
    expect(created.statusCode).toBe(201);
    const { ticketId } = created.json<{ ticketId: string }>();
    expect(await total(admin.cookie)).toBe(all + 1);
    expect(await total(admin.cookie, "?status=Open")).toBe(open + 1);
    expect(await total(user.cookie)).toBe(1);

    const taken = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticketId}/assign`,
      cookie: tech.cookie,
      payload: {},
    });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(await total(admin.cookie, "?status=Open")).toBe(open);
    expect(await total(tech.cookie, "?scope=mine")).toBe(mine + 1);

    const summary = await request(t.app, { method: "GET", url: "/api/tickets/summary", cookie: tech.cookie });
    expect(summary.json<{ assignedToMe: number }>().assignedToMe).toBe(mine + 1);
  });

  it("sees a change made in SQL, behind the app's back, once the cache's time is over", async () => {
    const short = await createTestApp({ ticketReadCacheTtlMs: 200, database: t.database });
    try {
      const admin = await signedInAs(short.app, t.database.db, "admin");
      const count = async () =>
        (
          await request(short.app, { method: "GET", url: "/api/tickets", cookie: admin.cookie })
        ).json<TicketPage>().total!.count;
      const before = await count();
      await insertTicket(t.database.db, { createdBy: admin.user.id });
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await count()).toBe(before + 1);
    } finally {
      await short.app.close();
    }
  });
});
