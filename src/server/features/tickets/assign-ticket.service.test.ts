import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notifications, ticketEvents, tickets } from "#server/db/schema/index.ts";
import { listTechnicians } from "#server/features/users/user.service.ts";
import { contextAs, insertCast, insertTicket, insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { assignTicket, assignTicketToMe } from "./assign-ticket.service.ts";
import { getTicketActivity } from "./ticket-activity.service.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());
beforeEach(() => database.reset());

const as = (person: { id: string; role: string | null }) => contextAs(database.db, person);

const cast = () => insertCast(database.db, ["user", "tech", "tech2", "admin", "admin2"]);

const rowOf = async (id: string) => (await database.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
const notificationsOf = (ticketId: string) =>
  database.db
    .select({
      userId: notifications.userId,
      type: notifications.type,
      message: notifications.message,
      params: notifications.params,
    })
    .from(notifications)
    .where(eq(notifications.ticketId, ticketId));
const eventsOf = (ticketId: string) =>
  database.db.select().from(ticketEvents).where(eq(ticketEvents.ticketId, ticketId));

/**
 * Runs two changes of one ticket so that both read it before either writes. On PGlite (one connection) the
 * two interleave statement by statement, so they always do. On PostgreSQL each has a connection of its own,
 * and one that had to open its connection could start after the other committed: then the second change
 * rightly applies to what it saw, and there is no race to test. So the ticket's row is held here until
 * both wait for it.
 */
async function bothPastTheirChecks<T>(ticketId: string, start: () => Array<Promise<T>>) {
  if (database.kind !== "postgres") return Promise.allSettled(start());
  let changes: Array<Promise<T>> = [];
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select id from tickets where id = ${ticketId} for update`);
    changes = start();
    for (let waited = 0; ; waited += 10) {
      const result = await database.db.execute(
        sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if ((result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n >= changes.length) break;
      if (waited > 1_500) throw new Error("The two changes never waited for the ticket's row");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  return Promise.allSettled(changes);
}

describe("assignment by others", () => {
  it("an admin reassigns a ticket: the new technician and the creator are notified, not the actor", async () => {
    const { user, tech, tech2, admin } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    const assigned = await assignTicket(as(admin), ticket.id, { assigneeId: tech2.id });
    expect(assigned).toMatchObject({ assignedTo: tech2.id, assignedToName: "Tara", status: "In Progress" });
    const sent = await notificationsOf(ticket.id);
    const message = `Ada assigned ticket "Printer on floor 2 jams" to Tara`;
    const params = {
      kind: "reassigned",
      title: "Printer on floor 2 jams",
      actor: "Ada",
      assignee: "Tara",
      status: null,
    };
    expect(sent).toHaveLength(2);
    expect(sent).toEqual(
      expect.arrayContaining([
        { userId: tech2.id, type: "ticket_assigned", message, params },
        { userId: user.id, type: "ticket_assigned", message, params },
      ]),
    );
    const activity = await getTicketActivity(as(admin), ticket.id);
    expect(activity.events.at(-1)).toMatchObject({
      type: "reassigned",
      actorName: "Ada",
      fromAssigneeName: "Theo",
      toAssigneeName: "Tara",
      fromStatus: "In Progress",
      toStatus: "In Progress",
    });
  });

  it("assigning an Open ticket makes it In Progress, as Assign to Me does", async () => {
    const { user, tech, admin } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id });
    const assigned = await assignTicket(as(admin), ticket.id, { assigneeId: tech.id });
    expect(assigned).toMatchObject({ assignedTo: tech.id, status: "In Progress" });
    expect((await notificationsOf(ticket.id)).map((n) => n.message)).toContain(
      `Ada assigned ticket "Printer on floor 2 jams" to Theo; it is now In Progress`,
    );
  });

  it("back to the queue sets an In Progress ticket Open and unassigned, so Assign to Me can take it", async () => {
    const { user, tech, tech2, admin } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    const returned = await assignTicket(as(admin), ticket.id, { assigneeId: null });
    expect(returned).toMatchObject({ assignedTo: null, status: "Open" });
    expect(await notificationsOf(ticket.id)).toEqual([
      {
        userId: user.id,
        type: "ticket_assigned",
        message: `Ada returned ticket "Printer on floor 2 jams" to the queue; it is now Open`,
        params: { kind: "returned_to_queue", title: "Printer on floor 2 jams", actor: "Ada", status: "Open" },
      },
    ]);
    const activity = await getTicketActivity(as(admin), ticket.id);
    expect(activity.events.at(-1)).toMatchObject({
      type: "reassigned",
      toAssigneeName: null,
      toStatus: "Open",
    });
    await expect(assignTicketToMe(as(tech2), ticket.id)).resolves.toMatchObject({ assignedTo: tech2.id });
  });

  it("a technician hands their ticket to another technician and no longer sees it", async () => {
    const { user, tech, tech2 } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await assignTicket(as(tech), ticket.id, { assigneeId: tech2.id });
    expect((await rowOf(ticket.id)).assignedTo).toBe(tech2.id);
    expect((await notificationsOf(ticket.id)).map((n) => n.userId).sort()).toEqual(
      [tech2.id, user.id].sort(),
    );
    await expect(getTicketActivity(as(tech), ticket.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses a technician returning their ticket to the queue, and changes nothing", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await expect(assignTicket(as(tech), ticket.id, { assigneeId: null })).rejects.toMatchObject({
      code: "forbidden",
      message: "Only an administrator can return a ticket to the queue",
    });
    expect(await rowOf(ticket.id)).toMatchObject({ assignedTo: tech.id, status: "In Progress" });
    expect(await eventsOf(ticket.id)).toEqual([]);
  });

  it.each([
    ["an inactive technician", { role: "technician", status: "Inactive", name: "Ivy" }],
    ["a user", { role: "user", name: "Ivy" }],
    ["an administrator", { role: "admin", name: "Ivy" }],
  ] as const)("refuses %s as the assignee (422), and changes nothing", async (_, values) => {
    const { user, tech, admin } = await cast();
    const target = await insertUser(database.db, values);
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await expect(assignTicket(as(admin), ticket.id, { assigneeId: target.id })).rejects.toMatchObject({
      code: "rule_violation",
      message: "Ivy is not an active technician.",
    });
    expect((await rowOf(ticket.id)).assignedTo).toBe(tech.id);
    expect(await eventsOf(ticket.id)).toEqual([]);
    expect(await notificationsOf(ticket.id)).toEqual([]);
  });

  it("refuses an unknown person, a Closed ticket and an assignment that changes nothing", async () => {
    const { user, tech, admin } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await expect(assignTicket(as(admin), ticket.id, { assigneeId: "usr_nobody" })).rejects.toMatchObject({
      code: "rule_violation",
      message: "That person is not an active technician.",
    });
    await expect(assignTicket(as(admin), ticket.id, { assigneeId: tech.id })).rejects.toMatchObject({
      code: "rule_violation",
      message: "This ticket is already assigned to them.",
    });
    const closed = await insertTicket(database.db, { createdBy: user.id, status: "Closed" });
    await expect(assignTicket(as(admin), closed.id, { assigneeId: tech.id })).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await rowOf(closed.id)).toMatchObject({ assignedTo: null, status: "Closed" });
  });

  it("two admins reassigning at once: exactly one wins, one timeline entry", async () => {
    const { user, tech, tech2, admin, admin2 } = await cast();
    const tech3 = await insertUser(database.db, { role: "technician", name: "Tom" });
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    const results = await bothPastTheirChecks(ticket.id, () => [
      assignTicket(as(admin), ticket.id, { assigneeId: tech2.id }),
      assignTicket(as(admin2), ticket.id, { assigneeId: tech3.id }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<{ assignedTo: string; assignedToName: string }>).value;
    expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({
      code: "conflict",
      message: `This ticket was just assigned to ${winner.assignedToName}.`,
    });
    expect((await rowOf(ticket.id)).assignedTo).toBe(winner.assignedTo);
    expect((await eventsOf(ticket.id)).filter((e) => e.type === "reassigned")).toHaveLength(1);
  });
});

describe("the technicians list", () => {
  it("names active technicians only, without e-mails, to staff only", async () => {
    const { user, tech, tech2, admin } = await cast();
    await insertUser(database.db, { role: "technician", status: "Inactive", name: "Ivy" });
    expect(await listTechnicians(as(admin))).toEqual([
      { id: tech2.id, name: "Tara" },
      { id: tech.id, name: "Theo" },
    ]);
    await expect(listTechnicians(as(user))).rejects.toMatchObject({ code: "forbidden" });
  });
});
