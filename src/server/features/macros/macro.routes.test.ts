import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { macros, type UserRow, users } from "#server/db/schema/index.ts";
import { insertTeam, insertUser, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Macro } from "#shared/macros/macro.schemas.ts";

// Decision 075: macros are kept as canned responses are (decision 013): personal to their owner, shared
// by admins with every staff member; users are refused. Through the routes.

let t: TestApp;
type Person = { user: UserRow; cookie: string };
let tech: Person;
let otherTech: Person;
let admin: Person;
let user: Person;

beforeAll(async () => {
  t = await createTestApp();
  const { app, database } = t;
  tech = await signedInAs(app, database.db, "technician");
  otherTech = await signedInAs(app, database.db, "technician");
  admin = await signedInAs(app, database.db, "admin");
  user = await signedInAs(app, database.db, "user");
});
afterAll(() => t.close());
beforeEach(() => t.database.db.delete(macros));

const url = "/api/macros";
const rows = () => t.database.db.select().from(macros).orderBy(macros.id);
const send = (person: Person, method: "GET" | "POST" | "PATCH" | "DELETE", path: string, payload?: object) =>
  request(t.app, { method, url: path, cookie: person.cookie, ...(payload ? { payload } : {}) });

async function create(person: Person, payload: Record<string, unknown>) {
  const response = await send(person, "POST", url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Macro>();
}

async function titlesFor(person: Person) {
  const response = await send(person, "GET", url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ items: Macro[] }>().items.map((item) => item.title);
}

describe("personal macros", () => {
  it("are saved with their reply and actions, and seen, edited and deleted by their owner alone", async () => {
    const team = await insertTeam(t.database.db, { name: "Network" });
    const mine = await create(tech, {
      title: "VPN known issue",
      body: "We know about the VPN outage.",
      actions: { status: "Resolved", teamId: team.id, addTags: [" VPN "], assigneeId: "me" },
    });
    expect(mine).toMatchObject({
      scope: "personal",
      ownerId: tech.user.id,
      ownerName: tech.user.name,
      replyVisibility: "public",
      actions: { status: "Resolved", teamId: team.id, addTags: ["vpn"], assigneeId: "me" },
    });
    expect(await titlesFor(tech)).toEqual(["VPN known issue"]);
    expect(await titlesFor(otherTech)).toEqual([]);
    expect(await titlesFor(admin)).toEqual([]);

    for (const other of [otherTech, admin]) {
      const edit = await send(other, "PATCH", `${url}/${mine.id}`, { title: "Hijacked" });
      expect(edit.statusCode).toBe(404);
      expect(edit.json().message).toBe(`Macro ${mine.id} not found`);
      expect((await send(other, "DELETE", `${url}/${mine.id}`)).statusCode).toBe(404);
    }

    const edit = await send(tech, "PATCH", `${url}/${mine.id}`, {
      replyVisibility: "internal",
      actions: { priority: "High" },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({
      title: "VPN known issue",
      body: "We know about the VPN outage.",
      replyVisibility: "internal",
      actions: { priority: "High" },
    });

    expect((await send(tech, "DELETE", `${url}/${mine.id}`)).statusCode).toBe(204);
    expect(await rows()).toEqual([]);
  });

  it("refuses a second personal macro with the same title for one person, not for another", async () => {
    await create(tech, { title: "Reboot", body: "Please reboot." });
    const again = await send(tech, "POST", url, { title: "reboot", body: "Again." });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You already have a macro called "reboot". Choose another title.');
    await create(otherTech, { title: "Reboot", body: "Please reboot." });
  });
});

describe("shared macros", () => {
  it("are created and managed by admins and applied by every staff member", async () => {
    const shared = await create(admin, {
      title: "Close duplicate",
      actions: { status: "Closed" },
      scope: "shared",
    });
    expect(await titlesFor(tech)).toEqual(["Close duplicate"]);
    expect(await titlesFor(otherTech)).toEqual(["Close duplicate"]);

    const byTech = await send(tech, "POST", url, { title: "Mine to all", body: "x", scope: "shared" });
    expect(byTech.statusCode).toBe(403);
    expect(byTech.json().message).toBe("Only administrators can create, edit or delete shared macros.");
    const edit = await send(tech, "PATCH", `${url}/${shared.id}`, { title: "Changed" });
    expect(edit.statusCode).toBe(403);
    expect((await send(tech, "DELETE", `${url}/${shared.id}`)).statusCode).toBe(403);
    expect((await rows()).map((row) => row.title)).toEqual(["Close duplicate"]);

    const otherAdmin = await signedInAs(t.app, t.database.db, "admin");
    expect(
      (await send(otherAdmin, "PATCH", `${url}/${shared.id}`, { title: "Close as duplicate" })).statusCode,
    ).toBe(200);
  });
});

describe("users", () => {
  it("are refused every macro route and see none", async () => {
    const shared = await create(admin, { title: "Close", actions: { status: "Closed" }, scope: "shared" });
    for (const [method, path, payload] of [
      ["GET", url, undefined],
      ["POST", url, { title: "Mine", body: "x" }],
      ["PATCH", `${url}/${shared.id}`, { title: "x" }],
      ["DELETE", `${url}/${shared.id}`, undefined],
    ] as const) {
      const response = await send(user, method, path, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(403);
      expect(response.json().message).toBe("Only technicians and administrators can use macros.");
    }
    expect(await rows()).toHaveLength(1);
  });
});

describe("validation", () => {
  it("names what is wrong: an empty macro, a hold without a public reply, an unknown team or an inactive assignee", async () => {
    const cases: Array<[object, string]> = [
      [{ title: "Nothing" }, "body: Write a reply or choose at least one action"],
      [
        { title: "Hold", actions: { hold: "on" } },
        "body: Putting a ticket on hold needs a public reply for the requester",
      ],
      [
        { title: "Hold", body: "Waiting", replyVisibility: "internal", actions: { hold: "on" } },
        "body: Putting a ticket on hold needs a public reply for the requester",
      ],
      [
        { title: "Hold", body: "Waiting", actions: { hold: "on", status: "Resolved" } },
        "actions.hold: A ticket on hold stays In Progress: choose no status or In Progress",
      ],
      [
        { title: "Tags", actions: { addTags: ["vpn"], removeTags: ["vpn"] } },
        "actions.removeTags: A tag cannot be both added and removed",
      ],
      [
        { title: "Status", actions: { status: "Open" } },
        "actions.status: Status must be In Progress, Resolved or Closed",
      ],
      [
        { title: "Team", actions: { teamId: "team_nosuchteam" } },
        "actions.teamId: There is no team 'team_nosuchteam'",
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await send(tech, "POST", url, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toContain(message);
    }

    const gone = await insertUser(t.database.db, { role: "technician", name: "Gone Tech" });
    await t.database.db.update(users).set({ status: "Inactive" }).where(eq(users.id, gone.id));
    const inactive = await send(tech, "POST", url, { title: "Give", actions: { assigneeId: gone.id } });
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().message).toBe("actions.assigneeId: Gone Tech is not an active technician");
    const requester = await send(tech, "POST", url, { title: "Give", actions: { assigneeId: user.user.id } });
    expect(requester.statusCode).toBe(400);
    expect(await rows()).toEqual([]);
  });

  it("answers 404 for an unknown macro and 400 for something that is not a macro id", async () => {
    const unknown = "mac_00000000-0000-4000-8000-000000000000";
    const response = await send(tech, "PATCH", `${url}/${unknown}`, { title: "x" });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(`Macro ${unknown} not found`);
    expect((await send(tech, "DELETE", `${url}/not-a-macro`)).statusCode).toBe(400);
  });
});
