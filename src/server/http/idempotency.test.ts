import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { idempotencyKeys, ticketComments, tickets } from "#server/db/schema/index.ts";
import { idempotencyKeyLifetimeMs } from "#server/features/idempotency/idempotency-retention.ts";
import { createTestClock } from "#server/test/clock.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { abandonedAfterMs } from "./idempotency.ts";

// Decision 078: POST with Idempotency-Key runs once per caller, route and key within 24 hours.
const clock = createTestClock(new Date());
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const validTicket = {
  title: "Laptop will not boot",
  description: "Black screen after the logo.",
  category: "Hardware",
  priority: "High",
  department: "Finance",
  floor: "3",
  officeNumber: "301",
};

const countTickets = async () => (await t.database.db.select().from(tickets)).length;

const raise = (cookie: string, key: string | undefined, payload: object = validTicket) =>
  request(t.app, {
    method: "POST",
    url: "/api/tickets",
    cookie,
    payload,
    headers: key === undefined ? {} : { "idempotency-key": key },
  });

describe("Idempotency-Key on POST", () => {
  it("answers a retried ticket POST with the first answer and makes one ticket", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const first = await raise(cookie, "retry-1");
    expect(first.statusCode, first.body).toBe(201);
    const again = await raise(cookie, "retry-1");
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(await countTickets()).toBe(1);
  });

  it("refuses the same key with another body with 422 and makes nothing", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    expect((await raise(cookie, "retry-2")).statusCode).toBe(201);
    const other = await raise(cookie, "retry-2", { ...validTicket, title: "Another problem" });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: "rule_violation" });
    expect(other.json().message).toContain("already used with a different request");
    expect(await countTickets()).toBe(1);
  });

  it("makes one ticket of two identical requests sent at once", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const answers = await Promise.all([raise(cookie, "at-once"), raise(cookie, "at-once")]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    // The second either waits for nothing (409: still being processed) or comes after (the first answer).
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    const refused = answers.find((answer) => answer.statusCode === 409);
    if (refused) expect(refused.json().message).toMatch(/still being processed/);
    expect(await countTickets()).toBe(1);
  });

  it("answers 409 while a request with the key is still being processed", async () => {
    const { cookie, user } = await signedInAs(t.app, t.database.db, "user");
    await t.database.db.insert(idempotencyKeys).values({
      caller: `user:${user.id}`,
      route: "POST /api/tickets",
      key: "in-flight",
      requestHash: "unknown",
      createdAt: clock.now(),
    });
    const busy = await raise(cookie, "in-flight");
    expect([busy.statusCode, busy.json().code]).toEqual([409, "conflict"]);
    expect(await countTickets()).toBe(0);
  });

  it("lets a retry take over a key abandoned in flight, and a key older than 24 hours", async () => {
    const { cookie, user } = await signedInAs(t.app, t.database.db, "user");
    await t.database.db.insert(idempotencyKeys).values({
      caller: `user:${user.id}`,
      route: "POST /api/tickets",
      key: "abandoned",
      requestHash: "unknown",
      createdAt: new Date(clock.now().getTime() - abandonedAfterMs - 1),
    });
    expect((await raise(cookie, "abandoned")).statusCode).toBe(201);
    clock.advance(idempotencyKeyLifetimeMs + 1);
    expect((await raise(cookie, "abandoned")).statusCode).toBe(201);
    expect(await countTickets()).toBe(2);
  });

  it("scopes keys by caller: another person's same key makes their own ticket", async () => {
    const ada = await signedInAs(t.app, t.database.db, "user");
    const bob = await signedInAs(t.app, t.database.db, "user");
    const first = await raise(ada.cookie, "shared-key");
    const second = await raise(bob.cookie, "shared-key");
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.json().createdBy).toBe(bob.user.id);
    expect(await countTickets()).toBe(2);
  });

  it("scopes a token's keys to the token, and answers its retry once", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const created = await request(t.app, {
      method: "POST",
      url: "/api/me/tokens",
      cookie,
      payload: { name: "Monitoring", scope: "write" },
    });
    const { token } = created.json<{ token: string }>();
    const withToken = () =>
      t.app.inject({
        method: "POST",
        url: "/api/tickets",
        payload: validTicket,
        headers: { authorization: `Bearer ${token}`, "idempotency-key": "script-1" },
      });
    const first = await withToken();
    expect(first.statusCode, first.body).toBe(201);
    expect((await withToken()).body).toBe(first.body);
    // The owner's browser session is another caller: its own ticket.
    expect((await raise(cookie, "script-1")).statusCode).toBe(201);
    expect(await countTickets()).toBe(2);
  });

  it("gives the key back when the request fails, so a corrected retry runs", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "technician");
    // A technician may not raise tickets: 403, nothing made, nothing kept.
    expect((await raise(cookie, "failed-once")).statusCode).toBe(403);
    expect(await t.database.db.select().from(idempotencyKeys)).toEqual([]);
  });

  it("adds a comment once for a retried comment POST", async () => {
    const { cookie, user } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id });
    const comment = () =>
      request(t.app, {
        method: "POST",
        url: `/api/tickets/${ticket.id}/comments`,
        cookie,
        payload: { message: "Still broken." },
        headers: { "idempotency-key": "comment-1" },
      });
    const first = await comment();
    expect(first.statusCode, first.body).toBe(201);
    expect((await comment()).body).toBe(first.body);
    expect(await t.database.db.select().from(ticketComments)).toHaveLength(1);
  });

  it.each([
    ["an empty key", ""],
    ["a key with a space", "two words"],
    ["a key of 256 characters", "k".repeat(256)],
    ["a key with a non-ASCII character", "clé"],
  ])("refuses %s with 400 and a sentence", async (_name, key) => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const response = await raise(cookie, key);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/Idempotency-Key must be 1 to 255 visible ASCII characters/);
    expect(await countTickets()).toBe(0);
  });

  it("refuses a key on a route whose answer holds a secret shown once", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const response = await request(t.app, {
      method: "POST",
      url: "/api/me/tokens",
      cookie,
      payload: { name: "Monitoring", scope: "write" },
      headers: { "idempotency-key": "token-1" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/does not take an Idempotency-Key/);
  });

  it("leaves a POST without a key as it was: two POSTs, two tickets", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    await raise(cookie, undefined);
    await raise(cookie, undefined);
    expect(await countTickets()).toBe(2);
    expect(await t.database.db.select().from(idempotencyKeys)).toEqual([]);
  });
});
