import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tickets } from "#server/db/schema/index.ts";
import {
  ticketFiltersWhere,
  ticketsInScopeWhere,
  visibilityBranches,
} from "#server/features/ticket-records/ticket-visibility.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Actor } from "#shared/permissions.ts";
import {
  isTeamScope,
  summaryScopes,
  type TicketPage,
  type TicketSummary,
  ticketCountCap,
  ticketScopes,
  ticketStatuses,
} from "#shared/tickets/ticket.schemas.ts";
import type { Role } from "#shared/users/roles.ts";
import { countTickets, countTicketsUpTo } from "./list/ticket-counts.queries.ts";

// The dashboard reads counters that triggers keep in each write's transaction (decision 039); after every
// kind of write, they must say exactly what counting the tickets says, for every person and scope.
let t: TestApp;
const people: Record<string, { user: { id: string }; cookie: string; role: Role | null }> = {};
beforeAll(async () => {
  t = await createTestApp();
  const roles: Array<[string, Role | null]> = [
    ["admin", "admin"],
    ["tech1", "technician"],
    ["tech2", "technician"],
    ["user1", "user"],
    ["user2", "user"],
    ["nobody", null],
  ];
  for (const [name, role] of roles)
    people[name] = { ...(await signedInAs(t.app, t.database.db, role)), role };
});
afterAll(() => t.close());

const db = () => t.database.db;
const call = (name: string, method: "POST" | "PUT" | "PATCH", url: string, payload: object) =>
  request(t.app, { method, url, cookie: people[name]!.cookie, payload });

/** Counters against a direct count, for every person × scope, through the API. */
async function expectCountersExact() {
  // The table itself: every count equals a recount of the tickets (summed over slots).
  const drift = await db().execute(sql`
    with kept as (select scope, status, sum(n)::int as n from ticket_counts group by 1, 2),
         recount as (select k.scope, k.status, sum(k.n)::int as n
                     from tickets t cross join lateral ticket_count_keys(t, 1) k group by 1, 2)
    select * from kept full join recount using (scope, status)
    where coalesce(kept.n, 0) <> coalesce(recount.n, 0)`);
  expect((drift as unknown as { rows: unknown[] }).rows).toEqual([]);
  for (const person of Object.values(people)) {
    const actor: Actor = { id: person.user.id, role: person.role };
    for (const scope of summaryScopes) {
      const response = await request(t.app, {
        method: "GET",
        url: `/api/tickets/summary?scope=${scope}`,
        cookie: person.cookie,
      });
      expect(response.statusCode).toBe(200);
      const direct = await countTickets(db(), ticketsInScopeWhere(actor, scope), actor.id, null);
      const { overdue: _o, dueSoon: _d, ...counted } = response.json<TicketSummary>();
      expect({ who: person.role, scope, ...counted }).toEqual({
        who: person.role,
        scope,
        ...direct,
        overdue: undefined,
        dueSoon: undefined,
      });
    }
    // The list's first page counts from the same counters when only a tab and a status narrow it: the
    // same number as counting the tickets the list would read.
    for (const scope of ticketScopes) {
      // The team tabs are staff's (decision 073): anyone else is refused, whatever the status.
      if (isTeamScope(scope) && person.role !== "technician" && person.role !== "admin") {
        const refused = await request(t.app, {
          method: "GET",
          url: `/api/tickets?scope=${scope}&limit=1`,
          cookie: person.cookie,
        });
        expect({ who: person.role, scope, status: refused.statusCode }).toEqual({
          who: person.role,
          scope,
          status: 403,
        });
        continue;
      }
      for (const status of [undefined, ...ticketStatuses]) {
        const response = await request(t.app, {
          method: "GET",
          url: `/api/tickets?scope=${scope}${status ? `&status=${encodeURIComponent(status)}` : ""}&limit=1`,
          cookie: person.cookie,
        });
        expect(response.statusCode).toBe(200);
        const direct = await countTicketsUpTo(db(), {
          branches: visibilityBranches(actor),
          filters: ticketFiltersWhere(actor, { scope, status }),
          cap: ticketCountCap,
        });
        expect({ who: person.role, scope, status, total: response.json<TicketPage>().total }).toEqual({
          who: person.role,
          scope,
          status,
          total: direct,
        });
      }
    }
  }
}

const ticketInput = (title: string) => ({
  title,
  description: "Counted",
  category: "Hardware",
  priority: "Medium",
  department: "IT",
  floor: "1",
  officeNumber: "101",
});

describe("dashboard counters", () => {
  const created: string[] = [];

  it("count what is created, by anyone, through the API or straight into the table", async () => {
    for (const name of ["user1", "user2", "user1", "user2", "user1"]) {
      const response = await call(name, "POST", "/api/tickets", ticketInput(`By ${name}`));
      expect(response.statusCode).toBe(201);
      created.push(response.json<{ ticketId: string }>().ticketId);
    }
    const { tech1, tech2, user1 } = people;
    await insertTicket(db(), {
      createdBy: user1!.user.id,
      assignedTo: tech1!.user.id,
      status: "In Progress",
    });
    await insertTicket(db(), {
      createdBy: tech2!.user.id,
      assignedTo: tech2!.user.id,
      status: "In Progress",
    });
    await insertTicket(db(), { createdBy: tech1!.user.id, assignedTo: tech2!.user.id, status: "Resolved" });
    await expectCountersExact();
  });

  it("follow assignments, status changes and a resolver", async () => {
    const [a, b, c, d] = created;
    expect((await call("tech1", "POST", `/api/tickets/${a}/assign`, {})).statusCode).toBe(200);
    expect(
      (await call("admin", "PUT", `/api/tickets/${b}/assignee`, { assigneeId: people.tech2!.user.id }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call("tech1", "PATCH", `/api/tickets/${a}/status`, { status: "Resolved" })).statusCode,
    ).toBe(200);
    expect((await call("tech2", "PATCH", `/api/tickets/${b}/status`, { status: "Closed" })).statusCode).toBe(
      200,
    );
    expect(
      (await call("admin", "PUT", `/api/tickets/${c}/assignee`, { assigneeId: people.tech1!.user.id }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call("admin", "PUT", `/api/tickets/${d}/assignee`, { assigneeId: people.tech1!.user.id }))
        .statusCode,
    ).toBe(200);
    expect((await call("admin", "PUT", `/api/tickets/${d}/assignee`, { assigneeId: null })).statusCode).toBe(
      200,
    );
    await expectCountersExact();
  });

  it("follow bulk actions", async () => {
    const open = await db().select({ id: tickets.id }).from(tickets).where(eq(tickets.status, "Open"));
    const ids = open.map((row) => row.id);
    expect(ids.length).toBeGreaterThan(1);
    const assigned = await call("tech2", "POST", "/api/tickets/bulk", {
      ticketIds: ids,
      action: { kind: "assignToMe" },
    });
    expect(assigned.statusCode).toBe(200);
    await expectCountersExact();
    const resolved = await call("tech2", "POST", "/api/tickets/bulk", {
      ticketIds: ids,
      action: { kind: "status", status: "Resolved" },
    });
    expect(resolved.statusCode).toBe(200);
    const queued = await call("admin", "POST", "/api/tickets/bulk", {
      ticketIds: ids.slice(0, 2),
      action: { kind: "assign", assigneeId: null },
    });
    expect(queued.statusCode).toBe(200);
    await expectCountersExact();
  });

  it("follow updates and deletes made in SQL, several rows a statement", async () => {
    await db()
      .update(tickets)
      .set({ createdBy: people.user2!.user.id })
      .where(eq(tickets.createdBy, people.user1!.user.id));
    await expectCountersExact();
    const some = (await db().select({ id: tickets.id }).from(tickets)).slice(0, 3).map((row) => row.id);
    await db().delete(tickets).where(inArray(tickets.id, some));
    await expectCountersExact();
  });

  it("stay exact under concurrent writes to the same counts", async () => {
    const writes = Array.from({ length: 12 }, (_, i) =>
      call(i % 2 ? "user1" : "user2", "POST", "/api/tickets", ticketInput(`Concurrent ${i}`)),
    );
    for (const response of await Promise.all(writes)) expect(response.statusCode).toBe(201);
    await expectCountersExact();
  });
});
