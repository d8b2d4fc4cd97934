import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "#server/db/client.ts";
import { verifications } from "#server/db/schema/index.ts";
import { createInProcessBus } from "#server/realtime/bus.ts";
import { insertUser, sessionCookieOf, signedInAs, signIn, testPassword } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { secretOf, totpCode } from "#server/test/totp.ts";
import type { MySessionList } from "#shared/users/session.schemas.ts";

// Decisions 039 and 066: each instance remembers a session cookie for a minute here, so a cookie refused by
// the second instance soon after a change made on the first proves the change was announced to it
// (LISTEN/NOTIFY on PostgreSQL, where each instance has a pool of its own), not that its cache ran out.
let a: TestApp;
let b: TestApp;
let closeSecond: () => Promise<void> = async () => {};
beforeAll(async () => {
  // On PGlite (one process in production) the two share the database and an in-process bus.
  const bus = process.env.TEST_DATABASE_URL ? undefined : createInProcessBus();
  a = await createTestApp({ sessionCacheTtlMs: 60_000, bus });
  const second = a.database.url ? createDatabase({ databaseUrl: a.database.url }) : null;
  if (second) closeSecond = () => second.close();
  b = await createTestApp({ sessionCacheTtlMs: 60_000, database: second ?? a.database, bus });
});
afterAll(async () => {
  await b.app.close();
  await closeSecond();
  await a.close();
});

const get = (t: TestApp, url: string, cookie: string) => request(t.app, { method: "GET", url, cookie });
const post = (t: TestApp, url: string, cookie: string | null, payload: object = {}) =>
  request(t.app, { method: "POST", url, cookie, payload });

/** The second instance answers this cookie from its cache: asked twice, the second from memory. */
async function cachedOnB(cookie: string, url = "/api/tickets", status = 200) {
  for (let i = 0; i < 2; i++) expect((await get(b, url, cookie)).statusCode).toBe(status);
}

/** The second instance answers `status` within a second of the change made on the first. */
async function answersOnBWithinASecond(cookie: string, status: number, url = "/api/tickets") {
  const deadline = Date.now() + 1_000;
  for (;;) {
    const { statusCode } = await get(b, url, cookie);
    if (statusCode === status) return;
    if (Date.now() > deadline) throw new Error(`the second instance still answers ${statusCode} after 1 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function enableTwoFactor(cookie: string) {
  const enabled = await post(a, "/api/auth/two-factor/enable", cookie, { password: testPassword });
  expect(enabled.statusCode, enabled.body).toBe(200);
  const secret = secretOf(enabled.json<{ totpURI: string }>().totpURI);
  const confirmed = await post(a, "/api/auth/two-factor/verify-totp", cookie, { code: totpCode(secret) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return sessionCookieOf(confirmed.headers["set-cookie"]);
}

describe("a change on one instance reaches the other's session cache", () => {
  it("sign-out", async () => {
    const person = await signedInAs(a.app, a.database.db, "user");
    await cachedOnB(person.cookie);
    expect((await post(a, "/api/auth/sign-out", person.cookie)).statusCode).toBe(200);
    await answersOnBWithinASecond(person.cookie, 401);
  });

  it("deactivation in user management", async () => {
    const admin = await signedInAs(a.app, a.database.db, "admin");
    const person = await signedInAs(a.app, a.database.db, "technician");
    await cachedOnB(person.cookie);
    const changed = await request(a.app, {
      method: "PUT",
      url: `/api/admin/users/${person.user.id}/status`,
      cookie: admin.cookie,
      payload: { status: "Inactive" },
    });
    expect(changed.statusCode).toBe(200);
    await answersOnBWithinASecond(person.cookie, 401);
  });

  it("a role changed in user management, and a role chosen on /role-selection", async () => {
    const admin = await signedInAs(a.app, a.database.db, "admin");
    const person = await signedInAs(a.app, a.database.db, "technician");
    await cachedOnB(person.cookie, "/api/technicians");
    const edited = await request(a.app, {
      method: "PATCH",
      url: `/api/admin/users/${person.user.id}`,
      cookie: admin.cookie,
      payload: { name: person.user.name, role: "user", department: "IT", status: "Active" },
    });
    expect(edited.statusCode).toBe(200);
    await answersOnBWithinASecond(person.cookie, 403, "/api/technicians");

    const newcomer = await signedInAs(a.app, a.database.db, null);
    await cachedOnB(newcomer.cookie, "/api/technicians", 403);
    expect((await post(a, "/api/me/role", newcomer.cookie, { role: "technician" })).statusCode).toBe(200);
    await answersOnBWithinASecond(newcomer.cookie, 200, "/api/technicians");
  });

  it("a password reset, which revokes every session of the person", async () => {
    const person = await insertUser(a.database.db, { role: "user" });
    const cookie = await signIn(a.app, person.email);
    await cachedOnB(cookie);
    // The row request-password-reset would write (its mail is tested in accounts.test.ts).
    const token = randomUUID().replaceAll("-", "");
    await a.database.db.insert(verifications).values({
      id: randomUUID(),
      identifier: `reset-password:${token}`,
      value: person.id,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const reset = await post(a, "/api/auth/reset-password", null, {
      token,
      newPassword: `${testPassword}-new`,
    });
    expect(reset.statusCode).toBe(200);
    await answersOnBWithinASecond(cookie, 401);
  });

  it("a session revoked from Sessions, and 'sign out everywhere else'", async () => {
    const person = await insertUser(a.database.db, { role: "user" });
    const [here, laptop, phone] = [
      await signIn(a.app, person.email),
      await signIn(a.app, person.email),
      await signIn(a.app, person.email),
    ];
    for (const cookie of [laptop, phone]) await cachedOnB(cookie);
    const sessions = (await get(a, "/api/me/sessions", laptop)).json<MySessionList>().items;
    const laptopSession = sessions.find((session) => session.isCurrent)!;
    const revoked = await request(a.app, {
      method: "DELETE",
      url: `/api/me/sessions/${laptopSession.id}`,
      cookie: here,
    });
    expect(revoked.statusCode).toBe(204);
    await answersOnBWithinASecond(laptop, 401);

    expect((await post(a, "/api/me/sessions/revoke-others", here)).statusCode).toBe(200);
    await answersOnBWithinASecond(phone, 401);
    expect((await get(b, "/api/tickets", here)).statusCode).toBe(200);
  });

  it("two-factor sign-in turned on, then off (each replaces the session it was changed from)", async () => {
    const person = await signedInAs(a.app, a.database.db, "technician");
    await cachedOnB(person.cookie);
    const enabledCookie = await enableTwoFactor(person.cookie);
    await answersOnBWithinASecond(person.cookie, 401);

    await cachedOnB(enabledCookie);
    const disabled = await post(a, "/api/auth/two-factor/disable", enabledCookie, { password: testPassword });
    expect(disabled.statusCode, disabled.body).toBe(200);
    await answersOnBWithinASecond(enabledCookie, 401);
  });

  it("two-factor sign-in required for staff: a cached technician without it is held at once", async () => {
    const admin = await signedInAs(a.app, a.database.db, "admin");
    const adminCookie = await enableTwoFactor(admin.cookie);
    const technician = await signedInAs(a.app, a.database.db, "technician");
    await cachedOnB(technician.cookie);
    const setRequired = async (requiredForStaff: boolean) => {
      const response = await request(a.app, {
        method: "PUT",
        url: "/api/admin/settings/two-factor",
        cookie: adminCookie,
        payload: { requiredForStaff },
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    await setRequired(true);
    try {
      await answersOnBWithinASecond(technician.cookie, 403);
    } finally {
      await setRequired(false);
    }
    await answersOnBWithinASecond(technician.cookie, 200);
  });
});
