import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TicketRow, UserRow } from "#server/db/schema/index.ts";
import { insertTeam, insertTicket, insertUser, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { can } from "#shared/permissions.ts";
import type { TeamQueues } from "#shared/teams/team-queues.schemas.ts";
import type { TicketPage } from "#shared/tickets/ticket.schemas.ts";

// Decision 073: the team tabs and the team filter narrow what a person may see and never widen it; each
// tab's count is its list's total.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

interface World {
  requester: UserRow;
  theo: UserRow;
  olga: UserRow;
  network: string;
  desk: string;
  other: string;
  tickets: TicketRow[];
  cookies: Record<"requester" | "theo" | "olga" | "admin" | "loner", string>;
}

/**
 * Theo is in Network and Desk, Olga in Network only; Other is nobody's here. Tickets in each team, in
 * none, unassigned, Theo's, Olga's, and one Theo raised that Olga holds.
 */
async function world(): Promise<World> {
  const { db } = t.database;
  const requester = await insertUser(db, { role: "user" });
  const theo = await insertUser(db, { role: "technician", name: "Theo" });
  const olga = await insertUser(db, { role: "technician", name: "Olga" });
  const admin = await insertUser(db, { role: "admin" });
  const loner = await insertUser(db, { role: "technician" });
  const network = (await insertTeam(db, { name: "Network", memberIds: [theo.id, olga.id] })).id;
  const desk = (await insertTeam(db, { name: "Desk", memberIds: [theo.id] })).id;
  const other = (await insertTeam(db, { name: "Other" })).id;
  const made: TicketRow[] = [];
  let minute = 0;
  const add = async (n: number, values: Partial<TicketRow>) => {
    for (let i = 0; i < n; i++) {
      minute += 1;
      made.push(
        await insertTicket(db, {
          createdBy: requester.id,
          createdAt: new Date(Date.UTC(2030, 0, 7, 9, minute)),
          ...values,
        }),
      );
    }
  };
  await add(3, { teamId: network });
  await add(1, { teamId: network, status: "Closed" });
  await add(2, { teamId: network, assignedTo: theo.id, status: "In Progress" });
  await add(1, { teamId: network, assignedTo: theo.id, status: "Resolved" });
  await add(2, { teamId: network, assignedTo: olga.id, status: "In Progress" });
  await add(1, { teamId: network, createdBy: theo.id, assignedTo: olga.id, status: "In Progress" });
  await add(1, { teamId: desk });
  await add(2, { teamId: other });
  await add(1, { teamId: other, assignedTo: olga.id, status: "In Progress" });
  await add(2, {});
  await add(1, { assignedTo: theo.id, status: "In Progress" });
  const cookies = {
    requester: await signIn(t.app, requester.email),
    theo: await signIn(t.app, theo.email),
    olga: await signIn(t.app, olga.email),
    admin: await signIn(t.app, admin.email),
    loner: await signIn(t.app, loner.email),
  };
  return { requester, theo, olga, network, desk, other, tickets: made, cookies };
}

const list = (cookie: string, query: string) =>
  request(t.app, { method: "GET", url: `/api/tickets?${query}`, cookie });

/** Every page of a list (two tickets a page, so that the cursor is used), and the first page's total. */
async function everyPage(cookie: string, query: string) {
  const ids: string[] = [];
  let total: TicketPage["total"] = null;
  let cursor: string | null = null;
  do {
    const response = await list(cookie, `${query}&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<TicketPage>();
    if (!cursor) total = page.total;
    ids.push(...page.items.map((item) => item.ticketId));
    cursor = page.nextCursor;
  } while (cursor);
  expect(new Set(ids).size).toBe(ids.length);
  return { ids, total: total! };
}

const queuesOf = async (cookie: string) => {
  const response = await request(t.app, { method: "GET", url: "/api/tickets/queues", cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TeamQueues>();
};

const idsWhere = (w: World, keep: (ticket: TicketRow) => boolean) =>
  w.tickets.filter(keep).map((ticket) => ticket.id);

describe("the team tabs", () => {
  it("show a technician their teams' unassigned tickets, and their teams' tickets they may see", async () => {
    const w = await world();
    const mine = [w.network, w.desk];
    const theo = { id: w.theo.id, role: "technician" as const };
    const unassigned = await everyPage(w.cookies.theo, "scope=team_unassigned");
    expect(unassigned.ids.sort()).toEqual(
      idsWhere(w, (ticket) => mine.includes(ticket.teamId ?? "") && ticket.assignedTo === null).sort(),
    );
    const all = await everyPage(w.cookies.theo, "scope=team");
    expect(all.ids.sort()).toEqual(
      idsWhere(w, (ticket) => mine.includes(ticket.teamId ?? "") && can.viewTicket(theo, ticket)).sort(),
    );
    // Olga's Network tickets stay hers: the tab never shows what Theo may not see.
    expect(all.ids).toHaveLength(9);
    expect(unassigned.total).toEqual({ count: 5, capped: false });
    expect(all.total).toEqual({ count: 9, capped: false });
    const queues = await queuesOf(w.cookies.theo);
    expect(queues.mine).toEqual({ unassigned: unassigned.total, all: all.total });
    expect(queues.teams.map((team) => [team.name, team.isMember])).toEqual([
      ["Desk", true],
      ["Network", true],
      ["Other", false],
    ]);
  });

  it("count a status within a tab, as the list does", async () => {
    const w = await world();
    const open = await everyPage(w.cookies.theo, "scope=team_unassigned&status=Open");
    expect(open.total).toEqual({ count: 4, capped: false });
    expect(open.ids).toHaveLength(4);
    const inProgress = await everyPage(w.cookies.olga, "scope=team&status=In%20Progress");
    expect(inProgress.total).toEqual({ count: 3, capped: false });
    expect(inProgress.ids).toHaveLength(3);
  });

  it("give each member their own view of one team", async () => {
    const w = await world();
    const olga = await queuesOf(w.cookies.olga);
    // Network's four unassigned; three of Olga's own and Theo's one that Olga holds.
    expect(olga.mine).toEqual({ unassigned: { count: 4, capped: false }, all: { count: 7, capped: false } });
    expect((await everyPage(w.cookies.olga, "scope=team")).ids).toHaveLength(7);
  });

  it("follow a ticket taken from the queue at once", async () => {
    const w = await world();
    const [queued] = w.tickets.filter((ticket) => ticket.teamId === w.network && ticket.status === "Open");
    const taken = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${queued!.id}/assign`,
      cookie: w.cookies.olga,
      payload: {},
    });
    expect(taken.statusCode, taken.body).toBe(200);
    const theo = await queuesOf(w.cookies.theo);
    expect(theo.mine).toEqual({ unassigned: { count: 4, capped: false }, all: { count: 8, capped: false } });
    expect((await everyPage(w.cookies.theo, "scope=team_unassigned")).ids).not.toContain(queued!.id);
  });

  it("are empty for a technician in no team, who gets no counts for them", async () => {
    const w = await world();
    expect((await queuesOf(w.cookies.loner)).mine).toBeNull();
    const none = await everyPage(w.cookies.loner, "scope=team_unassigned");
    expect(none).toEqual({ ids: [], total: { count: 0, capped: false } });
  });
});

describe("the team filter", () => {
  it("narrows a technician's list to one team without widening it", async () => {
    const w = await world();
    const theo = { id: w.theo.id, role: "technician" as const };
    for (const team of [w.network, w.other]) {
      const { ids, total } = await everyPage(w.cookies.theo, `team=${team}`);
      const expected = idsWhere(w, (ticket) => ticket.teamId === team && can.viewTicket(theo, ticket));
      expect(ids.sort()).toEqual(expected.sort());
      expect(total.count).toBe(expected.length);
    }
    // Other's ticket held by Olga: in the team, not Theo's to see.
    expect((await everyPage(w.cookies.theo, `team=${w.other}`)).ids).toHaveLength(2);
  });

  it("gives an administrator any team's tickets, counted from the team's counters", async () => {
    const w = await world();
    const network = await everyPage(w.cookies.admin, `team=${w.network}`);
    expect(network.ids.sort()).toEqual(idsWhere(w, (ticket) => ticket.teamId === w.network).sort());
    expect(network.total).toEqual({ count: 10, capped: false });
    const queued = await everyPage(w.cookies.admin, `scope=unassigned&team=${w.network}`);
    expect(queued.total).toEqual({ count: 4, capped: false });
    expect(queued.ids).toHaveLength(4);
    const closed = await everyPage(w.cookies.admin, `team=${w.network}&status=Closed`);
    expect(closed.total).toEqual({ count: 1, capped: false });
    // An administrator in no team has no team tabs: empty, like a technician's.
    expect((await everyPage(w.cookies.admin, "scope=team")).ids).toEqual([]);
    expect((await queuesOf(w.cookies.admin)).mine).toBeNull();
  });

  it("is refused to users, with the team tabs and the queues' counts", async () => {
    const w = await world();
    for (const query of [`team=${w.network}`, "scope=team", "scope=team_unassigned"]) {
      expect((await list(w.cookies.requester, query)).statusCode).toBe(403);
    }
    const queues = await request(t.app, {
      method: "GET",
      url: "/api/tickets/queues",
      cookie: w.cookies.requester,
    });
    expect(queues.statusCode).toBe(403);
    expect((await list(w.cookies.theo, "team=not%20an%20id")).statusCode).toBe(400);
  });

  it("filters the CSV export the same way", async () => {
    const w = await world();
    const csv = await request(t.app, {
      method: "GET",
      url: `/api/tickets/export.csv?scope=team_unassigned`,
      cookie: w.cookies.theo,
    });
    expect(csv.statusCode).toBe(200);
    // A header line and the five tickets.
    expect(csv.body.trim().split("\n")).toHaveLength(6);
  });
});
