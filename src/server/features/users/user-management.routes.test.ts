import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { accounts, userChanges, users, verifications } from "#server/db/schema/index.ts";
import { insertUser, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Role } from "#shared/users/roles.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.database.db;

/** Everything a refused call must leave as it was (sessions aside: a deactivated caller's end on sight). */
async function snapshot() {
  const order = <T extends { id: string }>(rows: T[]) => rows.sort((a, b) => a.id.localeCompare(b.id));
  return {
    users: order(await db().select().from(users)),
    accounts: order(await db().select().from(accounts)),
    changes: order(await db().select().from(userChanges)),
    tokens: order(await db().select().from(verifications)),
  };
}

type Caller = "anonymous" | Role | "deactivated admin";

async function cookieFor(caller: Caller): Promise<string | null> {
  if (caller === "anonymous") return null;
  if (caller === "deactivated admin") {
    const { user, cookie } = await signedInAs(t.app, db(), "admin");
    await db().update(users).set({ status: "Inactive" }).where(eq(users.id, user.id));
    return cookie;
  }
  return (await signedInAs(t.app, db(), caller)).cookie;
}

interface Call {
  name: string;
  method: "GET" | "POST" | "PATCH" | "PUT";
  url: (targetId: string) => string;
  payload?: () => Record<string, unknown>;
  ok: number;
}

let invitations = 0;
let targets = 0;
const calls: Call[] = [
  { name: "list", method: "GET", url: () => "/api/admin/users?q=target", ok: 200 },
  { name: "counts", method: "GET", url: () => "/api/admin/users/summary", ok: 200 },
  {
    name: "invite",
    method: "POST",
    url: () => "/api/admin/users",
    payload: () => ({
      name: "Ivy Invited",
      email: `ivy${invitations++}@example.test`,
      role: "technician",
      department: "IT",
    }),
    ok: 201,
  },
  {
    name: "edit",
    method: "PATCH",
    url: (id) => `/api/admin/users/${id}`,
    payload: () => ({ name: "Renamed", role: "technician", department: "Finance", status: "Active" }),
    ok: 200,
  },
  {
    name: "deactivate",
    method: "PUT",
    url: (id) => `/api/admin/users/${id}/status`,
    payload: () => ({ status: "Inactive" }),
    ok: 200,
  },
  { name: "reset password", method: "POST", url: (id) => `/api/admin/users/${id}/password-reset`, ok: 200 },
  { name: "history", method: "GET", url: (id) => `/api/admin/users/${id}/history`, ok: 200 },
];

const refusals: Array<[Caller, number]> = [
  ["anonymous", 401],
  ["user", 403],
  ["technician", 403],
  ["deactivated admin", 401],
];

describe("who may call user management", () => {
  for (const call of calls) {
    for (const [caller, status] of refusals) {
      it(`${call.name}: refuses ${caller} with ${status}, changes nothing and shows no one's e-mail`, async () => {
        const target = await insertUser(db(), {
          name: "Target Person",
          email: `target-${targets++}@hidden.test`,
        });
        const cookie = await cookieFor(caller);
        const before = await snapshot();
        const response = await request(t.app, {
          method: call.method,
          url: call.url(target.id),
          cookie,
          payload: call.payload?.(),
        });
        expect(response.statusCode).toBe(status);
        expect(response.json().code).toBe(status === 401 ? "unauthenticated" : "forbidden");
        expect(response.body).not.toContain("@hidden.test");
        expect(await snapshot()).toEqual(before);
      });
    }

    it(`${call.name}: answers an admin with ${call.ok}`, async () => {
      const target = await insertUser(db(), { name: "Target Person" });
      const { cookie } = await signedInAs(t.app, db(), "admin");
      const response = await request(t.app, {
        method: call.method,
        url: call.url(target.id),
        cookie,
        payload: call.payload?.(),
      });
      expect(response.statusCode).toBe(call.ok);
    });
  }

  it("answers an unknown person with 404", async () => {
    const { cookie } = await signedInAs(t.app, db(), "admin");
    for (const call of calls.filter((c) => c.url("x") !== c.url("y"))) {
      const response = await request(t.app, {
        method: call.method,
        url: call.url("no-such-person"),
        cookie,
        payload: call.payload?.(),
      });
      expect(response.statusCode, call.name).toBe(404);
      expect(response.json()).toEqual({ code: "not_found", message: "User no-such-person not found" });
    }
  });
});

describe("validation", () => {
  it("requires every field of an edit and writes nothing when one is missing or blank", async () => {
    const target = await insertUser(db(), { name: "Kept Name" });
    const { cookie } = await signedInAs(t.app, db(), "admin");
    const edit = (payload: Record<string, unknown>) =>
      request(t.app, { method: "PATCH", url: `/api/admin/users/${target.id}`, cookie, payload });
    const missing = await edit({ name: "New", role: "user", status: "Active" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe("department: Department is required");
    const blank = await edit({ name: " ", role: "user", department: "IT", status: "Active" });
    expect(blank.json().message).toBe("name: Name is required");
    const badRole = await edit({ name: "New", role: "root", department: "IT", status: "Active" });
    expect(badRole.json().message).toBe("role: Role must be user, technician or admin");
    const [row] = await db().select().from(users).where(eq(users.id, target.id));
    expect(row!.name).toBe("Kept Name");
  });

  it("refuses an invitation without a valid e-mail address", async () => {
    const { cookie } = await signedInAs(t.app, db(), "admin");
    const response = await request(t.app, {
      method: "POST",
      url: "/api/admin/users",
      cookie,
      payload: { name: "No Mail", email: "not-an-address", role: "user", department: "IT" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("email: Enter a valid e-mail address");
  });
});

describe("search, filters, counts and paging", () => {
  let cookie: string;
  beforeEach(async () => {
    await t.database.reset();
    cookie = (await signedInAs(t.app, db(), "admin")).cookie; // "Person …", role admin, General
    const base = Date.parse("2025-01-01T00:00:00Z");
    for (let i = 0; i < 58; i++) {
      await insertUser(db(), {
        name: `Member ${String(i).padStart(2, "0")}`,
        email: `member${i}@corp.test`,
        role: i % 3 === 0 ? "technician" : "user",
        department: i % 4 === 0 ? "Finance" : "Sales",
        status: i % 5 === 0 ? "Inactive" : "Active",
        // Several people share a timestamp: the id breaks the tie, so paging still never skips anyone.
        createdAt: new Date(base + Math.floor(i / 3) * 1000),
      });
    }
    await insertUser(db(), { name: "Zoë O'Brien", email: "zoe@other.test", department: "100% Remote" });
  });

  const list = async (query = "") => {
    const response = await request(t.app, { method: "GET", url: `/api/admin/users${query}`, cookie });
    expect(response.statusCode).toBe(200);
    return response.json() as {
      items: Array<{ name: string; email: string; role: string; status: string; department: string }>;
      matching: number;
      nextCursor: string | null;
    };
  };

  async function all(query: string) {
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`?${query}${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.items.length).toBeLessThanOrEqual(25);
      names.push(...page.items.map((item) => item.name));
      cursor = page.nextCursor;
    } while (cursor);
    return names;
  }

  it("counts total, active, users, technicians and admins", async () => {
    const response = await request(t.app, { method: "GET", url: "/api/admin/users/summary", cookie });
    expect(response.json()).toEqual({ total: 60, active: 48, users: 39, technicians: 20, admins: 1 });
  });

  it("pages 25 at a time, newest first or by name, never repeating or skipping anyone", async () => {
    const newest = await all("sort=newest");
    expect(newest).toHaveLength(60);
    expect(new Set(newest).size).toBe(60);
    expect(newest.at(-1)).toMatch(/^Member 0[0-2]$/);
    const byName = await all("sort=name");
    expect(byName).toHaveLength(60);
    expect(byName.slice(0, 3)).toEqual(["Member 00", "Member 01", "Member 02"]);
    expect(new Set(byName)).toEqual(new Set(newest));
  });

  it("searches name, e-mail and department in any case, and counts the matches", async () => {
    const byName = await list("?q=member%201");
    expect(byName.items.map((u) => u.name).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `Member 1${i}`),
    );
    expect(byName.matching).toBe(10);
    expect((await list("?q=ZOE@OTHER")).items.map((u) => u.name)).toEqual(["Zoë O'Brien"]);
    expect((await list("?q=finance")).matching).toBe(15);
    // % and _ are searched for literally.
    expect((await list("?q=100%25")).items.map((u) => u.name)).toEqual(["Zoë O'Brien"]);
    expect((await list("?q=%25")).items.map((u) => u.name)).toEqual(["Zoë O'Brien"]);
    expect((await list("?q=r_0")).matching).toBe(0);
  });

  it("filters by role and status, together with a search", async () => {
    const technicians = await all("role=technician");
    expect(technicians).toHaveLength(20);
    expect((await list("?role=admin")).items).toHaveLength(1);
    const inactiveFinance = await list("?status=Inactive&q=finance");
    expect(inactiveFinance.items.map((u) => u.name).sort()).toEqual(["Member 00", "Member 20", "Member 40"]);
    expect(inactiveFinance.matching).toBe(3);
  });

  it("answers a forged cursor or an unknown role with 400", async () => {
    const forged = Buffer.from(JSON.stringify(["yesterday", "x"])).toString("base64url");
    const badCursor = await request(t.app, {
      method: "GET",
      url: `/api/admin/users?cursor=${forged}`,
      cookie,
    });
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().message).toBe("cursor: Not a valid page cursor");
    const garbage = await request(t.app, { method: "GET", url: "/api/admin/users?cursor=bm9wZQ", cookie });
    expect(garbage.statusCode).toBe(400);
    const badRole = await request(t.app, { method: "GET", url: "/api/admin/users?role=root", cookie });
    expect(badRole.statusCode).toBe(400);
  });

  it("sends only the fields user management shows", async () => {
    const page = await list("?q=member%2000");
    expect(Object.keys(page.items[0]!).sort()).toEqual(
      ["createdAt", "department", "email", "id", "lastLogin", "name", "role", "status"].sort(),
    );
  });
});
