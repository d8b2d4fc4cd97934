import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "#server/db/schema/index.ts";
import { insertUser, sessionCookieOf, testPassword } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const signUp = (payload: Record<string, unknown>, headers: Record<string, string> = {}, app = t.app) =>
  request(app, { method: "POST", url: "/api/auth/sign-up/email", payload, headers });

const countUsersWithEmail = async (email: string) =>
  (await t.database.db.select().from(users).where(eq(users.email, email))).length;

describe("sign-up", () => {
  it("creates a user with the default role user and signs them in", async () => {
    const response = await signUp({ name: "Ann", email: "ann@example.test", password: "password123" });
    expect(response.statusCode).toBe(200);
    const cookie = sessionCookieOf(response.headers["set-cookie"]);
    const me = await request(t.app, { method: "GET", url: "/api/me", cookie });
    expect(me.json()).toMatchObject({
      name: "Ann",
      email: "ann@example.test",
      role: "user",
      department: "General",
      status: "Active",
    });
  });

  it("stores the password as an argon2id hash", async () => {
    await signUp({ name: "Hash", email: "hash@example.test", password: "password123" });
    const [row] = await t.database.db.select().from(users).where(eq(users.email, "hash@example.test"));
    const account = await t.database.db.query.accounts.findFirst({
      where: (a, { eq: equals }) => equals(a.userId, row!.id),
    });
    expect(account?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("creates a technician when asked", async () => {
    const response = await signUp({
      name: "Tom",
      email: "tom@example.test",
      password: "password123",
      role: "technician",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().user.role).toBe("technician");
  });

  it.each([
    ["admin", "role: Role must be user or technician"],
    ["superuser", "role: Role must be user or technician"],
    [7, "role: Role must be user or technician"],
  ])("refuses role %s with 400 and writes no user", async (role, message) => {
    const email = `role-${String(role)}@example.test`;
    const response = await signUp({ name: "Eve", email, password: "password123", role });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await countUsersWithEmail(email)).toBe(0);
  });

  it("refuses a password shorter than 8 characters and writes no user", async () => {
    const response = await signUp({ name: "Short", email: "short@example.test", password: "1234567" });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("password: Password must be at least 8 characters");
    expect(await countUsersWithEmail("short@example.test")).toBe(0);
  });

  it("refuses a missing name with a readable message", async () => {
    const response = await signUp({ email: "noname@example.test", password: "password123" });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("name: Name is required");
  });
});

describe("sign-in and sign-out", () => {
  it("signs in with the right password, records lastLogin, and signs out", async () => {
    const user = await insertUser(t.database.db, { role: "user" });
    expect(user.lastLogin).toBeNull();
    const response = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email: user.email, password: testPassword },
    });
    expect(response.statusCode).toBe(200);
    const cookie = sessionCookieOf(response.headers["set-cookie"]);
    const [stored] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(stored!.lastLogin).toBeInstanceOf(Date);

    expect((await request(t.app, { method: "GET", url: "/api/me", cookie })).statusCode).toBe(200);
    const out = await request(t.app, { method: "POST", url: "/api/auth/sign-out", cookie, payload: {} });
    expect(out.statusCode).toBe(200);
    const after = await request(t.app, { method: "GET", url: "/api/me", cookie });
    expect([after.statusCode, after.json()]).toEqual([200, null]);
  });

  it("refuses a wrong password with 401", async () => {
    const user = await insertUser(t.database.db);
    const response = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email: user.email, password: "not the password" },
    });
    expect(response.statusCode).toBe(401);
  });

  it("refuses a deactivated account with a clear message", async () => {
    const user = await insertUser(t.database.db, { status: "Inactive" });
    const response = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email: user.email, password: testPassword },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe("This account has been deactivated. Contact your administrator.");
  });
});

describe("rate limiting", () => {
  it("answers rapid sign-in attempts with 429 and says when to try again, whatever X-Forwarded-For says", async () => {
    const limited = await createTestApp({ credentialRateLimit: { window: 60, max: 3 } });
    try {
      const attempt = (ip: string) =>
        request(limited.app, {
          method: "POST",
          url: "/api/auth/sign-in/email",
          payload: { email: "nobody@example.test", password: "wrong password" },
          headers: { "x-forwarded-for": ip },
        });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await attempt(`10.0.0.${i}`)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const blocked = await attempt("10.9.9.9");
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
      expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
