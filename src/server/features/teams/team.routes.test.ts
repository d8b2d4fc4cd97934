import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  adminChanges,
  notifications,
  routingRules,
  teamAudience,
  teamMembers,
  teams,
  tickets,
  users,
} from "#server/db/schema/index.ts";
import { insertTicket, insertUser, signedInAs } from "#server/test/factories.ts";
import { tableSnapshotter } from "#server/test/table-snapshot.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Routing } from "#shared/teams/routing-rule.schemas.ts";
import type { Team, TeamList } from "#shared/teams/team.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";

// Decision 069: administrators manage teams; staff read them; a deleted team leaves its tickets working.

let t: TestApp;
type Person = Awaited<ReturnType<typeof signedInAs>>;
let user: Person;
let technician: Person;
let admin: Person;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.reset();
  await t.database.db.delete(adminChanges);
  user = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
});

const send = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, cookie: string, payload?: object) =>
  request(t.app, { method, url, cookie, ...(payload ? { payload } : {}) });

async function createTeam(payload: object): Promise<Team> {
  const response = await send("POST", "/api/teams", admin.cookie, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe("who may read and change teams", () => {
  it("lets staff read the teams, only admins change them, and refuses others without changing anything", async () => {
    const team = await createTeam({ name: "Network", memberIds: [technician.user.id] });
    expect((await send("GET", "/api/teams", technician.cookie)).json<TeamList>().items).toHaveLength(1);
    expect((await send("GET", "/api/teams", admin.cookie)).statusCode).toBe(200);
    expect((await send("GET", "/api/teams", user.cookie)).statusCode).toBe(403);
    expect((await request(t.app, { method: "GET", url: "/api/teams" })).statusCode).toBe(401);

    const snapshot = await tableSnapshotter(t.database.db);
    const before = await snapshot();
    for (const person of [user, technician]) {
      const create = await send("POST", "/api/teams", person.cookie, { name: "Desk" });
      expect(create.statusCode).toBe(403);
      expect(create.json()).toMatchObject({
        code: "forbidden",
        message: "Only administrators can manage teams.",
      });
      expect(
        (await send("PUT", `/api/teams/${team.id}`, person.cookie, { name: "Renamed" })).statusCode,
      ).toBe(403);
      expect((await send("DELETE", `/api/teams/${team.id}`, person.cookie)).statusCode).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe("creating and changing a team", () => {
  it("creates a team with members and a lead, lists it by name with its member count, and records it", async () => {
    const tara = await insertUser(t.database.db, { role: "technician", name: "Tara" });
    const team = await createTeam({
      name: "  Network ",
      description: "Wi-Fi, VPN and cabling",
      memberIds: [technician.user.id, tara.id, tara.id],
      leadId: tara.id,
    });
    expect(team).toMatchObject({
      name: "Network",
      description: "Wi-Fi, VPN and cabling",
      leadId: tara.id,
      leadName: "Tara",
      memberCount: 2,
      isDefault: false,
    });
    expect(team.members.map((member) => member.id).sort()).toEqual([technician.user.id, tara.id].sort());
    await createTeam({ name: "applications" });
    const list = (await send("GET", "/api/teams", technician.cookie)).json<TeamList>();
    expect(list.items.map((item) => [item.name, item.memberCount])).toEqual([
      ["applications", 0],
      ["Network", 2],
    ]);
    const history = await t.database.db.select().from(adminChanges);
    expect(history.map((change) => [change.area, change.summary]).sort()).toEqual([
      ["teams", "Added the team “Network”"],
      ["teams", "Added the team “applications”"],
    ]);
  });

  it("refuses a duplicate name in any case, a member who is not an active technician, and a lead who is not a member, changing nothing", async () => {
    const team = await createTeam({ name: "Network", memberIds: [technician.user.id] });
    const away = await insertUser(t.database.db, { role: "technician", status: "Inactive", name: "Ivy" });
    const snapshot = await tableSnapshotter(t.database.db);
    const before = await snapshot();
    const refusals: Array<[object, number, string]> = [
      [{ name: "NETWORK" }, 409, "There is already a team named “NETWORK”."],
      [{ name: "Desk", memberIds: [user.user.id] }, 422, `Members: ${user.user.name} is not a technician.`],
      [{ name: "Desk", memberIds: [admin.user.id] }, 422, `Members: ${admin.user.name} is not a technician.`],
      [{ name: "Desk", memberIds: [away.id] }, 422, "Members: Ivy is not an active technician."],
      [{ name: "Desk", memberIds: ["usr_nobody"] }, 400, "Members: there is no person 'usr_nobody'"],
      [
        { name: "Desk", memberIds: [technician.user.id], leadId: user.user.id },
        400,
        "leadId: The lead must be one of the team's members",
      ],
      [{ name: "" }, 400, "name: Name is required"],
      [{ name: "x".repeat(61) }, 400, "name: Name must be at most 60 characters"],
    ];
    for (const [payload, status, message] of refusals) {
      const response = await send("POST", "/api/teams", admin.cookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json<{ message: string }>().message).toContain(message);
    }
    expect(await snapshot()).toEqual(before);
    const rename = await send("PUT", `/api/teams/${team.id}`, admin.cookie, {
      name: "network",
      memberIds: [technician.user.id],
    });
    expect(rename.statusCode).toBe(200);
    const other = await createTeam({ name: "Desk" });
    const clash = await send("PUT", `/api/teams/${other.id}`, admin.cookie, { name: "NetWork" });
    expect(clash.statusCode).toBe(409);
    const leadOutside = await send("PUT", `/api/teams/${team.id}`, admin.cookie, {
      name: "network",
      memberIds: [],
      leadId: technician.user.id,
    });
    expect(leadOutside.statusCode).toBe(400);
    const [stored] = await t.database.db.select().from(teams).where(eq(teams.id, team.id));
    expect(stored).toMatchObject({ name: "network" });
    expect(
      await t.database.db.select().from(teamMembers).where(eq(teamMembers.teamId, team.id)),
    ).toHaveLength(1);
  });

  it("replaces name, description, members and lead; a member deactivated since may stay", async () => {
    const tara = await insertUser(t.database.db, { role: "technician", name: "Tara" });
    const team = await createTeam({ name: "Network", memberIds: [technician.user.id, tara.id] });
    await t.database.db.update(users).set({ status: "Inactive" }).where(eq(users.id, tara.id));
    const response = await send("PUT", `/api/teams/${team.id}`, admin.cookie, {
      name: "Networks",
      description: "All of it",
      memberIds: [tara.id],
      leadId: tara.id,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Team>()).toMatchObject({
      name: "Networks",
      description: "All of it",
      leadName: "Tara",
      members: [{ id: tara.id, name: "Tara", isActiveTechnician: false }],
    });
    const unknown = await send("PUT", "/api/teams/team_0000000000", admin.cookie, { name: "Ghost" });
    expect(unknown.statusCode).toBe(404);
  });
});

describe("deleting a team", () => {
  it("leaves its tickets working without a team, and removes its rules, its default and its audience's notifications", async () => {
    const team = await createTeam({ name: "Network", memberIds: [technician.user.id] });
    const rule = await send("POST", "/api/routing/rules", admin.cookie, {
      titleWords: ["vpn"],
      teamId: team.id,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    await send("PUT", "/api/routing/default-team", admin.cookie, { teamId: team.id });
    const created = await send("POST", "/api/tickets", user.cookie, {
      title: "VPN drops",
      description: "Every hour",
      category: "Network",
      priority: "Low",
      department: "General",
      floor: "1",
      officeNumber: "1",
    });
    const ticketId = created.json<Ticket>().ticketId;
    expect((await send("GET", `/api/tickets/${ticketId}`, admin.cookie)).json<Ticket>().teamName).toBe(
      "Network",
    );
    const old = await insertTicket(t.database.db, { createdBy: user.user.id, teamId: team.id });
    expect(
      await t.database.db
        .select()
        .from(notifications)
        .where(eq(notifications.audience, teamAudience(team.id))),
    ).toHaveLength(1);

    const removed = await send("DELETE", `/api/teams/${team.id}`, admin.cookie);
    expect(removed.statusCode).toBe(204);
    expect((await send("GET", "/api/teams", admin.cookie)).json<TeamList>().items).toEqual([]);
    const ticket = (await send("GET", `/api/tickets/${ticketId}`, admin.cookie)).json<Ticket>();
    expect(ticket).toMatchObject({ teamId: null, teamName: null, status: "Open" });
    const [stored] = await t.database.db.select().from(tickets).where(eq(tickets.id, old.id));
    expect(stored?.teamId).toBeNull();
    expect(await t.database.db.select().from(routingRules)).toEqual([]);
    expect((await send("GET", "/api/routing", admin.cookie)).json<Routing>()).toEqual({
      rules: [],
      defaultTeamId: null,
    });
    expect(
      await t.database.db
        .select()
        .from(notifications)
        .where(eq(notifications.audience, teamAudience(team.id))),
    ).toEqual([]);
    // The ticket can still be worked on.
    const assign = await send("POST", `/api/tickets/${ticketId}/assign`, technician.cookie);
    expect(assign.statusCode).toBe(200);
    expect((await send("DELETE", `/api/teams/${team.id}`, admin.cookie)).statusCode).toBe(404);
  });
});
