import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type TicketRow, tickets } from "#server/db/schema/index.ts";
import { createTestClock } from "#server/test/clock.ts";
import { insertTicket, insertUser, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { TicketPage } from "#shared/tickets/ticket.schemas.ts";
import { syncOverlapMs } from "./list/ticket-cursors.ts";

// Decision 079: GET /api/tickets?updatedSince= reads the tickets changed since, by last change, oldest first.
const now = new Date("2030-01-07T12:00:00.000Z");
const clock = createTestClock(now);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());
beforeEach(() => {
  clock.set(now);
  return t.database.reset();
});

const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

/**
 * A technician's tickets in each visibility branch, and some they may not see; two share each update
 * minute, so that the id breaks ties.
 */
async function seed() {
  const { db } = t.database;
  const requester = await insertUser(db, { role: "user" });
  const tech = await insertUser(db, { role: "technician" });
  const otherTech = await insertUser(db, { role: "technician" });
  const visible: TicketRow[] = [];
  const hidden: TicketRow[] = [];
  for (let i = 0; i < 14; i += 1) {
    const branch = i % 3 === 0 ? "mine" : i % 3 === 1 ? "unassigned" : "raisedByMe";
    visible.push(
      await insertTicket(db, {
        title: `Ticket ${i}`,
        status: branch === "unassigned" ? "Open" : "In Progress",
        createdBy: branch === "raisedByMe" ? tech.id : requester.id,
        assignedTo: branch === "mine" ? tech.id : branch === "unassigned" ? null : otherTech.id,
        createdAt: minutesAgo(120),
        updatedAt: minutesAgo(60 - Math.floor(i / 2)),
      }),
    );
  }
  for (let i = 0; i < 3; i += 1) {
    hidden.push(
      await insertTicket(db, {
        title: `Elsewhere ${i}`,
        status: "In Progress",
        createdBy: requester.id,
        assignedTo: otherTech.id,
        createdAt: minutesAgo(120),
        updatedAt: minutesAgo(55 - i),
      }),
    );
  }
  return { requester, tech, otherTech, visible, hidden };
}

/** By last change, then id: the order a sync promises. */
const byLastChange = (rows: TicketRow[]) =>
  [...rows]
    .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime() || (a.id < b.id ? -1 : 1))
    .map((row) => row.id);

const list = (cookie: string, query: Record<string, string>) =>
  request(t.app, { method: "GET", url: `/api/tickets?${new URLSearchParams(query)}`, cookie });

async function page(cookie: string, query: Record<string, string>): Promise<TicketPage> {
  const response = await list(cookie, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** A whole sync: every page, following the cursors, with `between` run after each page. */
async function sync(
  cookie: string,
  query: Record<string, string>,
  between: (pageNumber: number) => Promise<void> = async () => {},
) {
  const pages: TicketPage[] = [];
  let cursor: string | null = null;
  do {
    pages.push(await page(cookie, { ...query, ...(cursor ? { cursor } : {}) }));
    cursor = pages.at(-1)!.nextCursor;
    await between(pages.length);
  } while (cursor && pages.length < 50);
  return pages;
}

const itemsOf = (pages: TicketPage[]) => pages.flatMap((each) => each.items);

describe("GET /api/tickets?updatedSince=", () => {
  it("pages a technician's tickets by last change, oldest first, from the time given on, and only those they may see", async () => {
    const { tech, visible } = await seed();
    const cookie = await signIn(t.app, tech.email);
    // "At or after": the two tickets changed exactly 57 minutes ago are in.
    const since = minutesAgo(57);
    const pages = await sync(cookie, { updatedSince: since.toISOString(), limit: "3" });
    expect(itemsOf(pages).map((ticket) => ticket.ticketId)).toEqual(
      byLastChange(visible.filter((row) => row.updatedAt >= since)),
    );
    expect(pages.length).toBeGreaterThan(2);
    expect(pages[0]!.total).toEqual({ count: 8, capped: false });
    // The next start only on the last page: a client stores it once the sync is complete.
    expect(pages.slice(0, -1).every((each) => each.nextUpdatedSince === null)).toBe(true);
    expect(pages.at(-1)!.nextUpdatedSince).toBe(new Date(now.getTime() - syncOverlapMs).toISOString());
  });

  it("gives a requester their own tickets only, and an admin every ticket", async () => {
    const { requester, visible, hidden } = await seed();
    const since = minutesAgo(600).toISOString();
    const mine = itemsOf(await sync(await signIn(t.app, requester.email), { updatedSince: since }));
    expect(mine.map((ticket) => ticket.ticketId)).toEqual(
      byLastChange([...visible, ...hidden].filter((row) => row.createdBy === requester.id)),
    );
    const admin = await insertUser(t.database.db, { role: "admin" });
    const all = itemsOf(await sync(await signIn(t.app, admin.email), { updatedSince: since, limit: "4" }));
    expect(all.map((ticket) => ticket.ticketId)).toEqual(byLastChange([...visible, ...hidden]));
  });

  it("skips no ticket and repeats no version while tickets change between its pages", async () => {
    const { visible, hidden } = await seed();
    const admin = await insertUser(t.database.db, { role: "admin" });
    const cookie = await signIn(t.app, admin.email);
    const everyTicket = byLastChange([...visible, ...hidden]);
    const [firstRead, notYetRead] = [everyTicket[0]!, everyTicket.at(-2)!];
    const pages = await sync(
      cookie,
      { updatedSince: minutesAgo(600).toISOString(), limit: "4" },
      async (n) => {
        if (n !== 2) return;
        // After the second page: a ticket already read and one still ahead both change.
        clock.advance(1_000);
        for (const ticketId of [firstRead, notYetRead]) {
          const changed = await request(t.app, {
            method: "PATCH",
            url: `/api/tickets/${ticketId}`,
            cookie,
            payload: { title: `Changed ${ticketId}` },
          });
          expect(changed.statusCode, changed.body).toBe(200);
        }
      },
    );
    const read = itemsOf(pages);
    const positions = read.map((ticket) => [Date.parse(ticket.updatedAt), ticket.ticketId] as const);
    // Strictly increasing (last change, id): no version of a ticket twice, none out of order.
    for (let i = 1; i < positions.length; i += 1) {
      const [at, id] = positions[i]!;
      const [previousAt, previousId] = positions[i - 1]!;
      expect(at > previousAt || (at === previousAt && id > previousId)).toBe(true);
    }
    expect(new Set(read.map((ticket) => ticket.ticketId))).toEqual(new Set(everyTicket));
    // Each changed ticket comes last, as it is now; the one read before its change is also read again.
    expect(read.slice(-2).map((ticket) => [ticket.ticketId, ticket.title])).toEqual(
      [firstRead, notYetRead].sort().map((id) => [id, `Changed ${id}`]),
    );
    expect(read.filter((ticket) => ticket.ticketId === firstRead)).toHaveLength(2);
    expect(read.filter((ticket) => ticket.ticketId === notYetRead)).toHaveLength(1);
    // The next start reaches back from when the first page was read, not the last.
    expect(pages.at(-1)!.nextUpdatedSince).toBe(new Date(now.getTime() - syncOverlapMs).toISOString());
  });

  it("reads again, next time, a change that committed after the sync with an earlier time", async () => {
    const { visible } = await seed();
    const admin = await insertUser(t.database.db, { role: "admin" });
    const cookie = await signIn(t.app, admin.email);
    const first = await sync(cookie, { updatedSince: minutesAgo(600).toISOString() });
    const resumeFrom = first.at(-1)!.nextUpdatedSince!;
    // A long transaction stamped its change 20 s before the sync read and committed after it.
    const late = visible[3]!;
    const stampedAt = new Date(now.getTime() - 20_000);
    await t.database.db
      .update(tickets)
      .set({ title: "Committed late", updatedAt: stampedAt })
      .where(eq(tickets.id, late.id));
    clock.advance(5 * 60_000);
    const next = itemsOf(await sync(cookie, { updatedSince: resumeFrom }));
    expect(next.map((ticket) => [ticket.ticketId, ticket.title])).toEqual([[late.id, "Committed late"]]);
  });

  it("never starts the next sync before the time it was asked from", async () => {
    const { tech } = await seed();
    const cookie = await signIn(t.app, tech.email);
    const since = new Date(now.getTime() - 10_000).toISOString();
    const empty = await page(cookie, { updatedSince: since });
    expect(empty).toMatchObject({ items: [], nextCursor: null, nextUpdatedSince: since });
  });

  it("includes a ticket merged since, with the ticket it went into", async () => {
    const { requester } = await seed();
    const admin = await insertUser(t.database.db, { role: "admin" });
    const cookie = await signIn(t.app, admin.email);
    const source = await insertTicket(t.database.db, { createdBy: requester.id, createdAt: minutesAgo(300) });
    const target = await insertTicket(t.database.db, { createdBy: requester.id, createdAt: minutesAgo(300) });
    const merged = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${source.id}/merge`,
      cookie,
      payload: { targetId: target.id },
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const read = itemsOf(await sync(cookie, { updatedSince: minutesAgo(1).toISOString() }));
    expect(read.find((ticket) => ticket.ticketId === source.id)).toMatchObject({
      status: "Closed",
      mergedIntoId: target.id,
    });
  });

  it("keeps the list's other filters and does not count from the dashboard counters", async () => {
    const { tech, visible } = await seed();
    const cookie = await signIn(t.app, tech.email);
    const since = minutesAgo(600).toISOString();
    const open = await page(cookie, { updatedSince: since, status: "Open", limit: "100" });
    const expected = byLastChange(visible.filter((row) => row.status === "Open"));
    expect(open.items.map((ticket) => ticket.ticketId)).toEqual(expected);
    expect(open.total).toEqual({ count: expected.length, capped: false });
  });

  it("refuses a time that is not one, another order, and a cursor of another list", async () => {
    const { tech } = await seed();
    const cookie = await signIn(t.app, tech.email);
    const message =
      "querystring updatedSince: updatedSince must be an ISO 8601 time with its zone, such as 2026-11-30T12:00:00.000Z";
    for (const updatedSince of ["yesterday", "2030-01-07T12:00:00", "1700000000", "0000-01-01T00:00:00Z"]) {
      const refused = await list(cookie, { updatedSince });
      expect(refused.statusCode, updatedSince).toBe(400);
      expect(refused.json().message).toBe(message);
    }
    const since = minutesAgo(600).toISOString();
    const orders: Array<Record<string, string>> = [
      { sort: "priority" },
      { sort: "created" },
      { sort: "updated", dir: "desc" },
    ];
    for (const order of orders) {
      const refused = await list(cookie, { updatedSince: since, ...order });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(
        "sort: A sync (updatedSince) reads by last change, oldest first: leave sort and dir out",
      );
    }
    expect((await list(cookie, { updatedSince: since, sort: "updated", dir: "asc" })).statusCode).toBe(200);

    const listPage = await page(cookie, { sort: "updated", dir: "asc", limit: "2" });
    const syncPage = await page(cookie, { updatedSince: since, limit: "2" });
    for (const [query, cursor] of [
      [{ updatedSince: since }, listPage.nextCursor!],
      [{ sort: "updated", dir: "asc" }, syncPage.nextCursor!],
      [{ updatedSince: since }, Buffer.from("sync|yesterday|x|y").toString("base64url")],
    ] as const) {
      const refused = await list(cookie, { ...query, cursor });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe("cursor: Not a valid page cursor");
    }
  });
});
