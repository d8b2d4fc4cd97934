import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { users } from "#server/db/schema/index.ts";
import { insertTicket, signedInAs, signIn } from "#server/test/factories.ts";
import { openStream, type SseStream } from "#server/test/sse.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Notification } from "#shared/notifications/notification.schemas.ts";

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  // A short session cache (decision 039): the SQL deactivation below is seen once it has passed.
  t = await createTestApp({ streams: { heartbeatMs: 100, sessionSweepMs: 60_000 }, sessionCacheTtlMs: 100 });
  baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const opened: SseStream[] = [];
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});
async function stream(cookie: string, lastEventId?: string) {
  const s = await openStream(baseUrl, { cookie, lastEventId });
  opened.push(s);
  return s;
}
const ready = (s: SseStream) => s.waitFor((e) => e.event === "ready");
const notificationsIn = (s: SseStream) =>
  s.events.filter((e) => e.event === "notification").map((e) => JSON.parse(e.data) as Notification);

const ticketInput = {
  title: "VPN drops",
  description: "Every hour",
  category: "Network",
  priority: "High",
  department: "Legal",
  floor: "4",
  officeNumber: "401",
};
const post = (url: string, cookie: string, payload?: object) =>
  request(t.app, { method: "POST", url, cookie, ...(payload ? { payload } : {}) });

/** Waits until the stream has said everything it is going to say about work already committed. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

it("requires a session: 401 in the shared error shape", async () => {
  const response = await fetch(new URL("/api/notifications/stream", baseUrl));
  expect(response.status).toBe(401);
  expect(await response.json()).toMatchObject({ code: "unauthenticated" });
});

it("is an unbuffered, uncached event stream that says ready", async () => {
  const { cookie } = await signedInAs(t.app, t.database.db, "user");
  const s = await stream(cookie);
  expect(s.status).toBe(200);
  expect(s.headers.get("content-type")).toMatch(/^text\/event-stream/);
  expect(s.headers.get("cache-control")).toBe("no-store");
  expect(s.headers.get("x-accel-buffering")).toBe("no");
  expect(JSON.parse((await ready(s)).data)).toEqual({ lastEventId: null });
});

it("carries only the headers that concern an event stream: no page policies, kept by every open stream", async () => {
  const { cookie } = await signedInAs(t.app, t.database.db, "user");
  const s = await stream(cookie);
  await ready(s);
  expect([...s.headers.keys()].sort()).toEqual([
    "cache-control",
    "connection",
    "content-type",
    "cross-origin-resource-policy",
    "date",
    "transfer-encoding",
    "x-accel-buffering",
    "x-content-type-options",
    "x-request-id",
  ]);
  expect(s.headers.get("x-content-type-options")).toBe("nosniff");
  expect(s.headers.get("cross-origin-resource-policy")).toBe("same-origin");
});

it("sends a person their own notifications live, with the notification id as the event id", async () => {
  const user = await signedInAs(t.app, t.database.db, "user");
  const tech = await signedInAs(t.app, t.database.db, "technician");
  const techStream = await stream(tech.cookie);
  const userStream = await stream(user.cookie);
  await Promise.all([ready(techStream), ready(userStream)]);
  const created = await post("/api/tickets", user.cookie, ticketInput);
  expect(created.statusCode).toBe(201);
  const event = await techStream.waitFor((e) => e.event === "notification");
  const notification = JSON.parse(event.data) as Notification;
  expect(notification).toMatchObject({
    uid: tech.user.id,
    type: "new_ticket",
    message: "NEW TICKET CREATED: VPN drops | Department: Legal | Floor: 4",
  });
  expect(event.id).toBe(notification.notificationId);
  await settle();
  expect(notificationsIn(userStream)).toEqual([]);
});

it("replays what was missed after a dropped stream, from Last-Event-ID, before ready", async () => {
  const user = await signedInAs(t.app, t.database.db, "user");
  const tech = await signedInAs(t.app, t.database.db, "technician");
  const first = await stream(tech.cookie);
  await post("/api/tickets", user.cookie, { ...ticketInput, title: "One" });
  const seen = await first.waitFor((e) => e.event === "notification");
  first.close();
  await post("/api/tickets", user.cookie, { ...ticketInput, title: "Two" });
  await post("/api/tickets", user.cookie, { ...ticketInput, title: "Three" });

  const again = await stream(tech.cookie, seen.id);
  const readyEvent = await ready(again);
  const replayed = notificationsIn(again);
  expect(replayed.map((n) => n.message.split(":")[1]!.split("|")[0]!.trim())).toEqual(["Two", "Three"]);
  expect(again.events.indexOf(readyEvent)).toBe(2);
  expect(JSON.parse(readyEvent.data)).toEqual({ lastEventId: replayed[1]!.notificationId });
});

it("names its position in ready, so a stream dropped before any notification still replays the gap", async () => {
  const user = await signedInAs(t.app, t.database.db, "user");
  const tech = await signedInAs(t.app, t.database.db, "technician");
  const first = await stream(tech.cookie);
  // No notification yet: position 0, everything of theirs is new.
  expect((await ready(first)).id).toBe("0");
  first.close();
  await post("/api/tickets", user.cookie, { ...ticketInput, title: "During the gap" });

  // What a browser's EventSource sends after it saw only `ready`.
  const again = await stream(tech.cookie, "0");
  const readyAgain = await ready(again);
  const [missed] = notificationsIn(again);
  expect(missed?.message).toContain("During the gap");
  expect(readyAgain.id).toBe(missed!.notificationId);
  again.close();
  await post("/api/tickets", user.cookie, { ...ticketInput, title: "After the second drop" });
  const third = await stream(tech.cookie, readyAgain.id);
  await ready(third);
  expect(notificationsIn(third).map((n) => n.message)).toEqual([
    expect.stringContaining("After the second drop"),
  ]);
});

it("tells only the people who may see a ticket that it changed", async () => {
  const creator = await signedInAs(t.app, t.database.db, "user");
  const stranger = await signedInAs(t.app, t.database.db, "user");
  const tech = await signedInAs(t.app, t.database.db, "technician");
  const admin = await signedInAs(t.app, t.database.db, "admin");
  const ticket = await insertTicket(t.database.db, { createdBy: creator.user.id });
  const streams = {
    creator: await stream(creator.cookie),
    stranger: await stream(stranger.cookie),
    tech: await stream(tech.cookie),
    admin: await stream(admin.cookie),
  };
  await Promise.all(Object.values(streams).map(ready));
  expect(
    (await post(`/api/tickets/${ticket.id}/comments`, creator.cookie, { message: "Any news?" })).statusCode,
  ).toBe(201);
  for (const s of [streams.creator, streams.tech, streams.admin]) {
    const changed = await s.waitFor((e) => e.event === "ticket");
    expect(JSON.parse(changed.data)).toEqual({ ticketId: ticket.id });
  }
  await settle();
  expect(streams.stranger.events.filter((e) => e.event !== "ready")).toEqual([]);
});

it("sends a heartbeat comment", async () => {
  const { cookie } = await signedInAs(t.app, t.database.db, "user");
  const s = await stream(cookie);
  await ready(s);
  await new Promise((resolve) => setTimeout(resolve, 350));
  expect(s.comments).toContain(": ping");
});

describe("closing", () => {
  it("closes the signed-out session's stream within a second, and not the person's other sessions", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const otherCookie = await signIn(t.app, user.email);
    const s = await stream(cookie);
    const other = await stream(otherCookie);
    await Promise.all([ready(s), ready(other)]);
    const started = Date.now();
    const signOut = await post("/api/auth/sign-out", cookie, {});
    expect(signOut.statusCode).toBe(200);
    await s.closed;
    expect(Date.now() - started).toBeLessThan(1_000);
    await settle();
    const created = await post("/api/notifications", otherCookie, { uid: user.id, message: "Still here" });
    expect(created.statusCode).toBe(201);
    await other.waitFor((e) => e.event === "notification");
  });

  it("closes a deactivated person's streams within a second", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "technician");
    const s = await stream(cookie);
    await ready(s);
    const started = Date.now();
    await t.database.db.update(users).set({ status: "Inactive" }).where(eq(users.id, user.id));
    // Made in SQL, behind the app's back: seen once the session cache's lifetime has passed.
    await new Promise((resolve) => setTimeout(resolve, 150));
    // Their next request meets the session hook, which ends their sessions everywhere.
    const refused = await request(t.app, { method: "GET", url: "/api/notifications", cookie });
    expect(refused.statusCode).toBe(401);
    await s.closed;
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("closes a person's streams within a second when an admin deactivates them in user management", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "technician");
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const s = await stream(cookie);
    await ready(s);
    const started = Date.now();
    const response = await request(t.app, {
      method: "PUT",
      url: `/api/admin/users/${user.id}/status`,
      cookie: admin.cookie,
      payload: { status: "Inactive" },
    });
    expect(response.statusCode).toBe(200);
    await s.closed;
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("closes a person's streams when an admin changes their role, so they reconnect as who they are now", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "technician");
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const s = await stream(cookie);
    await ready(s);
    const response = await request(t.app, {
      method: "PATCH",
      url: `/api/admin/users/${user.id}`,
      cookie: admin.cookie,
      payload: { name: user.name, role: "user", department: user.department, status: "Active" },
    });
    expect(response.statusCode).toBe(200);
    await s.closed;
    // Their session lives on: the next stream opens as a user, who no longer hears of unassigned tickets.
    const again = await stream(cookie);
    await ready(again);
    const creator = await signedInAs(t.app, t.database.db, "user");
    await post("/api/tickets", creator.cookie, ticketInput);
    await settle();
    expect(again.events.filter((e) => e.event !== "ready")).toEqual([]);
  });
});
