import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notificationAudienceMembers, teamAudience, teamMembers, users } from "#server/db/schema/index.ts";
import { insertTeam, insertTicket, insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { insertAudienceNotification } from "./notification.queries.ts";
import { findAudienceMembersAmong } from "./notification-audience.queries.ts";
import { pruneReadNotifications } from "./notification-retention.ts";

// A team's notifications are addressed to the team as an audience (decisions 068, 069): the database keeps
// who is in it, whatever writes a person or a membership.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(() => database.reset());

const audiencesOf = async (userId: string) =>
  (
    await database.db
      .select({ audience: notificationAudienceMembers.audience })
      .from(notificationAudienceMembers)
      .where(eq(notificationAudienceMembers.userId, userId))
  )
    .map((row) => row.audience)
    .sort();

async function notifyTeam(teamId: string, createdBy: string) {
  const ticket = await insertTicket(database.db, { createdBy, teamId });
  const { id } = await insertAudienceNotification(database.db, {
    audience: teamAudience(teamId),
    type: "new_ticket",
    message: "New ticket",
    params: { kind: "ticket_created", title: ticket.title, department: "General", floor: "2" },
    ticketId: ticket.id,
    eventId: null,
    createdAt: new Date(),
    exceptUserId: null,
    mailType: null,
  });
  return Number(id);
}

describe("a team's audience", () => {
  it("holds the team's active technicians, kept as memberships, roles and statuses change", async () => {
    const theo = await insertUser(database.db, { role: "technician" });
    const ada = await insertUser(database.db, { role: "admin" });
    const team = await insertTeam(database.db, { name: "Network", memberIds: [theo.id, ada.id] });
    const audience = teamAudience(team.id);
    expect(await audiencesOf(theo.id)).toEqual([audience, "technicians"].sort());
    // An admin in a team is not one of its technicians' audience (admins have their own rows).
    expect(await audiencesOf(ada.id)).toEqual([]);

    await database.db.update(users).set({ status: "Inactive" }).where(eq(users.id, theo.id));
    expect(await audiencesOf(theo.id)).toEqual([]);
    await database.db.update(users).set({ status: "Active" }).where(eq(users.id, theo.id));
    expect(await audiencesOf(theo.id)).toEqual([audience, "technicians"].sort());

    await database.db
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, theo.id)));
    expect(await audiencesOf(theo.id)).toEqual(["technicians"]);
  });

  it("reaches only the members who had joined when it was sent", async () => {
    const requester = await insertUser(database.db, { role: "user" });
    const theo = await insertUser(database.db, { role: "technician" });
    const tara = await insertUser(database.db, { role: "technician" });
    const outsider = await insertUser(database.db, { role: "technician" });
    const team = await insertTeam(database.db, { memberIds: [theo.id] });
    const first = await notifyTeam(team.id, requester.id);
    await database.db.insert(teamMembers).values({ teamId: team.id, userId: tara.id });
    const second = await notifyTeam(team.id, requester.id);

    const among = [theo.id, tara.id, outsider.id];
    expect(await findAudienceMembersAmong(database.db, teamAudience(team.id), first, among)).toEqual([
      theo.id,
    ]);
    expect(
      (await findAudienceMembersAmong(database.db, teamAudience(team.id), second, among)).sort(),
    ).toEqual([theo.id, tara.id].sort());
  });

  it("is pruned when no one is in it any more, once past the retention", async () => {
    const requester = await insertUser(database.db, { role: "user" });
    const theo = await insertUser(database.db, { role: "technician" });
    const team = await insertTeam(database.db, { memberIds: [theo.id] });
    await notifyTeam(team.id, requester.id);
    const later = new Date(Date.now() + 40 * 24 * 60 * 60_000);
    // Theo has not read it: kept.
    expect(await pruneReadNotifications(database.db, { olderThanDays: 30, now: later })).toBe(0);
    await database.db.delete(teamMembers).where(eq(teamMembers.userId, theo.id));
    expect(await pruneReadNotifications(database.db, { olderThanDays: 30, now: later })).toBe(1);
  });
});
