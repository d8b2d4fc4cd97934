import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users, verifications } from "#server/db/schema/index.ts";
import { insertUser, signedInAs, signIn, testPassword } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { createSessionCache } from "./session-cache.ts";

// The session cache (decision 039) answers a known cookie without asking the database for a few seconds;
// everything that ends a session or changes a role through the app must still take effect at the next request.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sessionCacheTtlMs: 60_000 });
});
afterAll(() => t.close());

const get = (url: string, cookie: string) => request(t.app, { method: "GET", url, cookie });
const me = async (cookie: string) => (await get("/api/me", cookie)).json<{ id: string } | null>();

describe("the session cache", () => {
  it("refuses a person deactivated in user management at their very next request", async () => {
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const person = await signedInAs(t.app, t.database.db, "technician");
    // Twice: the second answer comes from the cache.
    for (let i = 0; i < 2; i++) expect((await get("/api/tickets", person.cookie)).statusCode).toBe(200);

    const deactivated = await request(t.app, {
      method: "PUT",
      url: `/api/admin/users/${person.user.id}/status`,
      cookie: admin.cookie,
      payload: { status: "Inactive" },
    });
    expect(deactivated.statusCode).toBe(200);
    expect((await get("/api/tickets", person.cookie)).statusCode).toBe(401);
    expect(await me(person.cookie)).toBeNull();
  });

  it("applies a role change at the next request", async () => {
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const person = await signedInAs(t.app, t.database.db, "user");
    for (let i = 0; i < 2; i++) expect((await get("/api/technicians", person.cookie)).statusCode).toBe(403);

    const edited = await request(t.app, {
      method: "PATCH",
      url: `/api/admin/users/${person.user.id}`,
      cookie: admin.cookie,
      payload: { name: person.user.name, role: "technician", department: "IT", status: "Active" },
    });
    expect(edited.statusCode).toBe(200);
    expect((await get("/api/technicians", person.cookie)).statusCode).toBe(200);

    const back = await request(t.app, {
      method: "PATCH",
      url: `/api/admin/users/${person.user.id}`,
      cookie: admin.cookie,
      payload: { name: person.user.name, role: "user", department: "IT", status: "Active" },
    });
    expect(back.statusCode).toBe(200);
    expect((await get("/api/technicians", person.cookie)).statusCode).toBe(403);
  });

  it("applies the role chosen on /role-selection at the next request", async () => {
    const person = await signedInAs(t.app, t.database.db, null);
    for (let i = 0; i < 2; i++) expect((await get("/api/technicians", person.cookie)).statusCode).toBe(403);
    const chosen = await request(t.app, {
      method: "POST",
      url: "/api/me/role",
      cookie: person.cookie,
      payload: { role: "technician" },
    });
    expect(chosen.statusCode).toBe(200);
    expect((await get("/api/technicians", person.cookie)).statusCode).toBe(200);
  });

  it("refuses a signed-out session at once, and keeps the person's other session", async () => {
    const person = await insertUser(t.database.db, { role: "user" });
    const laptop = await signIn(t.app, person.email);
    const phone = await signIn(t.app, person.email);
    for (const cookie of [laptop, phone]) expect((await me(cookie))?.id).toBe(person.id);

    const out = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-out",
      cookie: laptop,
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    expect(await me(laptop)).toBeNull();
    expect((await get("/api/tickets", laptop)).statusCode).toBe(401);
    expect((await me(phone))?.id).toBe(person.id);
  });

  it("signs a person out everywhere when a password reset revokes their sessions", async () => {
    const person = await insertUser(t.database.db, { role: "user" });
    const cookies = [await signIn(t.app, person.email), await signIn(t.app, person.email)];
    for (const cookie of cookies) expect((await me(cookie))?.id).toBe(person.id);

    // The row request-password-reset would write (its mail is tested in accounts.test.ts).
    const token = randomUUID().replaceAll("-", "");
    await t.database.db.insert(verifications).values({
      id: randomUUID(),
      identifier: `reset-password:${token}`,
      value: person.id,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const reset = await request(t.app, {
      method: "POST",
      url: "/api/auth/reset-password",
      payload: { token, newPassword: `${testPassword}-new` },
    });
    expect(reset.statusCode).toBe(200);
    for (const cookie of cookies) expect((await get("/api/tickets", cookie)).statusCode).toBe(401);
  });

  it("notices a change made behind the app's back (SQL) once the cache's few seconds are over", async () => {
    const short = await createTestApp({ sessionCacheTtlMs: 200, database: t.database });
    try {
      const person = await signedInAs(short.app, t.database.db, "user");
      expect(
        (await request(short.app, { method: "GET", url: "/api/tickets", cookie: person.cookie })).statusCode,
      ).toBe(200);
      await t.database.db.update(users).set({ status: "Inactive" }).where(eq(users.id, person.user.id));
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(
        (await request(short.app, { method: "GET", url: "/api/tickets", cookie: person.cookie })).statusCode,
      ).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe("createSessionCache", () => {
  const session = (id: string) => ({
    actor: { id, role: "user" as const },
    sessionId: `s-${id}`,
    expiresAt: 10_000,
    mustSetUpTwoFactor: false,
  });

  it("forgets an entry after its time to live, at the session's expiry, and on eviction", () => {
    const cache = createSessionCache({ ttlMs: 100, max: 10 });
    cache.set("a", session("u1"), 0);
    cache.set("b", session("u2"), 0);
    expect(cache.get("a", 99)?.actor.id).toBe("u1");
    expect(cache.get("a", 100)).toBeNull();
    cache.set("c", { ...session("u3"), expiresAt: 50 }, 0);
    expect(cache.get("c", 50)).toBeNull();
    const epoch = cache.epoch;
    cache.evictUser("u2");
    expect(cache.get("b", 1)).toBeNull();
    expect(cache.epoch).not.toBe(epoch);
  });

  it("stays within its size, dropping the oldest", () => {
    const cache = createSessionCache({ ttlMs: 1_000, max: 2 });
    for (const key of ["a", "b", "c"]) cache.set(key, session(key), 0);
    expect(cache.size).toBe(2);
    expect(cache.get("a", 1)).toBeNull();
    expect(cache.get("c", 1)?.actor.id).toBe("c");
  });
});
