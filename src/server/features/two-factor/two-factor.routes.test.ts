import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, type UserRow } from "#server/db/schema/index.ts";
import { insertUser, sessionCookieOf, signedInAs, signIn, testPassword } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { secretOf, totpCode } from "#server/test/totp.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import { isTwoFactorPending } from "./two-factor.service.ts";

// Two-factor sign-in through the app's own /api/auth bridge (decision 046), with codes computed the way an
// authenticator app computes them. A minute's session cache: what takes effect must not wait for it.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sessionCacheTtlMs: 60_000 });
});
afterAll(() => t.close());

type Response = Awaited<ReturnType<typeof request>>;

const cookieNamed = (response: Response, name: string): string | null => {
  const raw = response.headers["set-cookie"];
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const found = all.find((cookie) => cookie.startsWith(`${name}=`) && !/Max-Age=0/i.test(cookie));
  return found ? found.split(";")[0]! : null;
};
const twoFactorCookieOf = (response: Response) => cookieNamed(response, "better-auth.two_factor");

const post = (url: string, cookie: string | null, payload: Record<string, unknown> = {}) =>
  request(t.app, { method: "POST", url, cookie, payload });
const get = (url: string, cookie: string) => request(t.app, { method: "GET", url, cookie });
const me = async (cookie: string) => (await get("/api/me", cookie)).json<Me | null>();

/** Sets up an authenticator app for a signed-in person: their new session cookie, secret and recovery codes. */
async function enableTwoFactor(cookie: string) {
  const enabled = await post("/api/auth/two-factor/enable", cookie, { password: testPassword });
  expect(enabled.statusCode, enabled.body).toBe(200);
  const { totpURI, backupCodes } = enabled.json<{ totpURI: string; backupCodes: string[] }>();
  expect(totpURI).toMatch(/^otpauth:\/\/totp\/Helpdesk:/);
  const secret = secretOf(totpURI);
  const confirmed = await post("/api/auth/two-factor/verify-totp", cookie, { code: totpCode(secret) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  // Confirming replaces the session (the old one ends), so the browser gets a new cookie.
  return { cookie: sessionCookieOf(confirmed.headers["set-cookie"]), secret, backupCodes };
}

/** The password step: with two-factor on, no session yet, only the short-lived challenge cookie. */
async function passwordStep(user: UserRow) {
  const response = await post("/api/auth/sign-in/email", null, { email: user.email, password: testPassword });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
  expect(cookieNamed(response, "better-auth.session_token")).toBeNull();
  const challenge = twoFactorCookieOf(response);
  expect(challenge).not.toBeNull();
  return challenge!;
}

describe("two-factor sign-in", () => {
  it("is off until set up, and /api/me says so", async () => {
    const person = await signedInAs(t.app, t.database.db, "technician");
    expect(await me(person.cookie)).toMatchObject({ twoFactorEnabled: false, mustSetUpTwoFactor: false });
  });

  it("asks for the authenticator code after the password once enabled, and signs in with it", async () => {
    const person = await signedInAs(t.app, t.database.db, "technician");
    const { cookie, secret } = await enableTwoFactor(person.cookie);
    expect(await me(cookie)).toMatchObject({ id: person.user.id, twoFactorEnabled: true });

    const challenge = await passwordStep(person.user);
    // The challenge cookie is not a session: the API still says "signed out" with it.
    expect(await me(challenge)).toBeNull();
    const verified = await post("/api/auth/two-factor/verify-totp", challenge, { code: totpCode(secret) });
    expect(verified.statusCode, verified.body).toBe(200);
    const session = sessionCookieOf(verified.headers["set-cookie"]);
    expect((await me(session))?.id).toBe(person.user.id);
    expect((await get("/api/tickets", session)).statusCode).toBe(200);
  });

  it("refuses a wrong code with a clear message and starts no session", async () => {
    const person = await signedInAs(t.app, t.database.db, "user");
    const { secret } = await enableTwoFactor(person.cookie);
    const challenge = await passwordStep(person.user);
    const right = totpCode(secret);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, "0");

    const refused = await post("/api/auth/two-factor/verify-totp", challenge, { code: wrong });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ message: "Invalid code" });
    expect(cookieNamed(refused, "better-auth.session_token")).toBeNull();

    // The same challenge still takes the right code.
    const verified = await post("/api/auth/two-factor/verify-totp", challenge, { code: right });
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it("gives up a challenge after 5 wrong codes: the password must be entered again", async () => {
    const person = await signedInAs(t.app, t.database.db, "user");
    const { secret } = await enableTwoFactor(person.cookie);
    const challenge = await passwordStep(person.user);
    for (let i = 0; i < 5; i++) {
      const refused = await post("/api/auth/two-factor/verify-totp", challenge, { code: "000000" });
      // 000000 could be the right code once in a million runs; then the challenge is spent anyway.
      if (refused.statusCode === 200) return;
      expect(refused.statusCode).toBe(401);
    }
    const sixth = await post("/api/auth/two-factor/verify-totp", challenge, { code: totpCode(secret) });
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json()).toMatchObject({ message: expect.stringContaining("Too many attempts") });
  });

  it("locks the second step for 15 minutes after 10 wrong codes in a row, and says so rather than a minute", async () => {
    const person = await signedInAs(t.app, t.database.db, "technician");
    const { secret } = await enableTwoFactor(person.cookie);
    const wrongCode = () => String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, "0");
    // 5 codes per challenge: two challenges hold the 10 in a row that lock the account's second step.
    for (let challenge = 0; challenge < 2; challenge++) {
      const cookie = await passwordStep(person.user);
      for (let i = 0; i < 5; i++) {
        const refused = await post("/api/auth/two-factor/verify-totp", cookie, { code: wrongCode() });
        expect(refused.statusCode, refused.body).toBe(401);
      }
    }

    const locked = await post("/api/auth/two-factor/verify-totp", await passwordStep(person.user), {
      code: totpCode(secret),
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({
      code: "rate_limited",
      message: "Too many wrong codes: two-factor sign-in to this account is locked. Try again in 15 minutes.",
    });
    const retryAfter = Number(locked.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(cookieNamed(locked, "better-auth.session_token")).toBeNull();

    // A recovery code does not get around it either, and says the same.
    const withRecoveryCode = await post(
      "/api/auth/two-factor/verify-backup-code",
      await passwordStep(person.user),
      { code: "not-a-code" },
    );
    expect(withRecoveryCode.statusCode).toBe(429);
    expect(withRecoveryCode.json().message).toMatch(/Try again in 1[45] minutes\.$/);
  });

  it("takes a recovery code instead of the app's code, each code once", async () => {
    const person = await signedInAs(t.app, t.database.db, "admin");
    const { backupCodes } = await enableTwoFactor(person.cookie);
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    const [code] = backupCodes;

    const first = await post("/api/auth/two-factor/verify-backup-code", await passwordStep(person.user), {
      code,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect((await me(sessionCookieOf(first.headers["set-cookie"])))?.id).toBe(person.user.id);

    const again = await post("/api/auth/two-factor/verify-backup-code", await passwordStep(person.user), {
      code,
    });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ message: "Invalid backup code" });
    expect(cookieNamed(again, "better-auth.session_token")).toBeNull();
  });

  it("is turned off with the password, after which the password alone signs in again", async () => {
    const person = await signedInAs(t.app, t.database.db, "technician");
    const { cookie } = await enableTwoFactor(person.cookie);

    const wrongPassword = await post("/api/auth/two-factor/disable", cookie, { password: "not my password" });
    expect(wrongPassword.statusCode).toBe(400);
    expect((await me(cookie))?.twoFactorEnabled).toBe(true);

    const disabled = await post("/api/auth/two-factor/disable", cookie, { password: testPassword });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect((await me(sessionCookieOf(disabled.headers["set-cookie"])))?.twoFactorEnabled).toBe(false);
    expect((await me(await signIn(t.app, person.user.email)))?.id).toBe(person.user.id);
  });

  it("cannot be set up without the password, nor by someone signed out", async () => {
    const person = await signedInAs(t.app, t.database.db, "user");
    expect((await post("/api/auth/two-factor/enable", person.cookie, { password: "guess" })).statusCode).toBe(
      400,
    );
    expect((await post("/api/auth/two-factor/enable", null, { password: testPassword })).statusCode).toBe(
      401,
    );
    expect((await me(person.cookie))?.twoFactorEnabled).toBe(false);
  });
});

describe("Admin settings: two-factor required for technicians and admins", () => {
  const setRequired = async (adminCookie: string, requiredForStaff: boolean) => {
    const response = await request(t.app, {
      method: "PUT",
      url: "/api/admin/settings/two-factor",
      cookie: adminCookie,
      payload: { requiredForStaff },
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  it("keeps staff without two-factor out of the API until they set it up; users are not affected", async () => {
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const { cookie: adminCookie } = await enableTwoFactor(admin.cookie);
    const technician = await signedInAs(t.app, t.database.db, "technician");
    const otherAdmin = await signedInAs(t.app, t.database.db, "admin");
    const user = await signedInAs(t.app, t.database.db, "user");
    // Cached as allowed before the setting changes.
    expect((await get("/api/tickets", technician.cookie)).statusCode).toBe(200);

    const nonAdmin = await request(t.app, {
      method: "PUT",
      url: "/api/admin/settings/two-factor",
      cookie: technician.cookie,
      payload: { requiredForStaff: true },
    });
    expect(nonAdmin.statusCode).toBe(403);

    await setRequired(adminCookie, true);
    try {
      // Held at once: a new sign-in, and a session that had not been cached yet.
      const fresh = await signIn(t.app, technician.user.email);
      for (const cookie of [fresh, otherAdmin.cookie]) {
        const refused = await get("/api/tickets", cookie);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({
          message: expect.stringContaining("Set up two-factor sign-in"),
        });
        expect(await me(cookie)).toMatchObject({ mustSetUpTwoFactor: true, twoFactorEnabled: false });
      }
      // Not even a token can be made to get around it.
      expect((await post("/api/me/tokens", fresh, { name: "way round", scope: "write" })).statusCode).toBe(
        403,
      );
      expect((await get("/api/tickets", user.cookie)).statusCode).toBe(200);
      expect((await me(user.cookie))?.mustSetUpTwoFactor).toBe(false);
      expect((await get("/api/tickets", adminCookie)).statusCode).toBe(200);

      // Setting it up (through /api/auth, which stays open) lets them in.
      const { cookie } = await enableTwoFactor(fresh);
      expect((await get("/api/tickets", cookie)).statusCode).toBe(200);
      expect(await me(cookie)).toMatchObject({ mustSetUpTwoFactor: false, twoFactorEnabled: true });
    } finally {
      await setRequired(adminCookie, false);
    }
    const later = await signIn(t.app, otherAdmin.user.email);
    expect((await get("/api/tickets", later)).statusCode).toBe(200);
  });
});

describe("a person with no password (Google or OIDC only)", () => {
  it("is not held by the requirement: their identity provider does the second factor", async () => {
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const { cookie: adminCookie } = await enableTwoFactor(admin.cookie);
    const ssoOnly = await insertUser(t.database.db, { role: "technician" });
    await t.database.db.delete(accounts).where(eq(accounts.userId, ssoOnly.id));
    const withPassword = await insertUser(t.database.db, { role: "technician" });
    await request(t.app, {
      method: "PUT",
      url: "/api/admin/settings/two-factor",
      cookie: adminCookie,
      payload: { requiredForStaff: true },
    });
    try {
      const facts = (u: UserRow) => ({ id: u.id, role: "technician" as const, twoFactorEnabled: false });
      expect(await isTwoFactorPending(t.database.db, facts(ssoOnly))).toBe(false);
      expect(await isTwoFactorPending(t.database.db, facts(withPassword))).toBe(true);
    } finally {
      await request(t.app, {
        method: "PUT",
        url: "/api/admin/settings/two-factor",
        cookie: adminCookie,
        payload: { requiredForStaff: false },
      });
    }
  });
});
