import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { savedViews } from "#server/db/schema/index.ts";
import { insertTeam, insertTicket, signedInAs } from "#server/test/factories.ts";
import { tableSnapshotter } from "#server/test/table-snapshot.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { SavedView, ViewList } from "#shared/views/view.schemas.ts";

// Decision 071: saved views of the ticket list — personal by default, shared by administrators, each
// listed with the count its list would show to the one who looks.

let t: TestApp;
type Person = Awaited<ReturnType<typeof signedInAs>>;
let user: Person;
let otherUser: Person;
let technician: Person;
let otherTechnician: Person;
let admin: Person;
let roleless: Person;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.reset();
  user = await signedInAs(t.app, t.database.db, "user");
  otherUser = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  otherTechnician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
  roleless = await signedInAs(t.app, t.database.db, null);
});

const send = (
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  cookie: string | null,
  payload?: object,
) => request(t.app, { method, url, cookie, ...(payload ? { payload } : {}) });

async function saveView(cookie: string, payload: object): Promise<SavedView> {
  const response = await send("POST", "/api/views", cookie, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const viewsOf = async (cookie: string) => (await send("GET", "/api/views", cookie)).json<ViewList>().items;

describe("who may use each views route, for every role", () => {
  it("answers signed out, no role, user, technician and admin as the rules say, and a refusal changes nothing", async () => {
    const shared = await saveView(admin.cookie, { name: "Open", query: "status=Open", sharing: "staff" });
    const callers = {
      signedOut: null,
      roleless: roleless.cookie,
      user: user.cookie,
      technician: technician.cookie,
      admin: admin.cookie,
    };
    type Caller = keyof typeof callers;
    const routes: Array<[string, (cookie: string | null, who: Caller) => ReturnType<typeof send>, number[]]> =
      [
        // Expected for: signed out, no role, user, technician, admin.
        ["GET /api/views", (cookie) => send("GET", "/api/views", cookie), [401, 403, 200, 200, 200]],
        [
          "POST /api/views",
          (cookie, who) => send("POST", "/api/views", cookie, { name: `By ${who}`, query: "status=Open" }),
          [401, 403, 201, 201, 201],
        ],
        [
          "POST /api/views (shared)",
          (cookie, who) =>
            send("POST", "/api/views", cookie, { name: `Shared by ${who}`, query: "", sharing: "staff" }),
          [401, 403, 403, 403, 201],
        ],
        [
          "PUT /api/views/:viewId (shared with staff)",
          (cookie, who) =>
            send("PUT", `/api/views/${shared.id}`, cookie, { name: `Renamed by ${who}`, sharing: "staff" }),
          [401, 403, 404, 403, 200],
        ],
        [
          "DELETE /api/views/:viewId (shared with staff)",
          (cookie) => send("DELETE", `/api/views/${shared.id}`, cookie),
          [401, 403, 404, 403, 204],
        ],
      ];
    const order = Object.keys(callers) as Caller[];
    const isSuccess = (status: number) => status < 300;
    const snapshot = await tableSnapshotter(t.database.db);
    const before = await snapshot();
    for (const [route, call, expected] of routes) {
      for (const [i, who] of order.entries()) {
        if (isSuccess(expected[i]!)) continue;
        const response = await call(callers[who], who);
        expect(response.statusCode, `${route} as ${who}: ${response.body}`).toBe(expected[i]);
      }
    }
    expect(await snapshot()).toEqual(before);
    for (const [route, call, expected] of routes) {
      for (const [i, who] of order.entries()) {
        if (!isSuccess(expected[i]!)) continue;
        const response = await call(callers[who], who);
        expect(response.statusCode, `${route} as ${who}: ${response.body}`).toBe(expected[i]);
      }
    }
  });

  it("keeps a personal view its owner's alone: others get 404, and an admin cannot see or change it", async () => {
    const mine = await saveView(user.cookie, { name: "Mine", query: "status=Open" });
    for (const person of [otherUser, technician, admin]) {
      expect((await viewsOf(person.cookie)).map((view) => view.id)).not.toContain(mine.id);
      expect((await send("PUT", `/api/views/${mine.id}`, person.cookie, { name: "Taken" })).statusCode).toBe(
        404,
      );
      expect((await send("DELETE", `/api/views/${mine.id}`, person.cookie)).statusCode).toBe(404);
    }
    const renamed = await send("PUT", `/api/views/${mine.id}`, user.cookie, {
      name: "Still mine",
      query: "status=Resolved",
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<SavedView>()).toMatchObject({
      name: "Still mine",
      query: "status=Resolved",
      canManage: true,
    });
    expect((await send("DELETE", `/api/views/${mine.id}`, user.cookie)).statusCode).toBe(204);
    expect(await viewsOf(user.cookie)).toEqual([]);
  });
});

describe("saving a view", () => {
  it("stores the list's query in its normal form, without paging, and refuses what the list refuses", async () => {
    const view = await saveView(technician.cookie, {
      name: "  My open VPN ",
      query: "?sort=priority&status=Open&cursor=abc&limit=5&unknown=1&tag=VPN",
    });
    expect(view).toMatchObject({
      name: "My open VPN",
      query: "status=Open&tag=VPN&sort=priority",
      sharing: "personal",
      ownerId: technician.user.id,
      canManage: true,
    });
    const snapshot = await tableSnapshotter(t.database.db);
    const before = await snapshot();
    const refusals: Array<[string, object, number, string]> = [
      [technician.cookie, { name: "Bad", query: "status=Lost" }, 400, "query: status:"],
      [technician.cookie, { name: "Bad", query: "sort=sideways" }, 400, "Sort must be"],
      [technician.cookie, { name: "", query: "" }, 400, "Name is required"],
      [technician.cookie, { name: "x".repeat(61), query: "" }, 400, "at most 60 characters"],
      [technician.cookie, { name: "my open vpn", query: "" }, 409, "You already have a view called"],
      // What the list refuses a user, saving refuses too.
      [user.cookie, { name: "Tagged", query: "tag=vpn" }, 403, "filter tickets by tag"],
      [user.cookie, { name: "Due", query: "due=overdue" }, 403, "due time"],
      [technician.cookie, { name: "Team", query: "", sharing: "team" }, 400, "Choose the team"],
      [
        admin.cookie,
        { name: "Team", query: "", sharing: "team", teamId: "team_0000" },
        400,
        "there is no team",
      ],
    ];
    for (const [cookie, payload, status, message] of refusals) {
      const response = await send("POST", "/api/views", cookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json<{ message: string }>().message).toContain(message);
    }
    expect(await snapshot()).toEqual(before);
    // Another person may use the same name for their own.
    await saveView(otherTechnician.cookie, { name: "My open VPN", query: "" });
  });
});

describe("listing views with their counts", () => {
  it("counts each view for the one who looks, through the list's own count, as its list's total says", async () => {
    const db = t.database.db;
    await insertTicket(db, { createdBy: user.user.id, priority: "High" });
    await insertTicket(db, { createdBy: user.user.id, priority: "Low" });
    await insertTicket(db, {
      createdBy: otherUser.user.id,
      assignedTo: technician.user.id,
      status: "In Progress",
      priority: "High",
    });
    const open = await saveView(admin.cookie, { name: "All open", query: "status=Open", sharing: "staff" });
    const high = await saveView(admin.cookie, { name: "High", query: "priority=High", sharing: "staff" });
    await saveView(user.cookie, { name: "My high", query: "priority=High" });

    const forTechnician = await viewsOf(technician.cookie);
    expect(forTechnician.map((view) => [view.name, view.count?.count, view.canManage])).toEqual([
      ["All open", 2, false],
      ["High", 2, false],
    ]);
    // The same numbers as the list's totals.
    for (const view of forTechnician) {
      const list = await send("GET", `/api/tickets?${view.query}`, technician.cookie);
      expect(list.json<{ total: unknown }>().total).toEqual(view.count);
    }
    const forAdmin = await viewsOf(admin.cookie);
    expect(forAdmin.map((view) => [view.id, view.count?.count, view.canManage])).toEqual([
      [open.id, 2, true],
      [high.id, 2, true],
    ]);
    // A user sees only their own, counted over their own tickets.
    expect((await viewsOf(user.cookie)).map((view) => [view.name, view.count?.count])).toEqual([
      ["My high", 1],
    ]);
    expect(await viewsOf(otherUser.cookie)).toEqual([]);
  });

  it("shares a view with a team: its members and administrators see it, other staff do not; deleting the team deletes it", async () => {
    const team = await insertTeam(t.database.db, { name: "Network", memberIds: [technician.user.id] });
    const view = await saveView(admin.cookie, {
      name: "Network queue",
      query: `team=${team.id}&scope=visible`,
      sharing: "team",
      teamId: team.id,
    });
    expect(view).toMatchObject({ sharing: "team", teamId: team.id, teamName: "Network" });
    expect((await viewsOf(technician.cookie)).map((item) => item.id)).toEqual([view.id]);
    expect(await viewsOf(otherTechnician.cookie)).toEqual([]);
    expect(await viewsOf(user.cookie)).toEqual([]);
    expect((await viewsOf(admin.cookie)).map((item) => item.id)).toEqual([view.id]);
    expect(
      (await send("PUT", `/api/views/${view.id}`, technician.cookie, { name: "Mine now" })).statusCode,
    ).toBe(403);
    expect((await send("DELETE", `/api/teams/${team.id}`, admin.cookie)).statusCode).toBe(204);
    expect(await t.database.db.select().from(savedViews)).toEqual([]);
  });

  it("lets an admin share a personal view of theirs and make a shared one personal again", async () => {
    const view = await saveView(admin.cookie, { name: "Urgent", query: "priority=High" });
    expect(await viewsOf(technician.cookie)).toEqual([]);
    const shared = await send("PUT", `/api/views/${view.id}`, admin.cookie, {
      name: "Urgent",
      query: "priority=High",
      sharing: "staff",
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect((await viewsOf(technician.cookie)).map((item) => item.name)).toEqual(["Urgent"]);
    const back = await send("PUT", `/api/views/${view.id}`, admin.cookie, { name: "Urgent", query: "" });
    expect(back.json<SavedView>().sharing).toBe("personal");
    expect(await viewsOf(technician.cookie)).toEqual([]);
  });
});
