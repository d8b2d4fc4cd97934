import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notifications, ticketEvents, tickets } from "#server/db/schema/index.ts";
import { contextAs, insertCast, insertTicket } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { changeTicketsInBulk } from "./bulk-tickets.service.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());
beforeEach(() => database.reset());

const as = (person: { id: string; role: string | null }) => contextAs(database.db, person);

const cast = () => insertCast(database.db, ["user", "tech", "tech2", "admin"]);

const rowsOf = (ids: string[]) =>
  database.db.select().from(tickets).where(inArray(tickets.id, ids)).orderBy(tickets.id);
const rowOf = async (id: string) => (await database.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
const eventsOf = (ticketId: string) =>
  database.db.select().from(ticketEvents).where(eq(ticketEvents.ticketId, ticketId));
const notificationsOf = (ticketId: string) =>
  database.db.select().from(notifications).where(eq(notifications.ticketId, ticketId));

describe("bulk status change", () => {
  it("changes those it may and says, with the single action's message, why the others did not", async () => {
    const { user, tech, tech2 } = await cast();
    const mine = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    const queued = await insertTicket(database.db, { createdBy: user.id });
    const closed = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "Closed",
    });
    const resolved = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "Resolved",
    });
    const hidden = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech2.id,
      status: "In Progress",
    });
    const ids = [mine.id, queued.id, closed.id, resolved.id, hidden.id];

    const result = await changeTicketsInBulk(as(tech), {
      ticketIds: ids,
      action: { kind: "status", status: "Resolved" },
    });

    expect(result.changed).toEqual([mine.id, queued.id]);
    expect(result.refused).toEqual([
      { ticketId: closed.id, message: "This ticket is closed; its status can no longer change." },
      { ticketId: resolved.id, message: "This ticket is already Resolved." },
      // Another technician's ticket is "not found", exactly as the single action answers.
      { ticketId: hidden.id, message: `Ticket ${hidden.id} not found` },
    ]);
    const rows = new Map((await rowsOf(ids)).map((row) => [row.id, row]));
    expect(rows.get(mine.id)?.status).toBe("Resolved");
    expect(rows.get(queued.id)?.status).toBe("Resolved");
    expect(rows.get(closed.id)?.status).toBe("Closed");
    expect(rows.get(hidden.id)).toMatchObject({ status: "In Progress", updatedAt: hidden.updatedAt });
    // Timeline and notifications exactly as for the single action.
    expect((await eventsOf(mine.id)).map((event) => [event.type, event.fromStatus, event.toStatus])).toEqual([
      ["status_changed", "In Progress", "Resolved"],
    ]);
    expect((await notificationsOf(mine.id)).map((n) => [n.userId, n.type])).toEqual([
      [user.id, "ticket_status"],
    ]);
    expect(await eventsOf(hidden.id)).toEqual([]);
    expect(await notificationsOf(hidden.id)).toEqual([]);
  });

  it("a ticket id that does not exist reads like one the caller may not see", async () => {
    const { tech } = await cast();
    const ghost = "TKT0000000000000000";
    const result = await changeTicketsInBulk(as(tech), {
      ticketIds: [ghost],
      action: { kind: "status", status: "Closed" },
    });
    expect(result).toEqual({
      changed: [],
      refused: [{ ticketId: ghost, message: `Ticket ${ghost} not found` }],
    });
  });

  it("refuses a user outright and changes nothing", async () => {
    const { user } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id });
    await expect(
      changeTicketsInBulk(as(user), { ticketIds: [ticket.id], action: { kind: "status", status: "Closed" } }),
    ).rejects.toMatchObject({ code: "forbidden" });
    expect((await rowOf(ticket.id)).status).toBe("Open");
  });
});

describe("bulk priority and assignment", () => {
  it("priority: an edit event per changed ticket; one already at that priority is refused", async () => {
    const { user, admin } = await cast();
    const low = await insertTicket(database.db, { createdBy: user.id, priority: "Low" });
    const high = await insertTicket(database.db, { createdBy: user.id, priority: "High" });
    const result = await changeTicketsInBulk(as(admin), {
      ticketIds: [low.id, high.id],
      action: { kind: "priority", priority: "High" },
    });
    expect(result).toEqual({
      changed: [low.id],
      refused: [{ ticketId: high.id, message: "This ticket is already High." }],
    });
    expect((await eventsOf(low.id))[0]?.changes).toEqual([{ field: "priority", from: "Low", to: "High" }]);
    expect(await eventsOf(high.id)).toEqual([]);
  });

  it("assign to me: the queue's Open tickets become mine; one already taken is refused", async () => {
    const { user, tech } = await cast();
    const a = await insertTicket(database.db, { createdBy: user.id });
    const b = await insertTicket(database.db, { createdBy: user.id });
    const taken = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    const result = await changeTicketsInBulk(as(tech), {
      ticketIds: [a.id, b.id, taken.id],
      action: { kind: "assignToMe" },
    });
    expect(result.changed).toEqual([a.id, b.id]);
    expect(result.refused).toEqual([{ ticketId: taken.id, message: "This ticket is already assigned." }]);
    expect(await rowOf(a.id)).toMatchObject({ assignedTo: tech.id, status: "In Progress" });
  });

  it("an admin assigns to a technician and returns to the queue, by the single action's rules", async () => {
    const { user, tech, tech2, admin } = await cast();
    const a = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    const b = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech2.id,
      status: "In Progress",
    });
    const given = await changeTicketsInBulk(as(admin), {
      ticketIds: [a.id, b.id],
      action: { kind: "assign", assigneeId: tech2.id },
    });
    expect(given).toEqual({
      changed: [a.id],
      refused: [{ ticketId: b.id, message: "This ticket is already assigned to them." }],
    });
    const queued = await changeTicketsInBulk(as(admin), {
      ticketIds: [a.id, b.id],
      action: { kind: "assign", assigneeId: null },
    });
    expect(queued.changed).toEqual([a.id, b.id]);
    expect((await rowsOf([a.id, b.id])).map((row) => [row.assignedTo, row.status])).toEqual([
      [null, "Open"],
      [null, "Open"],
    ]);
  });

  it("a technician may not return tickets to the queue: each is refused and stays theirs", async () => {
    const { user, tech } = await cast();
    const a = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    const result = await changeTicketsInBulk(as(tech), {
      ticketIds: [a.id],
      action: { kind: "assign", assigneeId: null },
    });
    expect(result.refused).toEqual([
      { ticketId: a.id, message: "Only an administrator can return a ticket to the queue" },
    ]);
    expect((await rowOf(a.id)).assignedTo).toBe(tech.id);
  });
});
