import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "#server/db/client.ts";
import { teams, ticketEvents, tickets } from "#server/db/schema/index.ts";
import { createTicket } from "#server/features/tickets/ticket.service.ts";
import { contextAs, insertTeam, insertTicket, insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import type { TeamAssignmentMode } from "#shared/teams/team-assignment.ts";

// Decision 073: two app instances, each with a pool of its own on one PostgreSQL, create tickets for one
// team at the same moment. The team's row lock makes them take turns on its round robin: each member gets
// the share the turn promises, no ticket is given twice or left out, and nothing deadlocks (every creation
// answers). On PGlite (one connection) the two share it; CI runs this on PostgreSQL.

let database: TestDatabase;
let second: Database | null = null;
beforeAll(async () => {
  database = await createTestDatabase();
  second = database.url ? createDatabase({ databaseUrl: database.url }) : null;
});
afterAll(async () => {
  await second?.close();
  await database.destroy();
});

const ticketInput = {
  title: "Laptop will not boot",
  description: "Black screen.",
  category: "Hardware",
  priority: "High",
  department: "Sales",
  floor: "2",
  officeNumber: "204",
} as const;

async function raceFor(assignment: TeamAssignmentMode, perInstance: number, atOnce: number) {
  const db = database.db;
  const requester = await insertUser(db, { role: "user" });
  const members = [
    await insertUser(db, { role: "technician" }),
    await insertUser(db, { role: "technician" }),
    await insertUser(db, { role: "technician" }),
  ];
  const team = await insertTeam(db, { assignment, memberIds: members.map((member) => member.id) });
  const instances = [db, second?.db ?? db];
  // Each instance sends `atOnce` creations at a time, both instances at the same moment.
  const results = await Promise.allSettled(
    instances.map(async (instanceDb) => {
      const ctx = contextAs(instanceDb, requester);
      const created: string[] = [];
      for (let sent = 0; sent < perInstance; sent += atOnce) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(atOnce, perInstance - sent) }, () =>
            createTicket(ctx, ticketInput, { teamId: team.id }),
          ),
        );
        created.push(...batch.map((ticket) => ticket.ticketId));
      }
      return created;
    }),
  );
  const failures = results.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
  expect(failures).toEqual([]);
  const rows = await db
    .select({ id: tickets.id, assignedTo: tickets.assignedTo })
    .from(tickets)
    .where(eq(tickets.teamId, team.id));
  const perMember = new Map(members.map((member) => [member.id, 0]));
  for (const row of rows)
    perMember.set(row.assignedTo ?? "nobody", (perMember.get(row.assignedTo ?? "nobody") ?? 0) + 1);
  const given = await db.execute(
    sql`select ticket_id, count(*)::int as n from ${ticketEvents} where type = 'auto_assigned' and ticket_id in (select id from tickets where team_id = ${team.id}) group by ticket_id`,
  );
  const timesGiven = (given as unknown as { rows: Array<{ n: number }> }).rows.map((row) => Number(row.n));
  return { rows, perMember, timesGiven, members, team };
}

describe("auto-assignment on two instances at once", () => {
  it("round robin: 30 tickets from two instances, 10 to each of three members, each given once", async () => {
    const { rows, perMember, timesGiven, members, team } = await raceFor("round_robin", 15, 5);
    expect(rows).toHaveLength(30);
    expect([...perMember.values()]).toEqual([10, 10, 10]);
    expect(perMember.has("nobody")).toBe(false);
    expect(timesGiven).toHaveLength(30);
    expect(new Set(timesGiven)).toEqual(new Set([1]));
    // The turn went on from where the last creation left it: the next is whoever follows it.
    const [row] = await database.db.select().from(teams).where(eq(teams.id, team.id));
    expect(members.map((member) => member.id)).toContain(row!.lastAssignedTo);
  });

  it("least open: 30 tickets from two instances spread evenly, each counted after the one before", async () => {
    const { perMember, timesGiven } = await raceFor("least_open", 15, 5);
    expect([...perMember.values()]).toEqual([10, 10, 10]);
    expect(timesGiven).toHaveLength(30);
    expect(new Set(timesGiven)).toEqual(new Set([1]));
  });

  it("least open counts what the members already hold", async () => {
    const db = database.db;
    const requester = await insertUser(db, { role: "user" });
    const busy = await insertUser(db, { role: "technician" });
    const idle = await insertUser(db, { role: "technician" });
    for (let i = 0; i < 6; i++)
      await insertTicket(db, { createdBy: requester.id, assignedTo: busy.id, status: "In Progress" });
    const team = await insertTeam(db, { assignment: "least_open", memberIds: [busy.id, idle.id] });
    const instances = [db, second?.db ?? db];
    await Promise.all(
      instances.map((instanceDb) =>
        Promise.all(
          Array.from({ length: 4 }, () =>
            createTicket(contextAs(instanceDb, requester), ticketInput, { teamId: team.id }),
          ),
        ),
      ),
    );
    const rows = await db
      .select({ assignedTo: tickets.assignedTo })
      .from(tickets)
      .where(eq(tickets.teamId, team.id));
    // 8 new tickets: the idle member catches up to six first, then they alternate: 7 and 7.
    expect(rows.filter((row) => row.assignedTo === idle.id)).toHaveLength(7);
    expect(rows.filter((row) => row.assignedTo === busy.id)).toHaveLength(1);
  });
});
