import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tickets } from "#server/db/schema/index.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { ticketIdPattern } from "#shared/tickets/ticket.schemas.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const validTicket = {
  title: "Laptop will not boot",
  description: "Black screen after the logo.",
  category: "Hardware",
  priority: "High",
  department: "Finance",
  floor: "3",
  officeNumber: "301",
};

const countTickets = async () => (await t.database.db.select().from(tickets)).length;

describe("POST /api/tickets", () => {
  beforeEach(() => t.database.reset());

  it("creates an Open, unassigned ticket with a TKT id for a user", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const response = await request(t.app, {
      method: "POST",
      url: "/api/tickets",
      cookie,
      payload: validTicket,
    });
    expect(response.statusCode).toBe(201);
    const ticket = response.json();
    expect(ticket).toMatchObject({
      ...validTicket,
      status: "Open",
      assignedTo: null,
      createdBy: user.id,
      createdByName: user.name,
    });
    expect(ticket.ticketId).toMatch(ticketIdPattern);
    expect(await countTickets()).toBe(1);
  });

  it("lets an admin create a ticket", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "admin");
    const response = await request(t.app, {
      method: "POST",
      url: "/api/tickets",
      cookie,
      payload: validTicket,
    });
    expect(response.statusCode).toBe(201);
  });

  it("refuses a technician with the spec's message and writes nothing", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "technician");
    const response = await request(t.app, {
      method: "POST",
      url: "/api/tickets",
      cookie,
      payload: validTicket,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: "forbidden",
      message: "You do not have permission to create tickets",
    });
    expect(await countTickets()).toBe(0);
  });

  it("refuses an anonymous caller with 401", async () => {
    const response = await request(t.app, { method: "POST", url: "/api/tickets", payload: validTicket });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("unauthenticated");
  });

  it.each([
    ["a wrong field type", { ...validTicket, title: 123 }, "title: Title must be text"],
    [
      "a missing required field",
      { ...validTicket, officeNumber: undefined },
      "officeNumber: Office number is required",
    ],
    [
      "a blank required field",
      { ...validTicket, description: "   " },
      "description: Description is required",
    ],
    [
      "an unknown category",
      { ...validTicket, category: "Coffee machine" },
      "category: Category must be Hardware, Software, Network or Other",
    ],
    [
      "an unknown priority",
      { ...validTicket, priority: "Urgent" },
      "priority: Priority must be Low, Medium or High",
    ],
  ])("answers %s with 400, a clear message, and writes nothing", async (_case, payload, message) => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const response = await request(t.app, { method: "POST", url: "/api/tickets", cookie, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "validation_failed", message });
    expect(await countTickets()).toBe(0);
  });

  it("answers an oversized body with 413 and writes nothing", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const payload = { ...validTicket, description: "x".repeat(70 * 1024) };
    const response = await request(t.app, { method: "POST", url: "/api/tickets", cookie, payload });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      code: "payload_too_large",
      message: "The request body is too large (the limit is 64 KB).",
    });
    expect(await countTickets()).toBe(0);
  });

  it("ignores fields the client may not set: the ticket still starts Open and unassigned", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const response = await request(t.app, {
      method: "POST",
      url: "/api/tickets",
      cookie,
      payload: { ...validTicket, status: "Closed", assignedTo: user.id, createdBy: "someone-else" },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ status: "Open", assignedTo: null, createdBy: user.id });
  });
});

describe("GET /api/tickets", () => {
  beforeEach(() => t.database.reset());

  it("shows a user only their own tickets, newest first", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const { user: other } = await signedInAs(t.app, t.database.db, "user");
    const older = await insertTicket(t.database.db, {
      createdBy: user.id,
      createdAt: new Date(Date.now() - 60_000),
    });
    const newer = await insertTicket(t.database.db, { createdBy: user.id });
    await insertTicket(t.database.db, { createdBy: other.id });
    const response = await request(t.app, { method: "GET", url: "/api/tickets", cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json().items.map((i: { ticketId: string }) => i.ticketId)).toEqual([newer.id, older.id]);
  });

  it("shows a technician unassigned tickets and their own, with tabs that narrow the list", async () => {
    const { user: creator } = await signedInAs(t.app, t.database.db, "user");
    const { user: tech, cookie } = await signedInAs(t.app, t.database.db, "technician");
    const { user: otherTech } = await signedInAs(t.app, t.database.db, "technician");
    const unassigned = await insertTicket(t.database.db, { createdBy: creator.id });
    const mine = await insertTicket(t.database.db, {
      createdBy: creator.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await insertTicket(t.database.db, {
      createdBy: creator.id,
      assignedTo: otherTech.id,
      status: "In Progress",
    });

    const ids = async (query: string) =>
      (await request(t.app, { method: "GET", url: `/api/tickets${query}`, cookie }))
        .json()
        .items.map((i: { ticketId: string }) => i.ticketId)
        .sort();
    expect(await ids("")).toEqual([unassigned.id, mine.id].sort());
    expect(await ids("?scope=mine")).toEqual([mine.id]);
    expect(await ids("?scope=unassigned")).toEqual([unassigned.id]);
    expect(await ids("?status=In%20Progress")).toEqual([mine.id]);
  });

  it("pages 25 at a time with a cursor and never repeats or skips a ticket", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const sameInstant = new Date();
    for (let i = 0; i < 60; i++) {
      // Some share a timestamp: the id breaks the tie.
      const createdAt = i % 3 === 0 ? sameInstant : new Date(sameInstant.getTime() - i * 1000);
      await insertTicket(t.database.db, { createdBy: user.id, createdAt });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/tickets${cursor ? `?cursor=${cursor}` : ""}`;
      const page = (await request(t.app, { method: "GET", url, cookie })).json();
      seen.push(...page.items.map((i: { ticketId: string }) => i.ticketId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
  });

  it("answers a forged cursor or an unknown status with 400", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const badCursor = await request(t.app, { method: "GET", url: "/api/tickets?cursor=bm9wZQ", cookie });
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().message).toBe("cursor: Not a valid page cursor");
    const badStatus = await request(t.app, { method: "GET", url: "/api/tickets?status=Pending", cookie });
    expect(badStatus.statusCode).toBe(400);
  });

  it("requires a session", async () => {
    expect((await request(t.app, { method: "GET", url: "/api/tickets" })).statusCode).toBe(401);
  });
});

describe("GET /api/tickets/:ticketId", () => {
  beforeEach(() => t.database.reset());

  it("shows the creator their ticket and answers 404 to someone who may not see it", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const { cookie: otherCookie } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id });
    const own = await request(t.app, { method: "GET", url: `/api/tickets/${ticket.id}`, cookie });
    expect(own.statusCode).toBe(200);
    expect(own.json().ticketId).toBe(ticket.id);
    const other = await request(t.app, {
      method: "GET",
      url: `/api/tickets/${ticket.id}`,
      cookie: otherCookie,
    });
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(`Ticket ${ticket.id} not found`);
  });
});

describe("GET /api/tickets/summary", () => {
  beforeEach(() => t.database.reset());

  it("counts what each role may see", async () => {
    const { user, cookie: userCookie } = await signedInAs(t.app, t.database.db, "user");
    const { user: tech, cookie: techCookie } = await signedInAs(t.app, t.database.db, "technician");
    const { cookie: adminCookie } = await signedInAs(t.app, t.database.db, "admin");
    const { user: other } = await signedInAs(t.app, t.database.db, "user");
    await insertTicket(t.database.db, { createdBy: user.id });
    await insertTicket(t.database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "Resolved",
      resolvedBy: tech.id,
    });
    await insertTicket(t.database.db, { createdBy: other.id, assignedTo: tech.id, status: "In Progress" });
    await insertTicket(t.database.db, { createdBy: other.id, status: "Closed", assignedTo: other.id });

    const summary = async (cookie: string) =>
      (await request(t.app, { method: "GET", url: "/api/tickets/summary", cookie })).json();
    expect(await summary(userCookie)).toMatchObject({ total: 2, open: 1, inProgress: 0, resolved: 1 });
    expect(await summary(techCookie)).toMatchObject({
      total: 3,
      assignedToMe: 2,
      unassigned: 1,
      resolvedByMe: 1,
    });
    expect(await summary(adminCookie)).toMatchObject({
      total: 4,
      open: 1,
      inProgress: 1,
      resolved: 1,
      closed: 1,
    });
  });
});

describe("scope=created (the /user-home dashboard)", () => {
  beforeEach(() => t.database.reset());

  it("lists and counts only the tickets an administrator raised, not everyone's", async () => {
    const { user: admin, cookie } = await signedInAs(t.app, t.database.db, "admin");
    const { user: other } = await signedInAs(t.app, t.database.db, "user");
    const own = await insertTicket(t.database.db, { createdBy: admin.id });
    await insertTicket(t.database.db, { createdBy: other.id });
    await insertTicket(t.database.db, { createdBy: other.id, status: "Resolved" });

    const list = await request(t.app, { method: "GET", url: "/api/tickets?scope=created", cookie });
    expect(list.json().items.map((i: { ticketId: string }) => i.ticketId)).toEqual([own.id]);
    const summary = await request(t.app, {
      method: "GET",
      url: "/api/tickets/summary?scope=created",
      cookie,
    });
    expect(summary.json()).toMatchObject({ total: 1, open: 1, inProgress: 0, resolved: 0 });
    const everything = await request(t.app, { method: "GET", url: "/api/tickets/summary", cookie });
    expect(everything.json()).toMatchObject({ total: 3 });
  });

  it("gives a user the same tickets and counts as before", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    await insertTicket(t.database.db, { createdBy: user.id });
    await insertTicket(t.database.db, { createdBy: user.id, status: "Resolved" });
    const get = async (url: string) => (await request(t.app, { method: "GET", url, cookie })).json();
    expect((await get("/api/tickets?scope=created")).items).toEqual((await get("/api/tickets")).items);
    expect(await get("/api/tickets/summary?scope=created")).toEqual(await get("/api/tickets/summary"));
  });

  it("refuses a summary scope other than visible or created", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const response = await request(t.app, { method: "GET", url: "/api/tickets/summary?scope=mine", cookie });
    expect(response.statusCode).toBe(400);
  });
});
