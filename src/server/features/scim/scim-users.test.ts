import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, sessions, users } from "#server/db/schema/index.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { signedInAs } from "#server/test/factories.ts";
import { createScimToken, expectScimError, scim } from "#server/test/scim-requests.ts";
import { decodeMail, startSmtpServer } from "#server/test/smtp.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";

// Decision 081: provisioning as RFC 7644's examples, Entra ID and Okta send it, against the real app.

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let smtp: Smtp;
let admin: Awaited<ReturnType<typeof signedInAs>>;
let token: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    mailer: createMailer({
      smtpUrl: smtp.url,
      outboxDir: "/nonexistent",
      from: "Helpdesk <hd@test.local>",
      log: () => {},
    }),
  });
  admin = await signedInAs(t.app, t.database.db, "admin");
  token = (await createScimToken(t, admin.cookie)).token;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const core = "urn:ietf:params:scim:schemas:core:2.0:User";
const enterprise = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const patchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
let counter = 0;
const address = (who: string) => `${who}.${Date.now().toString(36)}${counter++}@contoso.test`;

/** Entra ID's POST /Users (its documented request), with the enterprise extension's department. */
const entraUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [core, enterprise],
  externalId: `entra-${userName}`,
  userName,
  active: true,
  emails: [{ primary: true, type: "work", value: userName }],
  meta: { resourceType: "User" },
  name: { formatted: "Ada Lovelace", familyName: "Lovelace", givenName: "Ada" },
  roles: [],
  [enterprise]: { department: "Finance" },
  ...extra,
});

const rowOf = async (id: string) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;
const patch = (id: string, Operations: unknown[]) =>
  scim(t, token, "PATCH", `/Users/${id}`, { schemas: [patchOp], Operations });
const filterBy = (filter: string) => scim(t, token, "GET", `/Users?filter=${encodeURIComponent(filter)}`);
const historyOf = async (id: string) =>
  (
    await request(t.app, { method: "GET", url: `/api/admin/users/${id}/history`, cookie: admin.cookie })
  ).json<{
    items: { action: string; actorName: string | null; changes: { field: string; to: string }[] }[];
  }>().items;

async function provision(userName = address("ada"), extra: Record<string, unknown> = {}) {
  const response = await scim(t, token, "POST", "/Users", entraUser(userName, extra));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string; userName: string; active: boolean }>();
}

describe("POST /Users and finding a person", () => {
  it("provisions an Active user with the name, e-mail, department and externalId, and no password", async () => {
    const userName = address("Ada.Lovelace").replace("ada", "Ada");
    const response = await scim(t, token, "POST", "/Users", entraUser(userName));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers["content-type"]).toMatch(/^application\/scim\+json/);
    const body = response.json();
    expect(response.headers.location).toBe(`http://localhost:3000/scim/v2/Users/${body.id}`);
    expect(body).toMatchObject({
      schemas: [core, enterprise],
      userName: userName.toLowerCase(),
      externalId: `entra-${userName}`,
      active: true,
      name: { formatted: "Ada Lovelace", givenName: "Ada", familyName: "Lovelace" },
      emails: [{ value: userName.toLowerCase(), primary: true }],
      [enterprise]: { department: "Finance" },
      meta: { resourceType: "User", location: response.headers.location },
    });
    expect(await rowOf(body.id)).toMatchObject({
      name: "Ada Lovelace",
      email: userName.toLowerCase(),
      role: "user",
      status: "Active",
      department: "Finance",
      externalId: `entra-${userName}`,
    });
    const passwords = await t.database.db.select().from(accounts).where(eq(accounts.userId, body.id));
    expect(passwords).toEqual([]);
    const [created] = await historyOf(body.id);
    expect(created).toMatchObject({ action: "provisioned", actorName: admin.user.name });
  });

  it("takes the name from givenName and familyName, or displayName, and defaults the department", async () => {
    const okta = await scim(t, token, "POST", "/Users", {
      schemas: [core],
      userName: address("grace"),
      name: { givenName: "Grace", familyName: "Hopper" },
      emails: [{ primary: true, value: "ignored@contoso.test", type: "work" }],
      displayName: "Amazing Grace",
      locale: "en-US",
      active: true,
    });
    expect(okta.statusCode, okta.body).toBe(201);
    expect(await rowOf(okta.json().id)).toMatchObject({ name: "Grace Hopper", department: "General" });
    const byDisplayName = await scim(t, token, "POST", "/Users", {
      schemas: [core],
      userName: address("linus"),
      displayName: "Linus T",
    });
    expect(await rowOf(byDisplayName.json().id)).toMatchObject({ name: "Linus T", status: "Active" });
  });

  it('finds a person by filter=userName eq "…" in any case, or by externalId; an unknown name is 0 results', async () => {
    const person = await provision(address("finn"));
    const found = await filterBy(`userName eq "${person.userName.toUpperCase()}"`);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({
      schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
      Resources: [{ id: person.id, userName: person.userName }],
    });
    const byExternalId = await filterBy(`externalId eq "entra-${person.userName}"`);
    expect(byExternalId.json().Resources.map((r: { id: string }) => r.id)).toEqual([person.id]);
    const unknown = await filterBy('userName eq "nobody@contoso.test"');
    expect(unknown.json()).toMatchObject({ totalResults: 0, itemsPerPage: 0, Resources: [] });
  });

  it("pages with startIndex and count (1-based) and says the total", async () => {
    for (let i = 0; i < 3; i += 1) await provision();
    const all = (await scim(t, token, "GET", "/Users?count=100")).json();
    const second = (await scim(t, token, "GET", "/Users?startIndex=2&count=2")).json();
    expect(second.totalResults).toBe(all.totalResults);
    expect(second).toMatchObject({ startIndex: 2, itemsPerPage: 2 });
    expect(second.Resources.map((r: { id: string }) => r.id)).toEqual(
      all.Resources.slice(1, 3).map((r: { id: string }) => r.id),
    );
    const none = (await scim(t, token, "GET", "/Users?count=0")).json();
    expect(none).toMatchObject({ totalResults: all.totalResults, itemsPerPage: 0, Resources: [] });
  });

  it("answers 409 uniqueness to a userName that has an account already, in any case", async () => {
    const person = await provision();
    const again = await scim(
      t,
      token,
      "POST",
      "/Users",
      entraUser(person.userName.toUpperCase(), { externalId: "other" }),
    );
    expectScimError(again, 409, "uniqueness");
    const existing = await signedInAs(t.app, t.database.db, "technician");
    const taken = await scim(
      t,
      token,
      "POST",
      "/Users",
      entraUser(existing.user.email, { externalId: "x2" }),
    );
    expectScimError(taken, 409, "uniqueness");
    expect((await rowOf(existing.user.id)).role).toBe("technician");
  });

  it("refuses a userName that is not an e-mail address when no e-mail is given (400 invalidValue)", async () => {
    const response = await scim(t, token, "POST", "/Users", { schemas: [core], userName: "ada" });
    expectScimError(response, 400, "invalidValue");
    expectScimError(await scim(t, token, "POST", "/Users", { schemas: [core] }), 400, "invalidValue");
  });

  it("answers 400 invalidFilter to a filter it does not support", async () => {
    for (const filter of [
      'title eq "CEO"',
      "userName eq ada",
      'userName co "ada"',
      'userName eq "a" and active eq true',
    ]) {
      expectScimError(await filterBy(filter), 400, "invalidFilter");
    }
  });

  it("answers 404 in SCIM's shape for an unknown person", async () => {
    expectScimError(await scim(t, token, "GET", "/Users/no-such-person"), 404);
    expectScimError(await patch("no-such-person", [{ op: "replace", path: "active", value: false }]), 404);
  });
});

describe("PUT and PATCH /Users/{id}", () => {
  it("PUT replaces the name, department and e-mail; the role stays", async () => {
    const person = await provision();
    const renamed = address("ada.king");
    const response = await scim(t, token, "PUT", `/Users/${person.id}`, {
      ...entraUser(renamed),
      name: { givenName: "Ada", familyName: "King" },
      [enterprise]: { department: "Research" },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ userName: renamed, name: { formatted: "Ada King" } });
    expect(await rowOf(person.id)).toMatchObject({
      name: "Ada King",
      email: renamed,
      department: "Research",
      role: "user",
    });
    expect((await historyOf(person.id))[0]).toMatchObject({ action: "edited" });
  });

  it("PATCH with a path (Entra ID), without one (Entra ID, Okta) and with capitalised ops changes the name", async () => {
    const person = await provision();
    const entra = await patch(person.id, [
      { op: "Replace", path: "name.givenName", value: "Augusta" },
      { op: "Add", path: "title", value: "Countess" },
      { op: "Replace", path: `${enterprise}:department`, value: "Engines" },
    ]);
    expect(entra.statusCode, entra.body).toBe(200);
    expect(await rowOf(person.id)).toMatchObject({ name: "Augusta Lovelace", department: "Engines" });

    await patch(person.id, [
      { op: "Replace", value: { "name.familyName": "Byron", displayName: "ignored" } },
    ]);
    expect((await rowOf(person.id)).name).toBe("Augusta Byron");

    const okta = await patch(person.id, [
      { op: "replace", value: { name: { givenName: "Ada", familyName: "Lovelace" }, displayName: "Ada L" } },
    ]);
    expect(okta.json().name.formatted).toBe("Ada Lovelace");

    await patch(person.id, [{ op: "replace", path: "displayName", value: "Countess Ada" }]);
    expect((await rowOf(person.id)).name).toBe("Countess Ada");
  });

  it("refuses an unknown op (400 invalidSyntax) and a body without the PatchOp schema", async () => {
    const person = await provision();
    expectScimError(
      await patch(person.id, [{ op: "merge", path: "active", value: false }]),
      400,
      "invalidSyntax",
    );
    const noSchema = await scim(t, token, "PATCH", `/Users/${person.id}`, {
      schemas: [core],
      Operations: [{ op: "replace", path: "active", value: false }],
    });
    expectScimError(noSchema, 400, "invalidSyntax");
    expectScimError(
      await patch(person.id, [{ op: "replace", path: "active", value: "maybe" }]),
      400,
      "invalidValue",
    );
    expect((await rowOf(person.id)).status).toBe("Active");
  });
});

/** "Forgot password" as the person does it: the mailed link, then a new password. */
async function setPasswordByReset(email: string, password: string) {
  const asked = await request(t.app, {
    method: "POST",
    url: "/api/auth/request-password-reset",
    payload: { email, redirectTo: "/reset-password" },
  });
  expect(asked.statusCode).toBe(200);
  const { raw } = (await smtp.waitForMailTo(email, 1)).at(-1)!;
  const link = new URL(
    decodeMail(raw).match(
      /http:\/\/localhost:3000\/api\/auth\/reset-password\/[\w-]+\?callbackURL=[^\s"<]+/,
    )![0],
  );
  const opened = await request(t.app, { method: "GET", url: `${link.pathname}${link.search}` });
  const resetToken = new URL(String(opened.headers.location), "http://localhost:3000").searchParams.get(
    "token",
  )!;
  const reset = await request(t.app, {
    method: "POST",
    url: "/api/auth/reset-password",
    payload: { token: resetToken, newPassword: password },
  });
  expect(reset.statusCode, reset.body).toBe(200);
}

const signIn = (email: string, password: string) =>
  request(t.app, { method: "POST", url: "/api/auth/sign-in/email", payload: { email, password } });
const me = (cookie: string) => request(t.app, { method: "GET", url: "/api/me", cookie });

describe("deactivation", () => {
  it("PATCH active \"False\" (Entra ID) ends the person's session and refuses their sign-in; Okta's active true lets them in again", async () => {
    const person = await provision();
    const password = "provisioned person 1";
    await setPasswordByReset(person.userName, password);
    const signedIn = await signIn(person.userName, password);
    expect(signedIn.statusCode).toBe(200);
    const cookie = String(signedIn.headers["set-cookie"]).split(";")[0]!;
    expect((await me(cookie)).json()).toMatchObject({ email: person.userName });

    const off = await patch(person.id, [{ op: "Replace", path: "active", value: "False" }]);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().active).toBe(false);
    expect((await rowOf(person.id)).status).toBe("Inactive");
    // The old session is gone: /api/me answers "nobody", and the person has no session row left.
    expect((await me(cookie)).json()).toBeNull();
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, person.id))).toEqual([]);
    expect((await signIn(person.userName, password)).statusCode).toBe(403);
    expect((await historyOf(person.id))[0]).toMatchObject({
      action: "deactivated",
      actorName: admin.user.name,
      changes: [{ field: "status", to: "Inactive" }],
    });

    const on = await patch(person.id, [{ op: "replace", value: { active: true } }]);
    expect(on.json().active).toBe(true);
    expect((await signIn(person.userName, password)).statusCode).toBe(200);
    expect((await historyOf(person.id))[0]?.action).toBe("activated");
  });

  it("DELETE deactivates (204): the account and its history stay, found Inactive", async () => {
    const person = await provision();
    const deleted = await scim(t, token, "DELETE", `/Users/${person.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(await rowOf(person.id)).toMatchObject({ status: "Inactive" });
    const found = await scim(t, token, "GET", `/Users/${person.id}`);
    expect(found.json()).toMatchObject({ id: person.id, active: false });
  });

  it("deactivates another administrator, but not the one the token acts for, who stays active", async () => {
    const other = await signedInAs(t.app, t.database.db, "admin");
    expect((await patch(other.user.id, [{ op: "replace", value: { active: false } }])).statusCode).toBe(200);
    expect((await rowOf(other.user.id)).status).toBe("Inactive");
    const self = await patch(admin.user.id, [{ op: "replace", path: "active", value: false }]);
    expect(expectScimError(self, 400).detail).toMatch(/is the administrator this SCIM token acts for/);
    expect((await rowOf(admin.user.id)).status).toBe("Active");
  });
});

describe("the SCIM token", () => {
  it("answers 401 in SCIM's shape without a token, with a wrong, a revoked or a personal API token, or a cookie", async () => {
    const personal = await request(t.app, {
      method: "POST",
      url: "/api/me/tokens",
      cookie: admin.cookie,
      payload: { name: "script", scope: "write" },
    });
    const extra = await createScimToken(t, admin.cookie, "Okta");
    expect((await scim(t, extra.token, "GET", "/Users?count=1")).statusCode).toBe(200);
    const revoke = await request(t.app, {
      method: "DELETE",
      url: `/api/admin/scim/tokens/${extra.id}`,
      cookie: admin.cookie,
    });
    expect(revoke.statusCode).toBe(204);
    for (const bearer of [
      null,
      `${token.slice(0, -4)}AAAA`,
      "scim_nope",
      extra.token,
      personal.json().token,
    ]) {
      const refused = await scim(t, bearer, "GET", "/Users");
      expectScimError(refused, 401);
      expect(refused.headers["www-authenticate"]).toMatch(/^Bearer/);
    }
    const byCookie = await t.app.inject({
      method: "GET",
      url: "/scim/v2/Users",
      headers: { cookie: admin.cookie },
    });
    expectScimError(byCookie, 401);
    const post = await scim(t, null, "POST", "/Users", entraUser(address("eve")));
    expectScimError(post, 401);
    expect(
      await t.database.db
        .select()
        .from(users)
        .where(and(eq(users.name, "Ada Lovelace"), eq(users.externalId, "eve"))),
    ).toEqual([]);
  });
});
