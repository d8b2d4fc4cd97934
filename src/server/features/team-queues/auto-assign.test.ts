import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notifications, teams, tickets, users } from "#server/db/schema/index.ts";
import { inTicketTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { createTicket } from "#server/features/tickets/ticket.service.ts";
import { getTicketActivity } from "#server/features/tickets/ticket-activity.service.ts";
import { contextAs, insertTeam, insertTicket, insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import type { TeamAssignmentMode } from "#shared/teams/team-assignment.ts";
import { autoAssignInTeam } from "./auto-assign.ts";

// Decision 073: a team gives each new ticket to a member, in turn or to the least busy, skipping whoever
// is away or inactive; recorded like a staff assignment, but no first response.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());
beforeEach(() => database.reset());

const ticketInput = {
  title: "VPN drops every hour",
  description: "Since the update.",
  category: "Network",
  priority: "Medium",
  department: "IT",
  floor: "3",
  officeNumber: "301",
} as const;

/** Three technicians whose ids sort as a, b, c: the team's turn order. */
async function teamOf(assignment: TeamAssignmentMode) {
  const requester = await insertUser(database.db, { role: "user", name: "Uma" });
  const [a, b, c] = [
    await insertUser(database.db, { id: "usr_team_a", role: "technician", name: "Ana" }),
    await insertUser(database.db, { id: "usr_team_b", role: "technician", name: "Ben" }),
    await insertUser(database.db, { id: "usr_team_c", role: "technician", name: "Cy" }),
  ];
  const team = await insertTeam(database.db, {
    name: "Network",
    assignment,
    memberIds: [c!.id, a!.id, b!.id],
  });
  const raise = async () =>
    (await createTicket(contextAs(database.db, requester), ticketInput, { teamId: team.id })).assignedTo;
  return { requester, a: a!, b: b!, c: c!, team, raise };
}

describe("auto-assignment in a team", () => {
  it("round robin gives the team's tickets to its members in turn, and goes round", async () => {
    const { a, b, c, team, raise } = await teamOf("round_robin");
    expect([await raise(), await raise(), await raise(), await raise()]).toEqual([a.id, b.id, c.id, a.id]);
    const [row] = await database.db.select().from(teams).where(eq(teams.id, team.id));
    expect(row!.lastAssignedTo).toBe(a.id);
  });

  it("skips members who are away or inactive, and takes them again once back", async () => {
    const { a, b, c, raise } = await teamOf("round_robin");
    await database.db.update(users).set({ awaySince: new Date() }).where(eq(users.id, b.id));
    await database.db.update(users).set({ status: "Inactive" }).where(eq(users.id, c.id));
    expect([await raise(), await raise()]).toEqual([a.id, a.id]);
    await database.db.update(users).set({ awaySince: null }).where(eq(users.id, b.id));
    expect(await raise()).toBe(b.id);
  });

  it("leaves the ticket in the team's queue when nobody may get it, or the team's mode is off", async () => {
    const off = await teamOf("off");
    expect(await off.raise()).toBeNull();
    await database.db.update(teams).set({ assignment: "round_robin" }).where(eq(teams.id, off.team.id));
    await database.db.update(users).set({ awaySince: new Date() }).where(eq(users.role, "technician"));
    expect(await off.raise()).toBeNull();
    const queued = await database.db.select().from(tickets).where(eq(tickets.teamId, off.team.id));
    expect(queued.map((ticket) => [ticket.assignedTo, ticket.status])).toEqual([
      [null, "Open"],
      [null, "Open"],
    ]);
  });

  it("least open gives the ticket to the member with the fewest Open and In Progress tickets", async () => {
    const { requester, a, b, c, raise } = await teamOf("least_open");
    const hold = (assignedTo: string, status: "Open" | "In Progress" | "Resolved", n: number) =>
      Promise.all(
        Array.from({ length: n }, () =>
          insertTicket(database.db, { createdBy: requester.id, assignedTo, status }),
        ),
      );
    await hold(a.id, "In Progress", 2);
    await hold(b.id, "In Progress", 1);
    await hold(b.id, "Resolved", 5); // done work does not count
    await hold(c.id, "Open", 1);
    // b and c hold one each: b first in turn; then c; then all three hold two: a is next in turn after c.
    expect([await raise(), await raise(), await raise()]).toEqual([b.id, c.id, a.id]);
  });

  it("records it like an assignment: timeline, assignee and creator told, In Progress, no first response", async () => {
    const { requester, a, raise } = await teamOf("round_robin");
    await raise();
    const [ticket] = await database.db.select().from(tickets);
    expect(ticket).toMatchObject({ assignedTo: a.id, status: "In Progress", firstRespondedAt: null });
    const activity = await getTicketActivity(contextAs(database.db, requester), ticket!.id);
    expect(activity.events.map((event) => event.type)).toEqual(["created", "auto_assigned"]);
    expect(activity.events[1]).toMatchObject({
      actorId: null,
      toAssigneeName: "Ana",
      teamName: "Network",
      assignmentMode: "round_robin",
      fromStatus: "Open",
      toStatus: "In Progress",
    });
    const told = await database.db
      .select({ userId: notifications.userId, type: notifications.type, message: notifications.message })
      .from(notifications)
      .where(eq(notifications.ticketId, ticket!.id));
    const message = `Ticket "VPN drops every hour" was assigned to Ana by the Network team's round robin; it is now In Progress`;
    expect(told.filter((row) => row.userId !== null)).toEqual(
      expect.arrayContaining([
        { userId: a.id, type: "ticket_assigned", message },
        { userId: requester.id, type: "ticket_assigned", message },
      ]),
    );
  });

  it("gives nothing to a ticket that already has an assignee, is Closed, or is in another team", async () => {
    const { requester, team } = await teamOf("round_robin");
    const other = await insertTeam(database.db, { name: "Desk" });
    const tech = await insertUser(database.db, { role: "technician" });
    const cases = [
      await insertTicket(database.db, { createdBy: requester.id, teamId: team.id, assignedTo: tech.id }),
      await insertTicket(database.db, { createdBy: requester.id, teamId: team.id, status: "Closed" }),
      await insertTicket(database.db, { createdBy: requester.id, teamId: other.id }),
    ];
    for (const ticket of cases) {
      const chosen = await inTicketTransaction({ db: database.db }, ticket.id, (tx, recordEvent) =>
        autoAssignInTeam(tx, recordEvent, { ticketId: ticket.id, teamId: team.id, now: new Date() }),
      );
      expect(chosen).toBeNull();
    }
  });
});
