import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userChanges, users } from "#server/db/schema/index.ts";
import { insertUser, sessionCookieOf, signedInAs, signIn } from "#server/test/factories.ts";
import { type OidcPerson, startOidcProvider } from "#server/test/oidc.ts";
import { createTestApp, request, type TestApp, testBaseURL } from "#server/test/test-app.ts";
import type { SsoRoleRule } from "#shared/users/sso-roles.ts";

// Decision 082: roles from the identity provider's claims, against the real loopback OIDC provider.
type Provider = Awaited<ReturnType<typeof startOidcProvider>>;
let provider: Provider;
let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInAs>>;

beforeAll(async () => {
  provider = await startOidcProvider();
  t = await createTestApp({
    oidc: {
      discoveryUrl: provider.discoveryUrl,
      clientId: "helpdesk-test",
      clientSecret: "helpdesk-test-secret",
      label: "Sign in with Contoso",
      // As OIDC_SCOPES=groups does for Okta's org authorization server.
      extraScopes: ["groups"],
    },
  });
  admin = await signedInAs(t.app, t.database.db, "admin");
});
afterAll(async () => {
  await t.close();
  await provider.stop();
});

const techsAndAdmins: SsoRoleRule[] = [
  { value: "helpdesk-techs", role: "technician" },
  { value: "helpdesk-admins", role: "admin" },
];

async function saveMapping(rules: SsoRoleRule[], claim = "groups") {
  const saved = await request(t.app, {
    method: "PUT",
    url: "/api/admin/settings/sso-roles",
    cookie: admin.cookie,
    payload: { claim, rules },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

const cookieHeader = (setCookie: string | string[] | undefined) =>
  [setCookie ?? []]
    .flat()
    .map((c) => c.split(";")[0])
    .join("; ");

/**
 * "Sign in with Contoso" as the sign-in page starts it, through the provider and back to our callback:
 * where the person lands, and their session.
 */
async function signInWithOidc(person: OidcPerson) {
  provider.signInAs(person);
  const start = await request(t.app, {
    method: "POST",
    url: "/api/auth/sign-in/social",
    payload: {
      provider: "oidc",
      callbackURL: "/",
      newUserCallbackURL: "/role-selection",
      errorCallbackURL: "/sign-in?error=oauth&provider=oidc",
    },
  });
  expect(start.statusCode, start.body).toBe(200);
  const authorizeUrl = new URL(start.json().url);
  expect(authorizeUrl.searchParams.get("scope")?.split(" ")).toEqual([
    "openid",
    "email",
    "profile",
    "groups",
  ]);
  const authorize = await fetch(authorizeUrl, { redirect: "manual" });
  const callback = new URL(authorize.headers.get("location")!);
  const done = await request(t.app, {
    method: "GET",
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: cookieHeader(start.headers["set-cookie"]) },
  });
  expect(done.statusCode).toBe(302);
  const landed = new URL(String(done.headers.location), testBaseURL).pathname;
  return { landed, cookie: sessionCookieOf(done.headers["set-cookie"]) };
}

const me = async (cookie: string) =>
  (await request(t.app, { method: "GET", url: "/api/me", cookie })).json() as {
    id: string;
    role: string | null;
  };

const historyOf = (userId: string) =>
  t.database.db
    .select({ action: userChanges.action, actorId: userChanges.actorId, changes: userChanges.changes })
    .from(userChanges)
    .where(and(eq(userChanges.userId, userId), eq(userChanges.action, "role_from_sign_in")))
    .orderBy(userChanges.createdAt);

const roleOfEmail = async (email: string) =>
  (await t.database.db.select({ role: users.role }).from(users).where(eq(users.email, email)))[0]?.role;

describe("roles from the identity provider at OpenID Connect sign-in", () => {
  it("without a mapping, a first sign-in goes to role selection as before, groups or not", async () => {
    await saveMapping([]);
    const { landed, cookie } = await signInWithOidc({
      sub: "sso-0001",
      email: "nora@contoso.test",
      name: "Nora No-Mapping",
      groups: ["helpdesk-techs"],
    });
    expect(landed).toBe("/role-selection");
    expect((await me(cookie)).role).toBeNull();
  });

  it("with a mapping, a first sign-in in the technicians' group lands on the technician's home as a technician", async () => {
    await saveMapping(techsAndAdmins);
    const { landed, cookie } = await signInWithOidc({
      sub: "sso-0002",
      email: "tomas@contoso.test",
      name: "Tomas Tech",
      groups: ["all-staff", "helpdesk-techs"],
    });
    expect(landed).toBe("/technician-home");
    const person = await me(cookie);
    expect(person.role).toBe("technician");
    expect(await historyOf(person.id)).toEqual([
      {
        action: "role_from_sign_in",
        actorId: null,
        changes: [{ field: "role", from: null, to: "technician" }],
      },
    ]);
  });

  it("refuses a role asked for on /role-selection while a mapping exists", async () => {
    // Rosa signed in before the mapping was saved and had not chosen yet; now she may not choose.
    await saveMapping([]);
    const { cookie } = await signInWithOidc({ sub: "sso-0003", email: "rosa@contoso.test", name: "Rosa" });
    await saveMapping(techsAndAdmins);
    const chosen = await request(t.app, {
      method: "POST",
      url: "/api/me/role",
      cookie,
      payload: { role: "technician" },
    });
    expect(chosen.statusCode, chosen.body).toBe(403);
    expect(chosen.json().message).toMatch(/Your role comes from your organisation's sign-in/);
    expect(await roleOfEmail("rosa@contoso.test")).toBeNull();

    // Her next sign-in gives her the role the provider says: no group, so user.
    const again = await signInWithOidc({ sub: "sso-0003", email: "rosa@contoso.test", name: "Rosa" });
    expect(again.landed).toBe("/");
    expect((await me(again.cookie)).role).toBe("user");
  });

  it("applies the provider's change at the next sign-in: out of the group, a user; the old session too", async () => {
    await saveMapping(techsAndAdmins);
    const person = { sub: "sso-0004", email: "demi@contoso.test", name: "Demi Demoted" };
    const first = await signInWithOidc({ ...person, groups: ["helpdesk-techs"] });
    expect((await me(first.cookie)).role).toBe("technician");

    const second = await signInWithOidc({ ...person, groups: [] });
    expect(second.landed).toBe("/");
    expect((await me(second.cookie)).role).toBe("user");
    // The session from before is read again at once, with the new role, as after an admin's change.
    expect((await me(first.cookie)).role).toBe("user");
    const technicianOnly = await request(t.app, {
      method: "GET",
      url: "/api/technicians",
      cookie: first.cookie,
    });
    expect(technicianOnly.statusCode).toBe(403);
    expect((await historyOf((await me(first.cookie)).id)).map((entry) => entry.changes)).toEqual([
      [{ field: "role", from: null, to: "technician" }],
      [{ field: "role", from: "technician", to: "user" }],
    ]);

    // Signing in again with nothing changed records nothing more.
    await signInWithOidc({ ...person, groups: [] });
    expect(await historyOf((await me(first.cookie)).id)).toHaveLength(2);
  });

  it("makes an admin from the admins' group; the highest role any rule gives wins", async () => {
    await saveMapping(techsAndAdmins);
    const { landed, cookie } = await signInWithOidc({
      sub: "sso-0005",
      email: "ada@contoso.test",
      name: "Ada Admin",
      groups: ["helpdesk-techs", "helpdesk-admins"],
    });
    expect(landed).toBe("/admin-home");
    expect((await me(cookie)).role).toBe("admin");
  });

  it("reads the claim the admin names, here a department given as a single string", async () => {
    await saveMapping([{ value: "IT Operations", role: "technician" }], "department");
    const { cookie } = await signInWithOidc({
      sub: "sso-0006",
      email: "dana@contoso.test",
      name: "Dana Department",
      groups: ["helpdesk-admins"],
      claims: { department: "IT Operations" },
    });
    expect((await me(cookie)).role).toBe("technician");
  });

  it("never demotes the last active admin: they stay admin, and nothing is recorded", async () => {
    await saveMapping(techsAndAdmins);
    const person = { sub: "sso-0007", email: "lee@contoso.test", name: "Lee Last" };
    const first = await signInWithOidc({ ...person, groups: ["helpdesk-admins"] });
    const lee = await me(first.cookie);
    expect(lee.role).toBe("admin");
    const otherAdmins = await t.database.db
      .update(users)
      .set({ status: "Inactive" })
      .where(and(eq(users.role, "admin"), eq(users.status, "Active")))
      .returning({ id: users.id });
    await t.database.db.update(users).set({ status: "Active" }).where(eq(users.id, lee.id));
    try {
      const again = await signInWithOidc({ ...person, groups: [] });
      expect((await me(again.cookie)).role).toBe("admin");
      expect(await historyOf(lee.id)).toHaveLength(1);
    } finally {
      for (const { id } of otherAdmins) {
        if (id !== lee.id)
          await t.database.db.update(users).set({ status: "Active" }).where(eq(users.id, id));
      }
    }
    // With another active admin, the same sign-in demotes them.
    const demoted = await signInWithOidc({ ...person, groups: [] });
    expect((await me(demoted.cookie)).role).toBe("user");
  });

  it("leaves password sign-ins alone, and applies at the first single sign-on of someone who had a password", async () => {
    await saveMapping(techsAndAdmins);
    const pat = await insertUser(t.database.db, { email: "pat@contoso.test", role: "technician" });
    expect((await me(await signIn(t.app, pat.email))).role).toBe("technician");

    const linked = await signInWithOidc({
      sub: "sso-0008",
      email: "pat@contoso.test",
      name: "Pat",
      groups: [],
    });
    expect(linked.landed).toBe("/");
    expect(await me(linked.cookie)).toMatchObject({ id: pat.id, role: "user" });
  });
});

describe("Admin settings › Single sign-on", () => {
  it("refuses an unknown role with a 400 that says which roles there are, and keeps the saved mapping", async () => {
    await saveMapping(techsAndAdmins);
    const refused = await request(t.app, {
      method: "PUT",
      url: "/api/admin/settings/sso-roles",
      cookie: admin.cookie,
      payload: { claim: "groups", rules: [{ value: "helpdesk-everyone", role: "superuser" }] },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toMatch(/role must be technician or admin/);
    const saved = await request(t.app, {
      method: "GET",
      url: "/api/admin/settings/sso-roles",
      cookie: admin.cookie,
    });
    expect(saved.json().value).toEqual({ claim: "groups", rules: techsAndAdmins });
  });

  it("refuses a rule for the user role, an empty claim and a value given twice", async () => {
    const cases: Array<[object, RegExp]> = [
      [{ claim: "groups", rules: [{ value: "staff", role: "user" }] }, /role must be technician or admin/],
      [{ claim: " ", rules: [] }, /Name the claim to read/],
      [
        {
          claim: "groups",
          rules: [
            { value: "it", role: "technician" },
            { value: "it", role: "admin" },
          ],
        },
        /Each value may have only one rule/,
      ],
    ];
    for (const [payload, message] of cases) {
      const refused = await request(t.app, {
        method: "PUT",
        url: "/api/admin/settings/sso-roles",
        cookie: admin.cookie,
        payload,
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().message).toMatch(message);
    }
  });

  it("is for administrators only", async () => {
    const tech = await signedInAs(t.app, t.database.db, "technician");
    const refused = await request(t.app, {
      method: "PUT",
      url: "/api/admin/settings/sso-roles",
      cookie: tech.cookie,
      payload: { claim: "groups", rules: [{ value: "helpdesk-techs", role: "admin" }] },
    });
    expect(refused.statusCode).toBe(403);
  });
});
