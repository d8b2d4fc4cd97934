import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestClock } from "#server/test/clock.ts";
import { insertTicket, insertUser, signedInAs, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Ticket, TicketPage } from "#shared/tickets/ticket.schemas.ts";

// The server's clock: Monday 2030-01-07 10:00 UTC. Due soon = within the default 60 minutes.
const clock = createTestClock(new Date("2030-01-07T10:00:00Z"));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const at = (iso: string) => new Date(iso);

/** Tickets owing a response or resolution at different times, one owing nothing, one resolved. */
async function seed() {
  const { db } = t.database;
  const creator = await insertUser(db, { role: "user" });
  const make = (title: string, createdAt: string, values: Partial<Parameters<typeof insertTicket>[1]>) =>
    insertTicket(db, { createdBy: creator.id, title, createdAt: at(createdAt), ...values });
  const overdue = await make("Overdue", "2030-01-07T08:00:00Z", { slaDueAt: at("2030-01-07T09:30:00Z") });
  const dueSoon = await make("Due soon", "2030-01-07T08:01:00Z", { slaDueAt: at("2030-01-07T10:30:00Z") });
  const later = await make("Later", "2030-01-07T08:02:00Z", { slaDueAt: at("2030-01-07T15:00:00Z") });
  const noTarget = await make("No target", "2030-01-07T08:03:00Z", { slaDueAt: null });
  const resolved = await make("Resolved", "2030-01-07T08:04:00Z", {
    status: "Resolved",
    resolvedAt: at("2030-01-07T09:00:00Z"),
    slaDueAt: null,
  });
  return { creator, overdue, dueSoon, later, noTarget, resolved };
}

const titles = (page: TicketPage) => page.items.map((ticket: Ticket) => ticket.title);

async function list(cookie: string, query: Record<string, string>) {
  return request(t.app, { method: "GET", url: `/api/tickets?${new URLSearchParams(query)}`, cookie });
}

describe("GET /api/tickets by due time", () => {
  it("filters Overdue and Due soon at the server's clock", async () => {
    await seed();
    const { cookie } = await signedInAs(t.app, t.database.db, "admin");
    expect(titles((await list(cookie, { due: "overdue" })).json())).toEqual(["Overdue"]);
    expect(titles((await list(cookie, { due: "due_soon" })).json())).toEqual(["Due soon"]);
  });

  it("sorts by due time, earliest first, tickets owing nothing last, page by page with a cursor", async () => {
    const seeded = await seed();
    const { cookie } = await signedInAs(t.app, t.database.db, "admin");
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await list(cookie, { sort: "due", limit: "2", ...(cursor ? { cursor } : {}) });
      expect(response.statusCode).toBe(200);
      const page: TicketPage = response.json();
      seen.push(...titles(page));
      cursor = page.nextCursor;
    } while (cursor);
    const byId = [seeded.noTarget, seeded.resolved]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((x) => x.title);
    expect(seen).toEqual(["Overdue", "Due soon", "Later", ...byId]);
  });

  it("a technician's due list keeps to what they may see", async () => {
    const { overdue } = await seed();
    const { db } = t.database;
    const tech = await insertUser(db, { role: "technician" });
    const other = await insertUser(db, { role: "technician" });
    const creator = await insertUser(db, { role: "user" });
    await insertTicket(db, {
      createdBy: creator.id,
      assignedTo: other.id,
      status: "In Progress",
      title: "Someone else's",
      slaDueAt: at("2030-01-07T09:00:00Z"),
    });
    const cookie = await signIn(t.app, tech.email);
    const page: TicketPage = (await list(cookie, { due: "overdue", sort: "due" })).json();
    expect(titles(page)).toEqual([overdue.title]);
  });

  it("refuses a cursor of the other sort, an unknown sort, and due filters for users", async () => {
    await seed();
    const { cookie } = await signedInAs(t.app, t.database.db, "admin");
    const newest: TicketPage = (await list(cookie, { limit: "1" })).json();
    const mixed = await list(cookie, { sort: "due", cursor: newest.nextCursor! });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toMatchObject({ message: "cursor: Not a valid page cursor" });
    const unknown = await list(cookie, { sort: "oldest" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      "querystring sort: Sort must be newest, created, updated, priority, status or due",
    );
    const user = await signedInAs(t.app, t.database.db, "user");
    const refused = await list(user.cookie, { due: "overdue" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("Only technicians and administrators can filter or sort by due time");
  });

  it("each listed ticket carries its service levels for staff, not for its creator", async () => {
    const { creator } = await seed();
    const { cookie } = await signedInAs(t.app, t.database.db, "admin");
    const page: TicketPage = (await list(cookie, { due: "overdue" })).json();
    expect(page.items[0]?.sla?.serverNow).toBe("2030-01-07T10:00:00.000Z");
    const mine: TicketPage = (await list(await signIn(t.app, creator.email), {})).json();
    expect(mine.items.every((ticket) => ticket.sla === null)).toBe(true);
  });
});

describe("GET /api/tickets/summary", () => {
  it("counts Overdue and Due soon for staff, scoped like the other counts; null for users", async () => {
    const { creator } = await seed();
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const summary = (
      await request(t.app, { method: "GET", url: "/api/tickets/summary", cookie: admin.cookie })
    ).json();
    expect(summary).toMatchObject({ total: 5, overdue: 1, dueSoon: 1 });
    const tech = await signedInAs(t.app, t.database.db, "technician");
    // All five are unassigned, so a technician sees them too.
    const techSummary = (
      await request(t.app, { method: "GET", url: "/api/tickets/summary", cookie: tech.cookie })
    ).json();
    expect(techSummary).toMatchObject({ overdue: 1, dueSoon: 1 });
    const user = (
      await request(t.app, {
        method: "GET",
        url: "/api/tickets/summary?scope=created",
        cookie: await signIn(t.app, creator.email),
      })
    ).json();
    expect(user).toMatchObject({ total: 5, overdue: null, dueSoon: null });
  });
});
