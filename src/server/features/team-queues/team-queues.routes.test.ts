import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { teams, users } from "#server/db/schema/index.ts";
import { createTicket } from "#server/features/tickets/ticket.service.ts";
import { contextAs, insertTeam, insertUser, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Team } from "#shared/teams/team.schemas.ts";
import type { Me } from "#shared/users/user.schemas.ts";

// Decision 073: a technician marks themselves away and back; an administrator sets a team's mode.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const setAway = (cookie: string, away: unknown) =>
  request(t.app, { method: "PUT", url: "/api/me/away", cookie, payload: { away } });
const awaySinceOf = async (id: string) =>
  (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!.awaySince;

describe("away", () => {
  it("a technician marks themselves away and back; the first time stays while away", async () => {
    const tech = await signedInAs(t.app, t.database.db, "technician");
    const away = await setAway(tech.cookie, true);
    expect(away.statusCode, away.body).toBe(200);
    const since = away.json<Me>().awaySince;
    expect(since).not.toBeNull();
    const me = await request(t.app, { method: "GET", url: "/api/me", cookie: tech.cookie });
    expect(me.json<Me>().awaySince).toBe(since);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await setAway(tech.cookie, true)).json<Me>().awaySince).toBe(since);
    const back = await setAway(tech.cookie, false);
    expect(back.statusCode).toBe(200);
    expect(back.json<Me>().awaySince).toBeNull();
    expect(await awaySinceOf(tech.user.id)).toBeNull();
  });

  it("is a technician's: users and administrators are refused, and nothing changes", async () => {
    for (const role of ["user", "admin", null] as const) {
      const person = await signedInAs(t.app, t.database.db, role);
      expect((await setAway(person.cookie, true)).statusCode).toBe(403);
      expect(await awaySinceOf(person.user.id)).toBeNull();
    }
    const tech = await signedInAs(t.app, t.database.db, "technician");
    expect((await setAway(tech.cookie, "yes")).statusCode).toBe(400);
    expect(
      (await request(t.app, { method: "PUT", url: "/api/me/away", payload: { away: true } })).statusCode,
    ).toBe(401);
  });

  it("keeps a technician who marked themselves away out of their team's round robin", async () => {
    const { db } = t.database;
    const requester = await insertUser(db, { role: "user" });
    const first = await signedInAs(t.app, db, "technician");
    const second = await signedInAs(t.app, db, "technician");
    const team = await insertTeam(db, {
      assignment: "round_robin",
      memberIds: [first.user.id, second.user.id],
    });
    expect((await setAway(first.cookie, true)).statusCode).toBe(200);
    const input = {
      title: "Screen flickers",
      description: "After lunch.",
      category: "Hardware",
      priority: "Low",
      department: "General",
      floor: "1",
      officeNumber: "101",
    } as const;
    const raise = async () =>
      (await createTicket(contextAs(db, requester), input, { teamId: team.id })).assignedTo;
    expect([await raise(), await raise()]).toEqual([second.user.id, second.user.id]);
    expect((await setAway(first.cookie, false)).statusCode).toBe(200);
    expect(new Set([await raise(), await raise()])).toEqual(new Set([first.user.id, second.user.id]));
  });
});

describe("a team's assignment mode", () => {
  const setMode = (cookie: string, teamId: string, assignment: unknown) =>
    request(t.app, {
      method: "PUT",
      url: `/api/teams/${teamId}/assignment`,
      cookie,
      payload: { assignment },
    });
  const modeOf = async (id: string) =>
    (await t.database.db.select().from(teams).where(eq(teams.id, id)))[0]!.assignment;

  it("is set by an administrator", async () => {
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const team = await insertTeam(t.database.db, { name: "Network" });
    for (const assignment of ["round_robin", "least_open", "off"] as const) {
      const response = await setMode(admin.cookie, team.id, assignment);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ teamId: team.id, assignment });
      expect(await modeOf(team.id)).toBe(assignment);
    }
    expect((await setMode(admin.cookie, team.id, "random")).statusCode).toBe(400);
    expect((await setMode(admin.cookie, "team_missing", "off")).statusCode).toBe(404);
  });

  it("is refused to technicians and users, and nothing changes", async () => {
    const team = await insertTeam(t.database.db, { name: "Desk" });
    for (const role of ["technician", "user"] as const) {
      const person = await signedInAs(t.app, t.database.db, role);
      expect((await setMode(person.cookie, team.id, "round_robin")).statusCode).toBe(403);
    }
    expect(await modeOf(team.id)).toBe("off");
  });
});

describe("the team as GET /api/teams shows it", () => {
  it("has its assignment mode, and which members are away", async () => {
    const { db } = t.database;
    const admin = await signedInAs(t.app, db, "admin");
    const away = await signedInAs(t.app, db, "technician");
    const here = await insertUser(db, { role: "technician" });
    const team = await insertTeam(db, { name: "Network", memberIds: [away.user.id, here.id] });
    expect((await setAway(away.cookie, true)).statusCode).toBe(200);
    await request(t.app, {
      method: "PUT",
      url: `/api/teams/${team.id}/assignment`,
      cookie: admin.cookie,
      payload: { assignment: "least_open" },
    });
    const list = await request(t.app, { method: "GET", url: "/api/teams", cookie: away.cookie });
    expect(list.statusCode, list.body).toBe(200);
    const [shown] = list.json<{ items: Team[] }>().items;
    expect(shown?.assignment).toBe("least_open");
    expect(Object.fromEntries(shown!.members.map((member) => [member.id, member.isAway]))).toEqual({
      [away.user.id]: true,
      [here.id]: false,
    });
  });
});
