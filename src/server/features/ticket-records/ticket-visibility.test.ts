import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tickets } from "#server/db/schema/index.ts";
import { listTicketsFor } from "#server/features/tickets/ticket.service.ts";
import { insertTicket, insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { type Actor, can } from "#shared/permissions.ts";
import { ticketStatuses } from "#shared/tickets/ticket.schemas.ts";
import { roles } from "#shared/users/roles.ts";
import { visibleTicketsWhere } from "./ticket-visibility.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

describe("ticket visibility parity", () => {
  it("visibleTicketsWhere (SQL) and can.viewTicket (shared) agree for every actor × ticket", async () => {
    const { db } = database;
    // Two people of each role (and without one): every actor is creator, assignee, or a stranger.
    const people = [];
    for (const role of [...roles, null]) {
      people.push(await insertUser(db, { role }), await insertUser(db, { role }));
    }
    const actors: Actor[] = people.map((p) => ({ id: p.id, role: p.role as Actor["role"] }));
    for (const creator of people) {
      for (const assignee of [null, ...people]) {
        for (const status of ticketStatuses) {
          await insertTicket(db, { createdBy: creator.id, assignedTo: assignee?.id ?? null, status });
        }
      }
    }
    const all = await db.select().from(tickets);
    expect(all.length).toBe(people.length * (people.length + 1) * ticketStatuses.length);

    for (const actor of actors) {
      const fromSql = (await db.select({ id: tickets.id }).from(tickets).where(visibleTicketsWhere(actor)))
        .map((r) => r.id)
        .sort();
      const fromRule = all
        .filter((ticket) => can.viewTicket(actor, ticket))
        .map((r) => r.id)
        .sort();
      expect(fromSql, `actor ${actor.role}`).toEqual(fromRule);

      // The lists read the same rule as disjoint branches merged page by page: every visible ticket
      // exactly once, in order.
      const listed: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listTicketsFor({ db, actor }, { scope: "visible", limit: 25, cursor });
        listed.push(...page.items.map((item) => item.ticketId));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect([...listed].sort(), `list of ${actor.role}`).toEqual(fromRule);
      expect(new Set(listed).size).toBe(listed.length);
    }
  });
});
