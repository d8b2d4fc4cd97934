import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TicketRow } from "#server/db/schema/index.ts";
import { visibilityBranches } from "#server/features/ticket-records/ticket-visibility.ts";
import { insertTicket, insertUser, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import {
  type TicketPage,
  type TicketPriority,
  type TicketStatus,
  ticketPriorities,
  ticketStatuses,
} from "#shared/tickets/ticket.schemas.ts";
import { countTicketsUpTo } from "./list/ticket-counts.queries.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const at = (minute: number) => new Date(Date.UTC(2030, 0, 7, 9, minute));

/**
 * A technician's world: tickets in each of their visibility branches (assigned to them, unassigned,
 * raised by them and assigned elsewhere) and some they may not see. Priorities, statuses and both
 * timestamps repeat, so that every order has ties that only the id breaks.
 */
async function seed() {
  const { db } = t.database;
  const requester = await insertUser(db, { role: "user", name: "Rita Requester", department: "Finance" });
  const tech = await insertUser(db, { role: "technician", name: "Theo Tech" });
  const otherTech = await insertUser(db, { role: "technician" });
  const visible: TicketRow[] = [];
  const hidden: TicketRow[] = [];
  for (let i = 0; i < 18; i += 1) {
    const priority = ticketPriorities[i % 3] as TicketPriority;
    const status = ticketStatuses[(i >> 1) % 4] as TicketStatus;
    const branch = i % 3 === 0 ? "mine" : i % 3 === 1 ? "unassigned" : "raisedByMe";
    const ticket = await insertTicket(db, {
      title: `Ticket ${i}`,
      priority,
      status: branch === "unassigned" ? "Open" : status,
      createdBy: branch === "raisedByMe" ? tech.id : requester.id,
      assignedTo: branch === "mine" ? tech.id : branch === "unassigned" ? null : otherTech.id,
      // Three tickets share each creation minute and two each update minute.
      createdAt: at(Math.floor(i / 3)),
      updatedAt: at(30 + Math.floor(i / 2)),
      department: `Dept ${i % 2}`,
      officeNumber: `${100 + i}`,
    });
    visible.push(ticket);
  }
  for (let i = 0; i < 4; i += 1) {
    hidden.push(
      await insertTicket(db, {
        title: `Elsewhere ${i}`,
        createdBy: requester.id,
        assignedTo: otherTech.id,
        status: "In Progress",
        createdAt: at(1),
      }),
    );
  }
  return { requester, tech, visible, hidden };
}

type Order = { sort: "created" | "updated" | "priority" | "status"; dir: "asc" | "desc" };

/** The order the list promises, computed here: the rank in its enum's order, then the time, then the id. */
function expectedOrder(rows: TicketRow[], { sort, dir }: Order): string[] {
  const rank = (row: TicketRow) =>
    sort === "priority"
      ? ticketPriorities.indexOf(row.priority)
      : sort === "status"
        ? ticketStatuses.indexOf(row.status)
        : 0;
  const time = (row: TicketRow) => (sort === "updated" ? row.updatedAt : row.createdAt).getTime();
  const sign = dir === "asc" ? 1 : -1;
  return [...rows]
    .sort(
      (a, b) => sign * (rank(a) - rank(b) || time(a) - time(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    )
    .map((row) => row.id);
}

async function list(cookie: string, query: Record<string, string>) {
  return request(t.app, { method: "GET", url: `/api/tickets?${new URLSearchParams(query)}`, cookie });
}

/** Every page, following the cursors; fails on anything but 200. */
async function readAll(cookie: string, query: Record<string, string>) {
  const pages: TicketPage[] = [];
  let cursor: string | null = null;
  do {
    const response = await list(cookie, { ...query, ...(cursor ? { cursor } : {}) });
    expect(response.statusCode, response.body).toBe(200);
    const page: TicketPage = response.json();
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 50);
  return pages;
}

const orders: Order[] = (["created", "updated", "priority", "status"] as const).flatMap((sort) =>
  (["asc", "desc"] as const).map((dir) => ({ sort, dir })),
);

describe("GET /api/tickets sorted", () => {
  it.each(orders)(
    "a technician's list by $sort $dir: in order across pages of 4, no ticket twice, none missing",
    async (order) => {
      const { tech, visible } = await seed();
      const cookie = await signIn(t.app, tech.email);
      const pages = await readAll(cookie, { ...order, limit: "4" });
      const ids = pages.flatMap((page) => page.items.map((ticket) => ticket.ticketId));
      expect(ids).toEqual(expectedOrder(visible, order));
      expect(pages).toHaveLength(5);
      // Counted with the first page only.
      expect(pages[0]!.total).toEqual({ count: 18, capped: false });
      expect(pages.slice(1).every((page) => page.total === null)).toBe(true);
    },
  );

  it.each(orders)("an admin's list by $sort $dir pages through every ticket in order", async (order) => {
    const { visible, hidden } = await seed();
    const admin = await insertUser(t.database.db, { role: "admin" });
    const cookie = await signIn(t.app, admin.email);
    const pages = await readAll(cookie, { ...order, limit: "5" });
    const ids = pages.flatMap((page) => page.items.map((ticket) => ticket.ticketId));
    expect(ids).toEqual(expectedOrder([...visible, ...hidden], order));
  });

  it("puts High before Medium before Low, and Open before In Progress, Resolved and Closed by default", async () => {
    const { tech } = await seed();
    const cookie = await signIn(t.app, tech.email);
    const byPriority: TicketPage = (await list(cookie, { sort: "priority", limit: "100" })).json();
    const priorities = byPriority.items.map((ticket) => ticket.priority);
    expect(priorities.indexOf("Medium")).toBeGreaterThan(priorities.lastIndexOf("High"));
    expect(priorities.indexOf("Low")).toBeGreaterThan(priorities.lastIndexOf("Medium"));
    const byStatus: TicketPage = (await list(cookie, { sort: "status", limit: "100" })).json();
    expect([...new Set(byStatus.items.map((ticket) => ticket.status))]).toEqual([
      "Open",
      "In Progress",
      "Resolved",
      "Closed",
    ]);
  });

  it("keeps the filters: a user's Open tickets by last activity, counted as filtered", async () => {
    const { requester, visible } = await seed();
    const cookie = await signIn(t.app, requester.email);
    const pages = await readAll(cookie, { sort: "updated", dir: "desc", status: "Open", limit: "3" });
    const ids = pages.flatMap((page) => page.items.map((ticket) => ticket.ticketId));
    const expected = expectedOrder(
      visible.filter((row) => row.createdBy === requester.id && row.status === "Open"),
      { sort: "updated", dir: "desc" },
    );
    expect(expected.length).toBeGreaterThan(3);
    expect(ids).toEqual(expected);
    expect(pages[0]!.total).toEqual({ count: expected.length, capped: false });
  });

  it("shows who raised each ticket, with the department and office on it", async () => {
    const { tech, requester } = await seed();
    const cookie = await signIn(t.app, tech.email);
    // Tickets 0–2 share their creation minute, so the id decides their order: find ticket 0 by its title.
    const page: TicketPage = (await list(cookie, { sort: "created", dir: "asc", limit: "3" })).json();
    expect(page.items.find((ticket) => ticket.title === "Ticket 0")).toMatchObject({
      title: "Ticket 0",
      createdByName: requester.name,
      department: "Dept 0",
      officeNumber: "100",
    });
  });

  it("refuses an unknown sort or direction, the due order backwards, and a cursor of another order", async () => {
    const { tech } = await seed();
    const cookie = await signIn(t.app, tech.email);
    const unknown = await list(cookie, { sort: "title" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      "querystring sort: Sort must be newest, created, updated, priority, status or due",
    );
    const sideways = await list(cookie, { sort: "priority", dir: "up" });
    expect(sideways.statusCode).toBe(400);
    expect(sideways.json().message).toBe("querystring dir: Direction must be asc or desc");
    const dueBackwards = await list(cookie, { sort: "due", dir: "desc" });
    expect(dueBackwards.statusCode).toBe(400);
    expect(dueBackwards.json().message).toBe("dir: The due-time order is earliest first only");

    const byPriority: TicketPage = (await list(cookie, { sort: "priority", limit: "2" })).json();
    const others: Array<Record<string, string>> = [
      { sort: "priority", dir: "asc" },
      { sort: "status" },
      { sort: "newest" },
      { sort: "updated" },
    ];
    for (const other of others) {
      const mixed = await list(cookie, { ...other, cursor: byPriority.nextCursor! });
      expect(mixed.statusCode).toBe(400);
      expect(mixed.json().message).toBe("cursor: Not a valid page cursor");
    }
  });
});

describe("counting a list", () => {
  it("counts up to the cap in every branch and then says it stopped", async () => {
    const { tech, visible } = await seed();
    const actor = { id: tech.id, role: "technician" as const };
    const branches = visibilityBranches(actor);
    expect(await countTicketsUpTo(t.database.db, { branches, cap: 100 })).toEqual({
      count: visible.length,
      capped: false,
    });
    expect(await countTicketsUpTo(t.database.db, { branches, cap: visible.length })).toEqual({
      count: visible.length,
      capped: false,
    });
    expect(await countTicketsUpTo(t.database.db, { branches, cap: visible.length - 1 })).toEqual({
      count: visible.length - 1,
      capped: true,
    });
    // Each branch alone holds 6: a cap of 5 is passed in every one of them.
    expect(await countTicketsUpTo(t.database.db, { branches, cap: 5 })).toEqual({ count: 5, capped: true });
  });
});
