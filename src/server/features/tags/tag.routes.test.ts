import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notifications, ticketEvents, tickets } from "#server/db/schema/index.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { tableSnapshotter } from "#server/test/table-snapshot.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { TagSuggestions } from "#shared/tags/tag.schemas.ts";
import type { Ticket, TicketPage } from "#shared/tickets/ticket.schemas.ts";
import type { TicketActivity } from "#shared/tickets/ticket-activity.schemas.ts";

// Decision 071: staff tag tickets; the lists filter by a tag; the timeline records it; users never see tags.

let t: TestApp;
type Person = Awaited<ReturnType<typeof signedInAs>>;
let user: Person;
let technician: Person;
let admin: Person;
let roleless: Person;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.reset();
  user = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
  roleless = await signedInAs(t.app, t.database.db, null);
});

const send = (
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  cookie: string | null,
  payload?: object,
) => request(t.app, { method, url, cookie, ...(payload ? { payload } : {}) });

const tag = (ticketId: string, cookie: string, change: { add?: string[]; remove?: string[] }) =>
  send("PATCH", `/api/tickets/${ticketId}/tags`, cookie, change);

async function tagged(ticketId: string, change: { add?: string[]; remove?: string[] }): Promise<Ticket> {
  const response = await tag(ticketId, admin.cookie, change);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const usersTicket = () => insertTicket(t.database.db, { createdBy: user.user.id });

describe("who may tag and read tags, for every role", () => {
  it("answers each route for signed out, no role, user, technician and admin, and a refusal changes nothing", async () => {
    const ticket = await usersTicket();
    await tagged(ticket.id, { add: ["vpn"] });
    const callers = {
      signedOut: null,
      roleless: roleless.cookie,
      user: user.cookie,
      technician: technician.cookie,
      admin: admin.cookie,
    };
    type Caller = keyof typeof callers;
    const routes: Array<[string, (cookie: string | null, who: Caller) => ReturnType<typeof send>, number[]]> =
      [
        // Expected for: signed out, no role, user, technician, admin.
        ["GET /api/tags", (cookie) => send("GET", "/api/tags", cookie), [401, 403, 403, 200, 200]],
        [
          "PATCH /api/tickets/:ticketId/tags",
          (cookie, who) => send("PATCH", `/api/tickets/${ticket.id}/tags`, cookie, { add: [`by ${who}`] }),
          [401, 403, 403, 200, 200],
        ],
        [
          "GET /api/tickets?tag=vpn",
          (cookie) => send("GET", "/api/tickets?tag=vpn", cookie),
          [401, 403, 403, 200, 200],
        ],
        [
          "GET /api/tickets/export.csv?tag=vpn",
          (cookie) => send("GET", "/api/tickets/export.csv?tag=vpn", cookie),
          [401, 403, 403, 200, 200],
        ],
      ];
    const order = Object.keys(callers) as Caller[];
    // The refusals first: each must change nothing.
    const snapshot = await tableSnapshotter(t.database.db);
    const before = await snapshot();
    for (const [route, call, expected] of routes) {
      for (const [i, who] of order.entries()) {
        if (expected[i] === 200) continue;
        const response = await call(callers[who], who);
        expect(response.statusCode, `${route} as ${who}: ${response.body}`).toBe(expected[i]);
      }
    }
    expect(await snapshot()).toEqual(before);
    for (const [route, call, expected] of routes) {
      for (const [i, who] of order.entries()) {
        if (expected[i] !== 200) continue;
        const response = await call(callers[who], who);
        expect(response.statusCode, `${route} as ${who}: ${response.body}`).toBe(200);
      }
    }
    const refusal = await tag(ticket.id, user.cookie, { add: ["x"] });
    expect(refusal.json()).toMatchObject({
      code: "forbidden",
      message: "Only technicians and administrators can see and change tags",
    });
  });

  it("never shows a ticket's tags to its requester, in the ticket, the list or the timeline", async () => {
    const ticket = await usersTicket();
    await tagged(ticket.id, { add: ["difficult"] });
    const own = (await send("GET", `/api/tickets/${ticket.id}`, user.cookie)).json<Ticket>();
    expect(own.tags).toBeNull();
    const list = (await send("GET", "/api/tickets", user.cookie)).json<TicketPage>();
    expect(list.items.map((item) => item.tags)).toEqual([null]);
    const activity = (
      await send("GET", `/api/tickets/${ticket.id}/activity`, user.cookie)
    ).json<TicketActivity>();
    expect(activity.events.map((event) => event.type)).not.toContain("tags_changed");
    const staff = (await send("GET", `/api/tickets/${ticket.id}`, technician.cookie)).json<Ticket>();
    expect(staff.tags).toEqual(["difficult"]);
  });
});

describe("adding and removing tags", () => {
  it("normalises, adds and removes, records one timeline entry per change and notifies nobody", async () => {
    const ticket = await usersTicket();
    const [before] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    const first = await tagged(ticket.id, { add: ["  VPN ", "New   Starter", "vpn"] });
    expect(first.tags).toEqual(["new starter", "vpn"]);
    const second = await tagged(ticket.id, { add: ["printer", "VPN"], remove: ["new starter", "absent"] });
    expect(second.tags).toEqual(["printer", "vpn"]);
    // Nothing to change: nothing recorded.
    await tagged(ticket.id, { add: ["printer"], remove: ["absent"] });

    const activity = (
      await send("GET", `/api/tickets/${ticket.id}/activity`, technician.cookie)
    ).json<TicketActivity>();
    const entries = activity.events.filter((event) => event.type === "tags_changed");
    expect(entries.map((event) => [event.actorName, event.tagsAdded, event.tagsRemoved])).toEqual([
      [admin.user.name, ["new starter", "vpn"], []],
      [admin.user.name, ["printer"], ["new starter"]],
    ]);
    expect(await t.database.db.select().from(notifications)).toEqual([]);
    // Not activity a requester can see: the last activity (and the auto-close date) stays.
    const [after] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(after?.updatedAt).toEqual(before?.updatedAt);
  });

  it("refuses a tag too long, empty, with a comma, more than 20 on a ticket, and one both added and removed", async () => {
    const ticket = await usersTicket();
    const snapshot = await tableSnapshotter(t.database.db);
    const start = await snapshot();
    const refusals: Array<[object, number, string]> = [
      [{ add: ["x".repeat(41)] }, 400, "A tag must be at most 40 characters"],
      [{ add: ["   "] }, 400, "A tag cannot be empty"],
      [{ add: ["a,b"] }, 400, "A tag cannot contain a comma"],
      [{ add: ["a"], remove: ["A"] }, 400, "A tag cannot be both added and removed"],
      [{ add: Array.from({ length: 21 }, (_, i) => `tag ${i}`) }, 400, "at most 20 tags"],
    ];
    for (const [payload, status, message] of refusals) {
      const response = await tag(ticket.id, technician.cookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json<{ message: string }>().message).toContain(message);
    }
    expect(await snapshot()).toEqual(start);
    await tagged(ticket.id, { add: Array.from({ length: 20 }, (_, i) => `tag ${i}`) });
    const over = await tag(ticket.id, technician.cookie, { add: ["one more"] });
    expect(over.statusCode).toBe(422);
    expect(over.json<{ message: string }>().message).toBe(
      "A ticket has at most 20 tags; remove one before adding another.",
    );
  });

  it("refuses a closed ticket's tags and a ticket the technician may not see", async () => {
    const closed = await insertTicket(t.database.db, { createdBy: user.user.id, status: "Closed" });
    const response = await tag(closed.id, admin.cookie, { add: ["late"] });
    expect(response.statusCode).toBe(409);
    const elsewhere = await insertTicket(t.database.db, {
      createdBy: user.user.id,
      assignedTo: admin.user.id,
      status: "In Progress",
    });
    expect((await tag(elsewhere.id, technician.cookie, { add: ["x"] })).statusCode).toBe(404);
  });
});

describe("suggestions and the fixed list", () => {
  it("suggests the tags in use, most used first, narrowed by what was typed", async () => {
    for (const tags of [["vpn", "printer"], ["vpn"], ["vpn", "password"], ["printer"]]) {
      const ticket = await usersTicket();
      await tagged(ticket.id, { add: tags });
    }
    const all = (await send("GET", "/api/tags", technician.cookie)).json<TagSuggestions>();
    expect(all).toEqual({
      fixed: false,
      items: [
        { tag: "vpn", count: 3 },
        { tag: "printer", count: 2 },
        { tag: "password", count: 1 },
      ],
    });
    const typed = (await send("GET", "/api/tags?q=P", technician.cookie)).json<TagSuggestions>();
    expect(typed.items.map((item) => item.tag)).toEqual(["printer", "password"]);
  });

  it("with the fixed list on, allows only listed tags with a clear 422, suggests exactly the list, and still removes others", async () => {
    const ticket = await usersTicket();
    await tagged(ticket.id, { add: ["legacy"] });
    const saved = await send("PUT", "/api/admin/settings/tags", admin.cookie, {
      fixed: true,
      allowed: ["Hardware fault", "vpn", "vpn"],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ value: { fixed: true, allowed: ["hardware fault", "vpn"] } });
    expect(
      (await send("PUT", "/api/admin/settings/tags", technician.cookie, { fixed: false, allowed: [] }))
        .statusCode,
    ).toBe(403);

    const refused = await tag(ticket.id, technician.cookie, { add: ["printer"] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: "rule_violation",
      message:
        "The tag “printer” is not in the list of allowed tags. Choose one of the listed tags, or ask an administrator to add it.",
    });
    const ok = await tag(ticket.id, technician.cookie, { add: ["VPN"], remove: ["legacy"] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<Ticket>().tags).toEqual(["vpn"]);
    const suggestions = (await send("GET", "/api/tags", technician.cookie)).json<TagSuggestions>();
    expect(suggestions).toEqual({
      fixed: true,
      items: [
        { tag: "vpn", count: 1 },
        { tag: "hardware fault", count: 0 },
      ],
    });
  });
});

describe("the lists and the export by tag", () => {
  it("filters the list by a tag (case-insensitive), counts it, pages it, and exports the tags", async () => {
    const vpn: string[] = [];
    for (let i = 0; i < 3; i++) {
      const ticket = await insertTicket(t.database.db, {
        createdBy: user.user.id,
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
      });
      await tagged(ticket.id, { add: ["vpn", "network"] });
      vpn.push(ticket.id);
    }
    const other = await usersTicket();
    await tagged(other.id, { add: ["printer"] });
    await usersTicket();

    const page = (await send("GET", "/api/tickets?tag=VPN&limit=2", technician.cookie)).json<TicketPage>();
    expect(page.items.map((item) => item.ticketId)).toEqual([vpn[2], vpn[1]]);
    expect(page.total).toEqual({ count: 3, capped: false });
    const rest = (
      await send("GET", `/api/tickets?tag=vpn&limit=2&cursor=${page.nextCursor}`, technician.cookie)
    ).json<TicketPage>();
    expect(rest.items.map((item) => item.ticketId)).toEqual([vpn[0]]);
    // With a status too, still counted from the tickets, not the counters.
    const open = (await send("GET", "/api/tickets?tag=vpn&status=Open", admin.cookie)).json<TicketPage>();
    expect(open.total).toEqual({ count: 3, capped: false });
    const none = (await send("GET", "/api/tickets?tag=nothing", admin.cookie)).json<TicketPage>();
    expect(none).toMatchObject({ items: [], total: { count: 0, capped: false } });

    const csv = await send("GET", "/api/tickets/export.csv?tag=vpn", admin.cookie);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]).toMatch(/,Tags$/);
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((line) => line.endsWith(',"network, vpn"'))).toBe(true);
    expect((await send("GET", "/api/tickets/export.csv?tag=vpn", user.cookie)).statusCode).toBe(403);
  });

  it("keeps the tags of a ticket in the timeline rows' own columns", async () => {
    const ticket = await usersTicket();
    await tagged(ticket.id, { add: ["vpn"] });
    const rows = await t.database.db.select().from(ticketEvents).where(eq(ticketEvents.ticketId, ticket.id));
    expect(rows.map((row) => [row.type, row.tagsAdded, row.tagsRemoved])).toEqual([
      ["tags_changed", ["vpn"], []],
    ]);
  });
});
