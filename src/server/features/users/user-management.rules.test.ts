import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sessions, userChanges, users } from "#server/db/schema/index.ts";
import { insertUser, sessionCookieOf, signedInAs, signIn, testPassword } from "#server/test/factories.ts";
import { startOidcProvider } from "#server/test/oidc.ts";
import { createTestApp, request, type TestApp, testBaseURL } from "#server/test/test-app.ts";
import { lastAdminRule, selfDeactivationRule } from "#shared/users/user-management.schemas.ts";
import { changeUserStatus, editUser } from "./user-management.service.ts";

type Provider = Awaited<ReturnType<typeof startOidcProvider>>;
let provider: Provider;
let t: TestApp;

beforeAll(async () => {
  provider = await startOidcProvider();
  t = await createTestApp({
    oidc: {
      discoveryUrl: provider.discoveryUrl,
      clientId: "helpdesk-test",
      clientSecret: "helpdesk-test-secret",
      label: "Sign in with Contoso",
    },
  });
});
afterAll(async () => {
  await t.close();
  await provider.stop();
});

const db = () => t.database.db;
const rowOf = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;

const edit = (cookie: string, id: string, payload: Record<string, unknown>) =>
  request(t.app, { method: "PATCH", url: `/api/admin/users/${id}`, cookie, payload });
const setStatus = (cookie: string, id: string, status: "Active" | "Inactive") =>
  request(t.app, { method: "PUT", url: `/api/admin/users/${id}/status`, cookie, payload: { status } });
const me = (cookie: string) => request(t.app, { method: "GET", url: "/api/me", cookie });
const signInStatus = async (email: string) =>
  (
    await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email, password: testPassword },
    })
  ).statusCode;

describe("edit", () => {
  it("changes name, role, department and status, and records each change from → to", async () => {
    const { user: admin, cookie } = await signedInAs(t.app, db(), "admin");
    const person = await insertUser(db(), { name: "Tom Tech", role: "technician", department: "IT" });
    const response = await edit(cookie, person.id, {
      name: "Tom Lead",
      role: "admin",
      department: "Operations",
      status: "Active",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: "Tom Lead", role: "admin", department: "Operations" });
    expect(await rowOf(person.id)).toMatchObject({
      name: "Tom Lead",
      role: "admin",
      department: "Operations",
    });

    const history = await request(t.app, {
      method: "GET",
      url: `/api/admin/users/${person.id}/history`,
      cookie,
    });
    expect(history.json().items).toEqual([
      expect.objectContaining({
        action: "edited",
        actorId: admin.id,
        actorName: admin.name,
        changes: [
          { field: "name", from: "Tom Tech", to: "Tom Lead" },
          { field: "role", from: "technician", to: "admin" },
          { field: "department", from: "IT", to: "Operations" },
        ],
      }),
    ]);
  });

  it("records nothing when nothing changed", async () => {
    const { cookie } = await signedInAs(t.app, db(), "admin");
    const person = await insertUser(db(), { name: "Same", department: "General" });
    const response = await edit(cookie, person.id, {
      name: "Same",
      role: "user",
      department: "General",
      status: "Active",
    });
    expect(response.statusCode).toBe(200);
    expect(await db().select().from(userChanges).where(eq(userChanges.userId, person.id))).toEqual([]);
  });
});

describe("deactivate and activate", () => {
  it("ends the person's sessions at once, refuses their password sign-in, and Activate restores access", async () => {
    const { cookie } = await signedInAs(t.app, db(), "admin");
    const person = await insertUser(db(), { name: "Dee Active" });
    const personCookie = await signIn(t.app, person.email);
    expect((await me(personCookie)).statusCode).toBe(200);

    const deactivated = await setStatus(cookie, person.id, "Inactive");
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json().status).toBe("Inactive");
    expect(await db().select().from(sessions).where(eq(sessions.userId, person.id))).toEqual([]);
    const after = await me(personCookie);
    expect([after.statusCode, after.json()]).toEqual([200, null]);
    expect(await signInStatus(person.email)).toBe(403);

    expect((await setStatus(cookie, person.id, "Active")).statusCode).toBe(200);
    expect(await signInStatus(person.email)).toBe(200);

    const history = await request(t.app, {
      method: "GET",
      url: `/api/admin/users/${person.id}/history`,
      cookie,
    });
    expect(history.json().items.map((item: { action: string }) => item.action)).toEqual([
      "activated",
      "deactivated",
    ]);
    expect(history.json().items[1].changes).toEqual([{ field: "status", from: "Active", to: "Inactive" }]);
  });

  it("refuses a deactivated person's organisation (OIDC) sign-in until they are activated again", async () => {
    const { cookie } = await signedInAs(t.app, db(), "admin");
    provider.signInAs({ sub: "emp-2001", email: "otto@contoso.test", name: "Otto Oidc" });
    expect((await signInWithOidc()).location.pathname).toBe("/role-selection");
    const [otto] = await db().select().from(users).where(eq(users.email, "otto@contoso.test"));

    expect((await setStatus(cookie, otto!.id, "Inactive")).statusCode).toBe(200);
    const refused = await signInWithOidc();
    expect(refused.location.pathname).toBe("/sign-in");
    expect(refused.location.searchParams.get("error")).toBe("account_inactive");
    expect(refused.cookie).toBeNull();

    expect((await setStatus(cookie, otto!.id, "Active")).statusCode).toBe(200);
    const again = await signInWithOidc();
    expect(again.cookie).not.toBeNull();
    expect((await me(again.cookie!)).json().email).toBe("otto@contoso.test");
  });

  it("does not let an admin deactivate themself", async () => {
    const { user: admin, cookie } = await signedInAs(t.app, db(), "admin");
    await insertUser(db(), { role: "admin" });
    const response = await setStatus(cookie, admin.id, "Inactive");
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ code: "rule_violation", message: selfDeactivationRule });
    const viaEdit = await edit(cookie, admin.id, {
      name: admin.name,
      role: "admin",
      department: "General",
      status: "Inactive",
    });
    expect(viaEdit.json().message).toBe(selfDeactivationRule);
    expect((await rowOf(admin.id)).status).toBe("Active");
    expect((await me(cookie)).statusCode).toBe(200);
  });
});

describe("the last active admin", () => {
  beforeEach(() => t.database.reset());

  it("can be neither demoted nor deactivated; an inactive admin does not count", async () => {
    const { user: only, cookie } = await signedInAs(t.app, db(), "admin");
    await insertUser(db(), { role: "admin", status: "Inactive" });
    const demoted = await edit(cookie, only.id, {
      name: only.name,
      role: "technician",
      department: "General",
      status: "Active",
    });
    expect(demoted.statusCode).toBe(422);
    expect(demoted.json().message).toBe(lastAdminRule);
    expect((await rowOf(only.id)).role).toBe("admin");
    expect(await db().select().from(userChanges)).toEqual([]);
  });

  it("may step down while another admin is active, and then the other may not", async () => {
    const first = await signedInAs(t.app, db(), "admin");
    const second = await signedInAs(t.app, db(), "admin");
    const stepDown = (who: typeof first) =>
      edit(who.cookie, who.user.id, {
        name: who.user.name,
        role: "user",
        department: "General",
        status: "Active",
      });
    expect((await stepDown(first)).statusCode).toBe(200);
    expect((await stepDown(second)).statusCode).toBe(422);
    const admins = await db().select().from(users).where(eq(users.role, "admin"));
    expect(admins.map((a) => a.id)).toEqual([second.user.id]);
  });

  it("survives two admins demoting each other at the same moment: exactly one wins", async () => {
    for (let round = 0; round < 5; round++) {
      await t.database.reset();
      const a = await signedInAs(t.app, db(), "admin");
      const b = await signedInAs(t.app, db(), "admin");
      // Straight to the services, both past the permission check before either writes: the lock decides.
      const actor = (who: typeof a) => ({ db: db(), actor: { id: who.user.id, role: "admin" as const } });
      const demote = (by: typeof a, target: typeof a) =>
        editUser(actor(by), target.user.id, {
          name: target.user.name,
          role: "user",
          department: "General",
          status: "Active",
        });
      const deactivate = (by: typeof a, target: typeof a) =>
        changeUserStatus(actor(by), target.user.id, { status: "Inactive" });
      // Alternate the kinds of removal: demotion against demotion, and deactivation against demotion.
      const results = await Promise.allSettled(
        round % 2 === 0 ? [demote(a, b), demote(b, a)] : [deactivate(a, b), demote(b, a)],
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const [refused] = results.filter((r) => r.status === "rejected");
      expect(refused!.reason).toMatchObject({ code: "rule_violation", message: lastAdminRule });
      const activeAdmins = (await db().select().from(users)).filter(
        (u) => u.role === "admin" && u.status === "Active",
      );
      expect(activeAdmins).toHaveLength(1);
      expect(await db().select().from(userChanges)).toHaveLength(1);
    }
  });
});

describe("history", () => {
  it("is newest first, names the acting admin, and pages", async () => {
    const { user: admin, cookie } = await signedInAs(t.app, db(), "admin");
    const person = await insertUser(db(), { name: "Paged Person" });
    for (let i = 0; i < 55; i++) {
      await edit(cookie, person.id, {
        name: `Name ${i}`,
        role: "user",
        department: "General",
        status: "Active",
      });
    }
    const first = await request(t.app, {
      method: "GET",
      url: `/api/admin/users/${person.id}/history`,
      cookie,
    });
    const page = first.json();
    expect(page.items).toHaveLength(50);
    expect(page.items[0]).toMatchObject({ action: "edited", actorName: admin.name });
    const second = await request(t.app, {
      method: "GET",
      url: `/api/admin/users/${person.id}/history?cursor=${page.nextCursor}`,
      cookie,
    });
    const items: Array<{ id: string; at: string; changes: Array<{ to: string }> }> = [
      ...page.items,
      ...second.json().items,
    ];
    expect(new Set(items.map((item) => item.id)).size).toBe(55);
    expect(items.map((item) => item.at)).toEqual(
      items
        .map((item) => item.at)
        .sort()
        .reverse(),
    );
    expect(new Set(items.map((item) => item.changes[0]!.to))).toEqual(
      new Set(Array.from({ length: 55 }, (_, i) => `Name ${i}`)),
    );
    expect(second.json().nextCursor).toBeNull();
  });
});

const cookieHeader = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [])
    .map((c) => c.split(";")[0])
    .join("; ");

/** The authorization-code flow against the loopback provider: where it lands, and the session if any. */
async function signInWithOidc() {
  const start = await request(t.app, {
    method: "POST",
    url: "/api/auth/sign-in/social",
    payload: { provider: "oidc", callbackURL: "/", newUserCallbackURL: "/role-selection" },
  });
  const authorize = await fetch(new URL(start.json().url), { redirect: "manual" });
  const callback = new URL(authorize.headers.get("location")!);
  const done = await request(t.app, {
    method: "GET",
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: cookieHeader(start.headers["set-cookie"]) },
  });
  let cookie: string | null = null;
  try {
    cookie = sessionCookieOf(done.headers["set-cookie"]);
  } catch {
    cookie = null;
  }
  // An empty session cookie is better-auth clearing it, not a session.
  if (cookie === "better-auth.session_token=") cookie = null;
  return { location: new URL(String(done.headers.location), testBaseURL), cookie };
}
