import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens, type UserRow, users } from "#server/db/schema/index.ts";
import { createTestClock } from "#server/test/clock.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { ApiToken, CreatedApiToken } from "#shared/api-tokens/api-token.schemas.ts";

let t: TestApp;
const clock = createTestClock(new Date());
type Person = { user: UserRow; cookie: string };
let user: Person;
let otherUser: Person;
let technician: Person;
let admin: Person;

beforeAll(async () => {
  t = await createTestApp({ clock });
  const { app, database } = t;
  user = await signedInAs(app, database.db, "user");
  otherUser = await signedInAs(app, database.db, "user");
  technician = await signedInAs(app, database.db, "technician");
  admin = await signedInAs(app, database.db, "admin");
});
afterAll(() => t.close());

const url = "/api/me/tokens";
const validTicket = {
  title: "Laptop will not boot",
  description: "Black screen after the logo.",
  category: "Hardware",
  priority: "High",
  department: "Finance",
  floor: "3",
  officeNumber: "301",
};

async function createToken(person: Person, payload: Record<string, unknown> = {}) {
  const response = await request(t.app, {
    method: "POST",
    url,
    cookie: person.cookie,
    payload: { name: "Monitoring script", scope: "write", ...payload },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedApiToken>();
}

/** A request with the token alone: no cookie, no Origin (as curl sends it). */
const withToken = (
  token: string,
  options: { method?: "GET" | "POST" | "PATCH"; url: string; payload?: unknown },
) =>
  t.app.inject({
    method: options.method ?? "GET",
    url: options.url,
    headers: { authorization: `Bearer ${token}` },
    ...(options.payload === undefined ? {} : { payload: options.payload as Record<string, unknown> }),
  });

const listOf = async (person: Person) => {
  const response = await request(t.app, { method: "GET", url, cookie: person.cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ items: ApiToken[] }>().items;
};

describe("/api/me/tokens", () => {
  it("creates a token shown once, lists a person's own tokens only, never with the secret or its hash", async () => {
    const created = await createToken(user, { name: "Nightly export", scope: "read", expiresInDays: 30 });
    expect(created.token).toMatch(/^hd_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: "Nightly export", scope: "read", prefix: `hd_${created.id}` });
    expect(created.token.startsWith(created.prefix)).toBe(true);
    expect(new Date(created.expiresAt ?? 0).getTime() - new Date(created.createdAt).getTime()).toBe(
      30 * 86_400_000,
    );

    const mine = await listOf(user);
    expect(mine.map((token) => token.id)).toContain(created.id);
    // The secret is base64url, so it may hold "_" itself: everything after hd_<id>_.
    const secret = created.token.split("_").slice(2).join("_");
    expect(secret).toHaveLength(43);
    expect(JSON.stringify(mine)).not.toContain(secret);
    expect(mine[0]).not.toHaveProperty("token");
    expect(mine[0]).not.toHaveProperty("tokenHash");
    expect((await listOf(otherUser)).map((token) => token.id)).not.toContain(created.id);

    const [row] = await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it("revokes one's own token; another person's token is not found (404) and keeps working", async () => {
    const mine = await createToken(user);
    const response = await request(t.app, {
      method: "DELETE",
      url: `${url}/${mine.id}`,
      cookie: otherUser.cookie,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(`Token ${mine.id} not found`);
    expect((await withToken(mine.token, { url: "/api/tickets" })).statusCode).toBe(200);

    const revoke = await request(t.app, { method: "DELETE", url: `${url}/${mine.id}`, cookie: user.cookie });
    expect(revoke.statusCode).toBe(204);
    expect((await listOf(user)).map((token) => token.id)).not.toContain(mine.id);
    const refused = await withToken(mine.token, { url: "/api/tickets" });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toMatch(/revoked/);
  });

  it("refuses anonymous people (401) and names the field a wrong body gets wrong (400)", async () => {
    for (const method of ["GET", "POST"] as const) {
      const response = await request(t.app, { method, url, payload: method === "POST" ? {} : undefined });
      expect(response.statusCode).toBe(401);
    }
    expect((await request(t.app, { method: "DELETE", url: `${url}/0123456789abcdef` })).statusCode).toBe(401);

    for (const [payload, message] of [
      [{ scope: "read" }, /Name is required/],
      [{ name: "x", scope: "admin" }, /Scope must be read or write/],
      [{ name: "x", scope: "read", expiresInDays: 12 }, /Expires in days must be 7, 30, 90, 365/],
      [{ name: "bad\u0000name", scope: "read" }, /Name/],
    ] as const) {
      const response = await request(t.app, { method: "POST", url, cookie: user.cookie, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });

  it("works alike for every role on one's own tokens; another person's token is 404 for everyone; no role is 403", async () => {
    const owner = await signedInAs(t.app, t.database.db, "user");
    const theirs = await createToken(owner);
    for (const person of [user, technician, admin]) {
      const created = await request(t.app, {
        method: "POST",
        url,
        cookie: person.cookie,
        payload: { name: "Matrix", scope: "read" },
      });
      expect(created.statusCode, `${person.user.role} POST`).toBe(201);
      const listed = await request(t.app, { method: "GET", url, cookie: person.cookie });
      expect(listed.statusCode).toBe(200);
      expect(listed.json<{ items: ApiToken[] }>().items.map((item) => item.id)).not.toContain(theirs.id);
      const foreign = await request(t.app, {
        method: "DELETE",
        url: `${url}/${theirs.id}`,
        cookie: person.cookie,
      });
      expect(foreign.statusCode, `${person.user.role} DELETE another's`).toBe(404);
      const own = await request(t.app, {
        method: "DELETE",
        url: `${url}/${created.json<CreatedApiToken>().id}`,
        cookie: person.cookie,
      });
      expect(own.statusCode, `${person.user.role} DELETE own`).toBe(204);
    }
    expect((await withToken(theirs.token, { url: "/api/tickets" })).statusCode).toBe(200);

    const roleless = await signedInAs(t.app, t.database.db, null);
    for (const method of ["GET", "POST"] as const) {
      const response = await request(t.app, {
        method,
        url,
        cookie: roleless.cookie,
        payload: method === "POST" ? { name: "x", scope: "read" } : undefined,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toMatch(/Choose your role first/);
    }
  });

  it("cannot be used with a token: a token cannot list, mint or revoke tokens (403)", async () => {
    const { token, id } = await createToken(admin);
    for (const [method, target, payload] of [
      ["GET", url, undefined],
      ["POST", url, { name: "Child", scope: "write" }],
      ["POST", url, { nonsense: true }],
      ["DELETE", `${url}/${id}`, undefined],
    ] as const) {
      const response = await t.app.inject({
        method,
        url: target,
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, `${method} ${target}`).toBe(403);
      expect(response.json().message).toMatch(/API tokens cannot list, create or revoke tokens/);
    }
    expect((await listOf(admin)).map((item) => item.id)).toEqual([id]);
  });

  it("allows 20 active tokens per person, then asks to revoke one (409)", async () => {
    const person = await signedInAs(t.app, t.database.db, "user");
    for (let i = 0; i < 20; i += 1) await createToken(person, { name: `Token ${i}` });
    const response = await request(t.app, {
      method: "POST",
      url,
      cookie: person.cookie,
      payload: { name: "One too many", scope: "read" },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/20 active tokens. Revoke one/);
  });
});

describe("a token acts as its owner, with exactly the owner's permissions", () => {
  it("answers like the owner's cookie: a user sees only their own tickets, a technician cannot create one", async () => {
    const own = await insertTicket(t.database.db, { createdBy: user.user.id, title: "Mine" });
    const others = await insertTicket(t.database.db, { createdBy: otherUser.user.id, title: "Theirs" });

    for (const person of [user, otherUser, technician, admin]) {
      const { token } = await createToken(person);
      for (const target of [
        "/api/tickets",
        `/api/tickets/${own.id}`,
        `/api/tickets/${others.id}`,
        "/api/me",
      ]) {
        const byCookie = await request(t.app, { method: "GET", url: target, cookie: person.cookie });
        const byToken = await withToken(token, { url: target });
        expect(byToken.statusCode, `${person.user.role} GET ${target}`).toBe(byCookie.statusCode);
        expect(byToken.json(), `${person.user.role} GET ${target}`).toEqual(byCookie.json());
      }
    }

    const userToken = (await createToken(user)).token;
    const listed = (await withToken(userToken, { url: "/api/tickets" })).json<{
      items: { ticketId: string }[];
    }>();
    expect(listed.items.map((ticket) => ticket.ticketId)).toContain(own.id);
    expect(listed.items.map((ticket) => ticket.ticketId)).not.toContain(others.id);
    expect((await withToken(userToken, { url: `/api/tickets/${others.id}` })).statusCode).toBe(404);

    const technicianToken = (await createToken(technician)).token;
    const refused = await withToken(technicianToken, {
      method: "POST",
      url: "/api/tickets",
      payload: validTicket,
    });
    expect(refused.statusCode).toBe(403);
    const created = await withToken(userToken, { method: "POST", url: "/api/tickets", payload: validTicket });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ createdBy: user.user.id });
  });

  it("a read-only token may read but not change anything (403)", async () => {
    const { token } = await createToken(user, { scope: "read" });
    expect((await withToken(token, { url: "/api/tickets" })).statusCode).toBe(200);
    const response = await withToken(token, { method: "POST", url: "/api/tickets", payload: validTicket });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/This token is read-only/);
  });

  it("refuses an unknown or malformed token with 401, even with a valid cookie alongside", async () => {
    const { token } = await createToken(user);
    const forged = `${token.slice(0, -4)}AAAA`;
    for (const bearer of [forged, "hd_0123456789abcdef_nope", "not-a-token", ""]) {
      const response = await t.app.inject({
        method: "GET",
        url: "/api/tickets",
        headers: { authorization: `Bearer ${bearer}`, cookie: user.cookie },
      });
      expect(response.statusCode, bearer).toBe(401);
      expect(response.json().message).toMatch(/API token is not valid/);
    }
  });

  it("is refused once its owner is deactivated, and works again on reactivation", async () => {
    const person = await signedInAs(t.app, t.database.db, "technician");
    const { token } = await createToken(person);
    const setStatus = (status: "Active" | "Inactive") =>
      request(t.app, {
        method: "PUT",
        url: `/api/admin/users/${person.user.id}/status`,
        cookie: admin.cookie,
        payload: { status },
      });
    expect((await setStatus("Inactive")).statusCode).toBe(200);
    const refused = await withToken(token, { url: "/api/tickets" });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toMatch(/deactivated/);
    expect((await setStatus("Active")).statusCode).toBe(200);
    expect((await withToken(token, { url: "/api/tickets" })).statusCode).toBe(200);
  });

  it("is refused when its owner has no role", async () => {
    const person = await signedInAs(t.app, t.database.db, "user");
    const { token } = await createToken(person);
    await t.database.db.update(users).set({ role: null }).where(eq(users.id, person.user.id));
    const response = await withToken(token, { url: "/api/tickets" });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toMatch(/has no role/);
  });

  it("is refused once it expires", async () => {
    const { token } = await createToken(user, { expiresInDays: 7 });
    clock.advance(7 * 86_400_000 - 1000);
    expect((await withToken(token, { url: "/api/tickets" })).statusCode).toBe(200);
    clock.advance(1000);
    const response = await withToken(token, { url: "/api/tickets" });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toMatch(/expired on/);
  });

  it("records its last use, at most once a minute", async () => {
    const { token, id } = await createToken(user);
    const lastUsed = async () =>
      (await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, id)))[0]?.lastUsedAt ?? null;
    expect(await lastUsed()).toBeNull();
    await withToken(token, { url: "/api/tickets" });
    const first = await lastUsed();
    expect(first).not.toBeNull();
    clock.advance(30_000);
    await withToken(token, { url: "/api/tickets" });
    expect(await lastUsed()).toEqual(first);
    clock.advance(31_000);
    await withToken(token, { url: "/api/tickets" });
    expect(await lastUsed()).toEqual(clock.now());
  });
});

describe("requests from other sites", () => {
  it("lets a token's request through without an Origin check, but a cookie's request from another site is refused", async () => {
    const { token } = await createToken(user);
    const byToken = await t.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: { authorization: `Bearer ${token}`, origin: "https://evil.example" },
      payload: validTicket,
    });
    expect(byToken.statusCode, byToken.body).toBe(201);

    const byCookie = await t.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: { cookie: user.cookie, origin: "https://evil.example" },
      payload: validTicket,
    });
    expect(byCookie.statusCode).toBe(403);
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After once a token made too many requests in the window", async () => {
    const limited = await createTestApp({ apiTokenRateLimit: { window: 60, max: 3 } });
    try {
      const person = await signedInAs(limited.app, limited.database.db, "user");
      const created = await request(limited.app, {
        method: "POST",
        url,
        cookie: person.cookie,
        payload: { name: "Busy script", scope: "read" },
      });
      const { token } = created.json<CreatedApiToken>();
      const call = () =>
        limited.app.inject({
          method: "GET",
          url: "/api/tickets",
          headers: { authorization: `Bearer ${token}` },
        });
      for (let i = 0; i < 3; i += 1) {
        const answer = await call();
        expect(answer.statusCode).toBe(200);
        // Decision 078: the IETF RateLimit fields on every answer to a token.
        expect(answer.headers["ratelimit-policy"]).toBe('"api-token";q=3;w=60');
        expect(answer.headers.ratelimit).toMatch(new RegExp(`^"api-token";r=${2 - i};t=\\d+$`));
      }
      const refused = await call();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(refused.headers.ratelimit).toBe(`"api-token";r=0;t=${refused.headers["retry-after"]}`);
      expect(refused.headers["ratelimit-policy"]).toBe('"api-token";q=3;w=60');
      // The owner's own session is not limited by their script (and so carries no RateLimit fields).
      const inBrowser = await request(limited.app, {
        method: "GET",
        url: "/api/tickets",
        cookie: person.cookie,
      });
      expect(inBrowser.statusCode).toBe(200);
      expect(inBrowser.headers.ratelimit).toBeUndefined();
    } finally {
      await limited.close();
    }
  });
});
