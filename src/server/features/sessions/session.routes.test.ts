import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createInProcessBus } from "#server/realtime/bus.ts";
import { insertUser, signedInAs, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { MySessionList } from "#shared/users/session.schemas.ts";

// A minute's session cache (decision 039): a revoked browser refused at its next request proves the
// revocation evicts the cache, rather than the cache expiring by itself.
let t: TestApp;
let other: TestApp;
beforeAll(async () => {
  // A second instance on the same database: with PostgreSQL it hears the first over LISTEN/NOTIFY; with
  // PGlite (one process in production) the two share an in-process bus.
  const bus = process.env.TEST_DATABASE_URL ? undefined : createInProcessBus();
  t = await createTestApp({ sessionCacheTtlMs: 60_000, bus });
  other = await createTestApp({ sessionCacheTtlMs: 60_000, database: t.database, bus });
});
afterAll(async () => {
  await other.app.close();
  await t.close();
});

const get = (url: string, cookie: string, app = t.app) => request(app, { method: "GET", url, cookie });
const sessionsOf = async (cookie: string) => {
  const response = await get("/api/me/sessions", cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<MySessionList>().items;
};
const revoke = (cookie: string, sessionId: string) =>
  request(t.app, { method: "DELETE", url: `/api/me/sessions/${sessionId}`, cookie });
const revokeOthers = (cookie: string) =>
  request(t.app, { method: "POST", url: "/api/me/sessions/revoke-others", cookie });

describe("GET /api/me/sessions", () => {
  it("refuses an anonymous caller", async () => {
    const response = await request(t.app, { method: "GET", url: "/api/me/sessions" });
    expect(response.statusCode).toBe(401);
  });

  it("lists the caller's own signed-in browsers, marks this one, and shows no one else's", async () => {
    const person = await insertUser(t.database.db, { role: "technician" });
    const laptop = await signIn(t.app, person.email);
    const phone = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148" },
      payload: { email: person.email, password: "correct horse battery" },
    });
    expect(phone.statusCode).toBe(200);
    await signedInAs(t.app, t.database.db, "technician");

    const items = await sessionsOf(laptop);
    expect(items).toHaveLength(2);
    expect(items.filter((s) => s.isCurrent)).toHaveLength(1);
    const iphone = items.find((s) => s.userAgent?.includes("iPhone"));
    expect(iphone).toMatchObject({ isCurrent: false, ipAddress: "127.0.0.1" });
    expect(Date.parse(iphone!.createdAt)).not.toBeNaN();
    expect(Date.parse(iphone!.lastActiveAt)).not.toBeNaN();
  });
});

describe("DELETE /api/me/sessions/:id", () => {
  it("ends another browser's session: it is refused at its next request, here and on another instance", async () => {
    const person = await insertUser(t.database.db, { role: "user" });
    const laptop = await signIn(t.app, person.email);
    const phone = await signIn(t.app, person.email);
    // Twice on each instance: the second answer comes from the session cache.
    for (const app of [t.app, other.app])
      for (let i = 0; i < 2; i++) expect((await get("/api/tickets", phone, app)).statusCode).toBe(200);

    const phoneSession = (await sessionsOf(laptop)).find((s) => !s.isCurrent)!;
    const response = await revoke(laptop, phoneSession.id);
    expect(response.statusCode, response.body).toBe(204);

    expect((await get("/api/tickets", phone)).statusCode).toBe(401);
    await vi.waitFor(async () => expect((await get("/api/tickets", phone, other.app)).statusCode).toBe(401));
    expect((await get("/api/tickets", laptop)).statusCode).toBe(200);
    expect((await sessionsOf(laptop)).map((s) => s.id)).not.toContain(phoneSession.id);
  });

  it("answers 404 for someone else's session and leaves it alone", async () => {
    const owner = await signedInAs(t.app, t.database.db, "user");
    const intruder = await signedInAs(t.app, t.database.db, "admin");
    const [ownerSession] = await sessionsOf(owner.cookie);

    const response = await revoke(intruder.cookie, ownerSession!.id);
    expect(response.statusCode).toBe(404);
    expect((await get("/api/tickets", owner.cookie)).statusCode).toBe(200);
  });

  it("refuses to end the session in use, pointing to Sign Out", async () => {
    const person = await signedInAs(t.app, t.database.db, "user");
    const [current] = await sessionsOf(person.cookie);
    const response = await revoke(person.cookie, current!.id);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ message: expect.stringContaining("Sign Out") });
    expect((await get("/api/tickets", person.cookie)).statusCode).toBe(200);
  });

  it("refuses an API token", async () => {
    const person = await signedInAs(t.app, t.database.db, "user");
    const created = await request(t.app, {
      method: "POST",
      url: "/api/me/tokens",
      cookie: person.cookie,
      payload: { name: "script", scope: "write" },
    });
    const { token } = created.json<{ token: string }>();
    const listed = await request(t.app, {
      method: "GET",
      url: "/api/me/sessions",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(listed.statusCode).toBe(403);
  });
});

describe("POST /api/me/sessions/revoke-others", () => {
  it("signs the person out everywhere else and keeps this browser signed in", async () => {
    const person = await insertUser(t.database.db, { role: "admin" });
    const here = await signIn(t.app, person.email);
    const elsewhere = [await signIn(t.app, person.email), await signIn(t.app, person.email)];
    const someoneElse = await signedInAs(t.app, t.database.db, "admin");
    for (const cookie of elsewhere) expect((await get("/api/tickets", cookie)).statusCode).toBe(200);

    const response = await revokeOthers(here);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ revoked: 2 });

    for (const cookie of elsewhere) expect((await get("/api/tickets", cookie)).statusCode).toBe(401);
    expect((await get("/api/tickets", here)).statusCode).toBe(200);
    expect((await get("/api/tickets", someoneElse.cookie)).statusCode).toBe(200);
    expect(await sessionsOf(here)).toHaveLength(1);
  });
});
