import { eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimits, sessions } from "#server/db/schema/index.ts";
import { insertUser, testPassword } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { createPasswordCheckGate } from "./password-check-gate.ts";
import { addressKey } from "./sign-in-limits.ts";

const signIn = (
  t: TestApp,
  email: string,
  password: string,
  from: { remoteAddress?: string; forwardedFor?: string } = {},
) =>
  request(t.app, {
    method: "POST",
    url: "/api/auth/sign-in/email",
    payload: { email, password },
    remoteAddress: from.remoteAddress ?? "127.0.0.1",
    headers: from.forwardedFor ? { "x-forwarded-for": from.forwardedFor } : {},
  });

/** Moves every stored counter `seconds` into the past, as if that much time had gone by. */
const letTimePass = (t: TestApp, seconds: number) =>
  t.database.db.update(rateLimits).set({ lastRequest: sql`${rateLimits.lastRequest} - ${seconds * 1000}` });

const sessionAddressOf = async (t: TestApp, userId: string) =>
  (await t.database.db.select().from(sessions).where(eq(sessions.userId, userId))).at(-1)?.ipAddress;

describe("sign-in limits with the default numbers (10 failures a minute per address, 20 per account)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      credentialRateLimit: { window: 60, max: 10 },
      accountRateLimit: { window: 900, max: 20 },
    });
  });
  afterAll(() => t.close());

  it("lets a Monday-morning wave of correct sign-ins from one office address through", async () => {
    const staff = [];
    for (let i = 0; i < 12; i++) staff.push(await insertUser(t.database.db));
    const statuses = [];
    for (const person of staff) {
      statuses.push(
        (await signIn(t, person.email, testPassword, { remoteAddress: "203.0.113.7" })).statusCode,
      );
    }
    // The same person again and again (a reload, a second browser) is no failure either.
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await signIn(t, staff[0]!.email, testPassword, { remoteAddress: "203.0.113.7" })).statusCode,
      );
    }
    expect(statuses).toEqual(Array(15).fill(200));
  });
});

describe("failed sign-ins per address", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      credentialRateLimit: { window: 60, max: 3 },
      accountRateLimit: { window: 900, max: 100 },
    });
  });
  afterAll(() => t.close());

  it("refuses an address after N failures, even with the right password, and says when to retry", async () => {
    const victim = await insertUser(t.database.db);
    const from = { remoteAddress: "198.51.100.1" };
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await signIn(t, `guess${i}@example.test`, "wrong", from)).statusCode);
    expect(statuses).toEqual([401, 401, 401]);

    const refused = await signIn(t, victim.email, testPassword, from);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: "rate_limited" });
    expect(refused.json().message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(50);
  });

  it("still lets another address sign in to another account", async () => {
    const other = await insertUser(t.database.db);
    for (let i = 0; i < 3; i++) await signIn(t, other.email, "wrong", { remoteAddress: "198.51.100.2" });
    const colleague = await insertUser(t.database.db);
    const response = await signIn(t, colleague.email, testPassword, { remoteAddress: "198.51.100.3" });
    expect(response.statusCode).toBe(200);
  });

  it("counts a whole IPv6 /64 as one address", async () => {
    for (let i = 0; i < 3; i++)
      await signIn(t, "nobody@example.test", "wrong", { remoteAddress: `2001:db8:1:2::${i + 1}` });
    const response = await signIn(t, "nobody@example.test", "wrong", {
      remoteAddress: "2001:db8:1:2:ffff::9",
    });
    expect(response.statusCode).toBe(429);
  });
});

describe("failed sign-ins per account", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      credentialRateLimit: { window: 60, max: 100 },
      accountRateLimit: { window: 300, max: 3 },
    });
  });
  afterAll(() => t.close());

  it("limits an account guessed at from many addresses, leaves other accounts alone, and lets the owner in after the window", async () => {
    const target = await insertUser(t.database.db);
    const bystander = await insertUser(t.database.db);
    for (let i = 0; i < 3; i++) {
      const response = await signIn(t, target.email.toUpperCase(), "wrong", {
        remoteAddress: `192.0.2.${i + 10}`,
      });
      expect(response.statusCode).toBe(401);
    }

    const owner = await signIn(t, target.email, testPassword, { remoteAddress: "192.0.2.200" });
    expect(owner.statusCode).toBe(429);
    expect(Number(owner.headers["retry-after"])).toBeLessThanOrEqual(300);
    expect(
      (await signIn(t, bystander.email, testPassword, { remoteAddress: "192.0.2.200" })).statusCode,
    ).toBe(200);

    await letTimePass(t, 301);
    expect((await signIn(t, target.email, testPassword, { remoteAddress: "192.0.2.200" })).statusCode).toBe(
      200,
    );
  });

  it("forgets an account's failures once its owner signs in", async () => {
    const person = await insertUser(t.database.db);
    const statuses = [];
    for (const password of ["typo", "typo", testPassword, "typo", "typo", testPassword]) {
      statuses.push((await signIn(t, person.email, password)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 200, 401, 401, 200]);
  });
});

describe("simultaneous wrong passwords (a slot is taken before the password is checked)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      credentialRateLimit: { window: 60, max: 10 },
      accountRateLimit: { window: 900, max: 20 },
    });
  });
  afterAll(() => t.close());

  /** Sends every attempt at once; a 401 is a password that was checked, a 429 one that was not. */
  const burst = (attempts: Array<{ email: string; password: string; remoteAddress: string }>) =>
    Promise.all(
      attempts.map(({ email, password, remoteAddress }) => signIn(t, email, password, { remoteAddress })),
    );
  const statusCounts = (responses: Array<{ statusCode: number }>) =>
    responses.reduce<Record<number, number>>((counts, { statusCode }) => {
      counts[statusCode] = (counts[statusCode] ?? 0) + 1;
      return counts;
    }, {});

  it("checks only the address's 10 of 150 at once for one account from one address; the rest wait, told how long", async () => {
    const target = await insertUser(t.database.db);
    const responses = await burst(
      Array.from({ length: 150 }, (_, i) => ({
        email: target.email,
        password: `guess-${i}`,
        remoteAddress: "203.0.113.50",
      })),
    );
    expect(statusCounts(responses)).toEqual({ 401: 10, 429: 140 });
    for (const refused of responses.filter((response) => response.statusCode === 429)) {
      expect(refused.json().message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(50);
    }
    // Only the 10 checked count against the account: its owner, elsewhere, still gets in.
    expect((await signIn(t, target.email, testPassword, { remoteAddress: "203.0.113.51" })).statusCode).toBe(
      200,
    );
  });

  it("checks only the account's 20 of 150 at once from 150 addresses, then refuses even its owner until the window ends", async () => {
    const target = await insertUser(t.database.db);
    const addressOf = (i: number) => `10.20.${Math.floor(i / 100)}.${i % 100}`;
    const responses = await burst(
      Array.from({ length: 150 }, (_, i) => ({
        email: target.email,
        password: `guess-${i}`,
        remoteAddress: addressOf(i),
      })),
    );
    expect(statusCounts(responses)).toEqual({ 401: 20, 429: 130 });
    const owner = await signIn(t, target.email, testPassword, { remoteAddress: "203.0.113.60" });
    expect(owner.statusCode).toBe(429);
    expect(Number(owner.headers["retry-after"])).toBeGreaterThan(800);
    // A refused attempt was not charged to its address: that address still has its whole allowance.
    const refusedFrom = addressOf(responses.findIndex((response) => response.statusCode === 429));
    const bystander = await insertUser(t.database.db);
    const statuses = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await signIn(t, bystander.email, "wrong", { remoteAddress: refusedFrom })).statusCode);
    expect(statuses).toEqual(Array(10).fill(401));
  });

  it("gives a right password's slot back: after 9 failures an address signs in as often as it likes, and its 10th failure is still allowed", async () => {
    const person = await insertUser(t.database.db);
    const from = { remoteAddress: "203.0.113.70" };
    const statuses = [];
    for (let i = 0; i < 9; i++)
      statuses.push((await signIn(t, `typo${i}@example.test`, "wrong", from)).statusCode);
    for (let i = 0; i < 5; i++) statuses.push((await signIn(t, person.email, testPassword, from)).statusCode);
    statuses.push((await signIn(t, "typo@example.test", "wrong", from)).statusCode);
    statuses.push((await signIn(t, person.email, testPassword, from)).statusCode);
    expect(statuses).toEqual([...Array(9).fill(401), ...Array(5).fill(200), 401, 429]);
  });
});

describe("password checks in flight", () => {
  it("refuses at once with 503 and Retry-After while the instance's password checks are all taken, and charges no allowance", async () => {
    const gate = createPasswordCheckGate(2);
    const t = await createTestApp({
      passwordChecks: gate,
      credentialRateLimit: { window: 60, max: 10 },
      signUpRateLimit: { window: 60, max: 1 },
    });
    try {
      const person = await insertUser(t.database.db);
      const held = [gate.tryEnter(), gate.tryEnter()];
      expect(held).not.toContain(null);
      const refused = await signIn(t, person.email, testPassword, { remoteAddress: "192.0.2.80" });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({
        code: "unavailable",
        message: "The server is checking too many passwords at once. Please try again in a moment.",
      });
      expect(refused.headers["retry-after"]).toBe("1");
      const signUp = () =>
        request(t.app, {
          method: "POST",
          url: "/api/auth/sign-up/email",
          payload: { name: "New Person", email: "new@example.test", password: "password123" },
        });
      expect((await signUp()).statusCode).toBe(503);
      const counted = await t.database.db
        .select()
        .from(rateLimits)
        .where(like(rateLimits.key, "sign-in-failures|%"));
      expect(counted.map((row) => row.count).filter((count) => count > 0)).toEqual([]);

      held[0]!();
      // The one sign-up this address may make a minute was not used up by the refusal.
      expect((await signUp()).statusCode).toBe(200);
      expect((await signIn(t, person.email, testPassword, { remoteAddress: "192.0.2.80" })).statusCode).toBe(
        200,
      );
      // Each gave its place back once answered: one is free again, the other is still held above.
      expect([gate.tryEnter(), gate.tryEnter(), gate.tryEnter()].map((leave) => leave !== null)).toEqual([
        true,
        false,
        false,
      ]);
    } finally {
      await t.close();
    }
  });
});

describe("sign-up and password reset limits", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      credentialRateLimit: { window: 60, max: 3 },
      signUpRateLimit: { window: 60, max: 2 },
    });
  });
  afterAll(() => t.close());

  const signUp = (email: string, remoteAddress: string) =>
    request(t.app, {
      method: "POST",
      url: "/api/auth/sign-up/email",
      payload: { name: "New Person", email, password: "password123" },
      remoteAddress,
    });
  const requestReset = (email: string, remoteAddress: string) =>
    request(t.app, {
      method: "POST",
      url: "/api/auth/request-password-reset",
      payload: { email, redirectTo: "/reset-password" },
      remoteAddress,
    });

  it("counts sign-ups per address, and sign-ins do not use them up", async () => {
    const person = await insertUser(t.database.db);
    for (let i = 0; i < 5; i++)
      expect((await signIn(t, person.email, testPassword, { remoteAddress: "192.0.2.50" })).statusCode).toBe(
        200,
      );
    expect((await signUp("first@example.test", "192.0.2.50")).statusCode).toBe(200);
    expect((await signUp("second@example.test", "192.0.2.50")).statusCode).toBe(200);
    expect((await signUp("third@example.test", "192.0.2.50")).statusCode).toBe(429);
    expect((await signUp("third@example.test", "192.0.2.51")).statusCode).toBe(200);
  });

  it("limits reset requests per address", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await requestReset(`r${i}@example.test`, "192.0.2.60")).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("limits reset mails to one e-mail address, whichever address asks", async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await requestReset("Flooded@example.test", `192.0.2.${70 + i}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe("client address behind proxies", () => {
  it("with TRUST_PROXY=true takes the right-most X-Forwarded-For hop, not the left-most value a client can forge", async () => {
    const t = await createTestApp({ trustProxy: 1, credentialRateLimit: { window: 60, max: 3 } });
    try {
      const statuses = [];
      for (const forged of ["6.6.6.6", "6.6.6.7", "6.6.6.8", "6.6.6.9"]) {
        const response = await signIn(t, "nobody@example.test", "wrong", {
          forwardedFor: `${forged}, 10.0.0.5`,
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);

      const neighbour = await insertUser(t.database.db);
      const response = await signIn(t, neighbour.email, testPassword, { forwardedFor: "6.6.6.6, 10.0.0.6" });
      expect(response.statusCode).toBe(200);
      expect(await sessionAddressOf(t, neighbour.id)).toBe("10.0.0.6");
    } finally {
      await t.close();
    }
  });

  it("with a list of trusted proxies walks from the right past them, and ignores the header from anyone else", async () => {
    const t = await createTestApp({ trustProxy: ["127.0.0.1", "10.0.0.0/8"] });
    try {
      const viaProxies = await insertUser(t.database.db);
      await signIn(t, viaProxies.email, testPassword, { forwardedFor: "6.6.6.6, 203.0.113.9, 10.0.0.5" });
      expect(await sessionAddressOf(t, viaProxies.id)).toBe("203.0.113.9");

      const direct = await insertUser(t.database.db);
      await signIn(t, direct.email, testPassword, {
        remoteAddress: "192.0.2.99",
        forwardedFor: "203.0.113.1",
      });
      expect(await sessionAddressOf(t, direct.id)).toBe("192.0.2.99");
    } finally {
      await t.close();
    }
  });

  it("without TRUST_PROXY ignores X-Forwarded-For", async () => {
    const t = await createTestApp();
    try {
      const person = await insertUser(t.database.db);
      await signIn(t, person.email, testPassword, { remoteAddress: "192.0.2.1", forwardedFor: "6.6.6.6" });
      expect(await sessionAddressOf(t, person.id)).toBe("192.0.2.1");
    } finally {
      await t.close();
    }
  });
});

describe("addressKey", () => {
  it.each([
    ["192.0.2.1", "192.0.2.1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:DB8:0001:0002:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["::1", "0:0:0:0::/64"],
  ])("keys %s as %s", (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});

describe("stored counters", () => {
  it("keep failure counters in the shared rate_limits table and never count a success", async () => {
    const t = await createTestApp();
    try {
      const counted = async () =>
        (await t.database.db.select().from(rateLimits).where(like(rateLimits.key, "sign-in-failures|%")))
          .filter((row) => row.count > 0)
          .map((row) => `${row.key} ${row.count}`)
          .sort();
      const person = await insertUser(t.database.db);
      await signIn(t, person.email, testPassword, { remoteAddress: "192.0.2.7" });
      expect(await counted()).toEqual([]);
      await signIn(t, person.email, "wrong", { remoteAddress: "192.0.2.7" });
      expect(await counted()).toEqual([
        `sign-in-failures|account:${person.email} 1`,
        "sign-in-failures|address:192.0.2.7 1",
      ]);
    } finally {
      await t.close();
    }
  });
});
