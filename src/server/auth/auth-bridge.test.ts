import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, sessions, users } from "#server/db/schema/index.ts";
import { insertUser, sessionCookieOf, signIn, testPassword } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sessionCount = async (userId: string) =>
  (await t.database.db.select().from(sessions).where(eq(sessions.userId, userId))).length;

describe("session tokens stay in the HttpOnly cookie", () => {
  it("leaves the token out of the sign-up, sign-in and get-session bodies", async () => {
    const signUp = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-up/email",
      payload: { name: "Tia", email: "tia@example.test", password: "password123" },
    });
    expect(signUp.statusCode).toBe(200);
    expect(signUp.json()).toMatchObject({ user: { email: "tia@example.test" } });
    expect(signUp.json()).not.toHaveProperty("token");

    const signInResponse = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email: "tia@example.test", password: "password123" },
    });
    expect(signInResponse.statusCode).toBe(200);
    expect(signInResponse.json()).toMatchObject({ user: { email: "tia@example.test" } });
    expect(signInResponse.json()).not.toHaveProperty("token");
    const cookie = sessionCookieOf(signInResponse.headers["set-cookie"]);
    // The cookie holds "<token>.<signature>"; the token alone must appear in no body.
    const token = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1)).split(".")[0] ?? "";
    expect(token.length).toBeGreaterThan(16);

    const session = await request(t.app, { method: "GET", url: "/api/auth/get-session", cookie });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user: { email: "tia@example.test" }, session: {} });
    expect(session.json().session).not.toHaveProperty("token");
    for (const response of [signUp, signInResponse, session]) expect(response.body).not.toContain(token);
  });
});

describe("a deactivated person", () => {
  it("is signed out by get-session, and their sessions end", async () => {
    const user = await insertUser(t.database.db);
    const cookie = await signIn(t.app, user.email);
    await t.database.db.update(users).set({ status: "Inactive" }).where(eq(users.id, user.id));

    const response = await request(t.app, { method: "GET", url: "/api/auth/get-session", cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toBeNull();
    expect(await sessionCount(user.id)).toBe(0);
    const cleared = [response.headers["set-cookie"]].flat().join("\n");
    expect(cleared).toMatch(/better-auth\.session_token=;.*Max-Age=0/);
  });
});

describe("input better-auth cannot store", () => {
  // Written out by hand: JSON.stringify itself would overflow the stack at this depth.
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}"x"${"}".repeat(depth)}`;

  it.each(["/api/auth/sign-in/email", "/api/auth/sign-up/email", "/api/auth/reset-password"])(
    "refuses deeply nested JSON to %s with 400",
    async (url) => {
      const response = await request(t.app, {
        method: "POST",
        url,
        headers: { "content-type": "application/json" },
        payload: `{"email":"deep@example.test","password":"password123","name":${nested(10_000)}}`,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed", message: expect.any(String) });
    },
  );

  it("refuses a NUL character in a reset token with 400 naming the field, and changes no password", async () => {
    const user = await insertUser(t.database.db);
    const [before] = await t.database.db.select().from(accounts).where(eq(accounts.userId, user.id));
    const response = await request(t.app, {
      method: "POST",
      url: "/api/auth/reset-password",
      payload: { token: "abc\u0000def", newPassword: "a new password" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: "validation_failed",
      message: "token: Token must not contain control characters",
    });
    const [after] = await t.database.db.select().from(accounts).where(eq(accounts.userId, user.id));
    expect(after?.password).toBe(before?.password);
    expect(await signIn(t.app, user.email, testPassword)).toMatch(/^better-auth\.session_token=/);
  });

  it("refuses a NUL character in a sign-in e-mail with 400 naming the field", async () => {
    const response = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email: "a\u0000@example.test", password: "password123" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("email: Email must not contain control characters");
  });
});
