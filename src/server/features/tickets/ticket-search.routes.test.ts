import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type TicketRow, tickets } from "#server/db/schema/index.ts";
import { allTickets, ticketSearchWhere } from "#server/features/ticket-records/ticket-visibility.ts";
import { newTicketId } from "#server/ids.ts";
import { insertUser, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { type Actor, can } from "#shared/permissions.ts";
import {
  type TicketPage,
  type TicketPriority,
  type TicketStatus,
  ticketPriorities,
  ticketStatuses,
} from "#shared/tickets/ticket.schemas.ts";
import { countSearchMatchesUpTo, searchWindowPages } from "./list/branch-page.queries.ts";

// An admin's search reads a window of the newest tickets, maybe four windows more, then the search index
// past them (decision 067). Pages of 2 read 3 rows: the window is 40 × 3 = 120 rows and the next part 480,
// so with 700 tickets each word below takes another way through them.
const pageSize = 2;
const windowRows = searchWindowPages * (pageSize + 1);
const ticketCount = 700;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const base = Date.UTC(2030, 0, 7, 9, 0);
const minutesBefore = (minutes: number) => new Date(base - minutes * 60_000);

/**
 * The words, by where the tickets that hold them are: `printer` one in eight, all through the list (its page
 * comes from the window); `zebra` in six, none among the newest 120 (found by the index); `modem` in two of
 * the newest and one in ten from the 200th (the window, then reading on); `fax` in two of the newest, then
 * none until the 600th (the window, reading on in vain, then the index).
 */
function wordsOf(i: number): string[] {
  return [
    ...(i % 8 === 0 ? ["printer"] : []),
    ...([150, 151, 260, 261, 390, 399].includes(i) ? ["zebra"] : []),
    ...(i === 3 || i === 4 || (i >= 200 && i % 10 === 0) ? ["modem"] : []),
    ...(i === 5 || i === 6 || (i >= 600 && i % 9 === 0) ? ["fax"] : []),
  ];
}

async function seed() {
  const { db } = t.database;
  const requester = await insertUser(db, { role: "user" });
  const otherUser = await insertUser(db, { role: "user" });
  const tech = await insertUser(db, { role: "technician" });
  const otherTech = await insertUser(db, { role: "technician" });
  const admin = await insertUser(db, { role: "admin" });
  const rows = Array.from({ length: ticketCount }, (_, i) => {
    // Two tickets share each creation minute (the id breaks the tie); i = 0 is the newest.
    const createdAt = minutesBefore(Math.floor(i / 2) + 60);
    const branch = i % 3;
    return {
      id: newTicketId(createdAt.getTime()),
      title: `Ticket ${i} ${wordsOf(i).join(" ")}`.trim(),
      description: "Something does not work.",
      // Assigned to the technician, unassigned, or raised by the requester and assigned to another.
      createdBy: branch === 1 ? otherUser.id : requester.id,
      assignedTo: branch === 0 ? tech.id : branch === 1 ? null : otherTech.id,
      status: (branch === 1 ? "Open" : ticketStatuses[i % 4]) as TicketStatus,
      priority: ticketPriorities[i % 3] as TicketPriority,
      createdAt,
      updatedAt: minutesBefore((i * 7) % ticketCount),
      slaDueAt: i % 5 === 0 ? minutesBefore(-((i * 11) % 97)) : null,
    };
  });
  const inserted = await db.insert(tickets).values(rows).returning();
  return { requester, otherUser, tech, admin, rows: inserted };
}

type Order =
  | { sort: "created" | "updated" | "priority" | "status"; dir: "asc" | "desc" }
  | { sort: "due"; dir: "asc" };

/** The order the list promises, computed here (decision 034; due: earliest first, the rest by id). */
function inOrder(rows: TicketRow[], order: Order): string[] {
  const byId = (a: TicketRow, b: TicketRow) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  if (order.sort === "due") {
    const due = (row: TicketRow) => row.slaDueAt?.getTime() ?? Number.POSITIVE_INFINITY;
    return [...rows].sort((a, b) => due(a) - due(b) || byId(a, b)).map((row) => row.id);
  }
  const { sort, dir } = order;
  const rank = (row: TicketRow) =>
    sort === "priority"
      ? ticketPriorities.indexOf(row.priority)
      : sort === "status"
        ? ticketStatuses.indexOf(row.status)
        : 0;
  const time = (row: TicketRow) => (sort === "updated" ? row.updatedAt : row.createdAt).getTime();
  const sign = dir === "asc" ? 1 : -1;
  return [...rows]
    .sort((a, b) => sign * (rank(a) - rank(b) || time(a) - time(b) || byId(a, b)))
    .map((row) => row.id);
}

/** Every page, following the cursors: the ids in the order read, and the first page's count. */
async function readAll(cookie: string, query: Record<string, string>, size = pageSize) {
  const ids: string[] = [];
  let total: TicketPage["total"] = null;
  let cursor: string | null = null;
  let pages = 0;
  do {
    const params = new URLSearchParams({ ...query, limit: String(size), ...(cursor ? { cursor } : {}) });
    const response = await request(t.app, { method: "GET", url: `/api/tickets?${params}`, cookie });
    expect(response.statusCode, response.body).toBe(200);
    const page: TicketPage = response.json();
    if (pages === 0) total = page.total;
    ids.push(...page.items.map((ticket) => ticket.ticketId));
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor && pages < 500);
  return { ids, total };
}

const holds = (word: string) => (row: TicketRow) => row.title.split(" ").includes(word);

describe("GET /api/tickets?q= at any depth", () => {
  it("seeds every branch larger than the window, so that every part of a search is read", async () => {
    const { rows, tech, requester } = await seed();
    expect(rows.filter((row) => row.assignedTo === tech.id).length).toBeGreaterThan(windowRows);
    expect(rows.filter((row) => row.assignedTo === null).length).toBeGreaterThan(windowRows);
    expect(rows.filter((row) => row.createdBy === requester.id).length).toBeGreaterThan(windowRows);
    expect(rows.slice(0, windowRows).some(holds("zebra"))).toBe(false);
    expect(rows.slice(windowRows, 5 * windowRows).some(holds("fax"))).toBe(false);
    expect(rows.slice(5 * windowRows).some(holds("fax"))).toBe(true);
  });

  it.each(["printer", "zebra", "modem", "fax"])(
    "'%s', newest first, for each role: every visible match once, in order, across pages",
    async (word) => {
      const { rows, requester, tech, admin } = await seed();
      for (const person of [admin, tech, requester]) {
        const actor = { id: person.id, role: person.role } as Actor;
        const expected = inOrder(rows.filter((row) => can.viewTicket(actor, row)).filter(holds(word)), {
          sort: "created",
          dir: "desc",
        });
        expect(expected.length, `${person.role} sees some '${word}'`).toBeGreaterThan(pageSize);
        const { ids, total } = await readAll(await signIn(t.app, person.email), { q: word });
        expect(ids, `${person.role}: '${word}'`).toEqual(expected);
        expect(total).toEqual({ count: expected.length, capped: false });
      }
    },
  );

  it("never shows a user another's ticket, whatever the word matches", async () => {
    const { rows, requester } = await seed();
    const { ids } = await readAll(await signIn(t.app, requester.email), { q: "ticket" }, 25);
    const mine = rows.filter((row) => row.createdBy === requester.id || row.assignedTo === requester.id);
    expect(ids).toEqual(inOrder(mine, { sort: "created", dir: "desc" }));
  });

  it.each<{ word: string; filter: Record<string, string> }>([
    { word: "printer", filter: { status: "Open" } },
    { word: "zebra", filter: { priority: "Low" } },
    { word: "modem", filter: { scope: "mine" } },
    { word: "modem", filter: { category: "Hardware", priority: "High" } },
  ])("'$word' with $filter: the filtered matches, in order", async ({ word, filter }) => {
    const { rows, tech, admin } = await seed();
    for (const person of [admin, tech]) {
      const actor = { id: person.id, role: person.role } as Actor;
      const expected = inOrder(
        rows
          .filter((row) => can.viewTicket(actor, row))
          .filter(holds(word))
          .filter((row) =>
            Object.entries(filter).every(([key, value]) =>
              key === "scope" ? row.assignedTo === person.id : row[key as keyof TicketRow] === value,
            ),
          ),
        { sort: "created", dir: "desc" },
      );
      const { ids, total } = await readAll(await signIn(t.app, person.email), { q: word, ...filter });
      expect(ids, `${person.role}`).toEqual(expected);
      expect(total).toEqual({ count: expected.length, capped: false });
    }
  });

  it.each<Order>([
    { sort: "created", dir: "asc" },
    { sort: "updated", dir: "desc" },
    { sort: "priority", dir: "desc" },
    { sort: "status", dir: "asc" },
    { sort: "due", dir: "asc" },
  ])("in every order ($sort $dir): a common and a rare word", async (order) => {
    const { rows, tech, admin } = await seed();
    for (const person of [admin, tech]) {
      const actor = { id: person.id, role: person.role } as Actor;
      for (const word of ["printer", "zebra", "fax"]) {
        const expected = inOrder(rows.filter((row) => can.viewTicket(actor, row)).filter(holds(word)), order);
        const query: Record<string, string> =
          order.sort === "due" ? { sort: "due" } : { sort: order.sort, dir: order.dir };
        const { ids } = await readAll(await signIn(t.app, person.email), { q: word, ...query });
        expect(ids, `${person.role}: '${word}'`).toEqual(expected);
      }
    }
  });
});

describe("counting a search", () => {
  it.each(["printer", "zebra", "modem", "fax"])(
    "'%s': exact up to the cap, whichever way the matches are read, then capped",
    async (word) => {
      const { rows } = await seed();
      const matches = rows.filter(holds(word)).length;
      const search = ticketSearchWhere(word)!;
      // A cap of 2 reads as a page of 3 does: the same window, reading on, and index as the pages above.
      for (const cap of [1, 2, 5, matches - 1, matches, matches + 1]) {
        expect(
          await countSearchMatchesUpTo(t.database.db, { branches: [allTickets], search, cap }),
          `cap ${cap}`,
        ).toEqual({ count: Math.min(matches, cap), capped: matches > cap });
      }
    },
  );
});
