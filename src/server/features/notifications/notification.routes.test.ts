import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notifications } from "#server/db/schema/index.ts";
import { insertUser, signedInAs, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Notification, NotificationParams } from "#shared/notifications/notification.schemas.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const ticketInput = {
  title: "Screen flickers",
  description: "Since Monday",
  category: "Hardware",
  priority: "Low",
  department: "Sales",
  floor: "2",
  officeNumber: "12",
};

const get = (url: string, cookie: string) => request(t.app, { method: "GET", url, cookie });
const post = (url: string, cookie: string | null, payload?: object) =>
  request(t.app, { method: "POST", url, cookie, ...(payload ? { payload } : {}) });

async function createForSelf(cookie: string, uid: string, message: string) {
  const response = await post("/api/notifications", cookie, { uid, message });
  expect(response.statusCode).toBe(201);
  return response.json<Notification>();
}

describe("a broadcast to technicians", () => {
  it("has a read state per technician: marking it read for one leaves it unread for the others", async () => {
    const user = await signedInAs(t.app, t.database.db, "user");
    const theo = await signedInAs(t.app, t.database.db, "technician");
    const tara = await signedInAs(t.app, t.database.db, "technician");
    expect((await post("/api/tickets", user.cookie, ticketInput)).statusCode).toBe(201);

    const theoList = (await get("/api/notifications", theo.cookie)).json<{ items: Notification[] }>();
    expect(theoList.items).toHaveLength(1);
    expect(theoList.items[0]).toMatchObject({
      uid: theo.user.id,
      type: "new_ticket",
      broadcast: true,
      read: false,
      message: "NEW TICKET CREATED: Screen flickers | Department: Sales | Floor: 2",
    });
    const read = await post(`/api/notifications/${theoList.items[0]!.notificationId}/read`, theo.cookie);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ read: true });

    expect((await get("/api/notifications/counts", theo.cookie)).json()).toEqual({
      all: 1,
      unread: 0,
      read: 1,
    });
    expect((await get("/api/notifications/counts", tara.cookie)).json()).toEqual({
      all: 1,
      unread: 1,
      read: 0,
    });
    expect((await get("/api/notifications", user.cookie)).json()).toEqual({ items: [], nextCursor: null });
  });
});

describe("Mark All as Read", () => {
  it("marks only the caller's notifications", async () => {
    const user = await signedInAs(t.app, t.database.db, "user");
    const theo = await signedInAs(t.app, t.database.db, "technician");
    const tara = await signedInAs(t.app, t.database.db, "technician");
    await post("/api/tickets", user.cookie, ticketInput);
    await post("/api/tickets", user.cookie, { ...ticketInput, title: "Second" });
    const response = await post("/api/notifications/read-all", theo.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ updated: 2 });
    expect((await get("/api/notifications?filter=unread", theo.cookie)).json().items).toEqual([]);
    expect((await get("/api/notifications?filter=unread", tara.cookie)).json().items).toHaveLength(2);
    expect((await post("/api/notifications/read-all", theo.cookie)).json()).toEqual({ updated: 0 });
  });
});

describe("marking one notification read", () => {
  it("answers 404 for another person's notification and leaves it unread", async () => {
    const uma = await signedInAs(t.app, t.database.db, "user");
    const otto = await signedInAs(t.app, t.database.db, "user");
    const hers = await createForSelf(uma.cookie, uma.user.id, "Mine");
    const response = await post(`/api/notifications/${hers.notificationId}/read`, otto.cookie);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      code: "not_found",
      message: `Notification ${hers.notificationId} not found`,
    });
    expect((await get("/api/notifications/counts", uma.cookie)).json()).toMatchObject({ unread: 1 });
  });

  it("answers 400 for an id that is not a notification id and 404 for one too large to exist", async () => {
    const uma = await signedInAs(t.app, t.database.db, "user");
    expect((await post("/api/notifications/abc/read", uma.cookie)).statusCode).toBe(400);
    expect((await post("/api/notifications/9999999999999999999/read", uma.cookie)).statusCode).toBe(404);
  });
});

describe("listing", () => {
  it("pages newest first, 25 at a time, with a cursor, filtered by read state", async () => {
    const uma = await signedInAs(t.app, t.database.db, "user");
    const created: Notification[] = [];
    for (let i = 0; i < 27; i++) created.push(await createForSelf(uma.cookie, uma.user.id, `Note ${i}`));
    await post(`/api/notifications/${created[0]!.notificationId}/read`, uma.cookie);

    const first = (await get("/api/notifications", uma.cookie)).json<{
      items: Notification[];
      nextCursor: string;
    }>();
    expect(first.items).toHaveLength(25);
    expect(first.items[0]!.message).toBe("Note 26");
    const second = (await get(`/api/notifications?cursor=${first.nextCursor}`, uma.cookie)).json<{
      items: Notification[];
      nextCursor: string | null;
    }>();
    expect(second.items.map((n) => n.message)).toEqual(["Note 1", "Note 0"]);
    expect(second.nextCursor).toBeNull();

    const read = (await get("/api/notifications?filter=read", uma.cookie)).json<{ items: Notification[] }>();
    expect(read.items.map((n) => n.message)).toEqual(["Note 0"]);
    expect((await get("/api/notifications/counts", uma.cookie)).json()).toEqual({
      all: 27,
      unread: 26,
      read: 1,
    });
  });

  it("refuses a cursor that is not one and requires a signed-in person", async () => {
    const uma = await signedInAs(t.app, t.database.db, "user");
    const bad = await get("/api/notifications?cursor=zz", uma.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: "validation_failed",
      message: "cursor: Not a valid page cursor",
    });
    const anonymous = await request(t.app, { method: "GET", url: "/api/notifications" });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("what a notification's text is made of", () => {
  it("comes with each notification about a ticket, for the app to word in its reader's language", async () => {
    const uma = await signedInAs(t.app, t.database.db, "user");
    const theo = await signedInAs(t.app, t.database.db, "technician");
    const ticket = (await post("/api/tickets", uma.cookie, ticketInput)).json<{ ticketId: string }>();
    await post(`/api/tickets/${ticket.ticketId}/assign`, theo.cookie);
    await post(`/api/tickets/${ticket.ticketId}/comments`, theo.cookie, { message: "On my way" });

    const items = (await get("/api/notifications", uma.cookie)).json<{ items: Notification[] }>().items;
    const name = theo.user.name;
    expect(items.map(({ type, message, params }) => ({ type, message, params }))).toEqual([
      {
        type: "ticket_comment",
        message: `${name} commented on ticket "Screen flickers": On my way`,
        params: { kind: "commented", title: "Screen flickers", actor: name, preview: "On my way" },
      },
      {
        type: "ticket_assigned",
        message: `${name} assigned ticket "Screen flickers" to themselves; it is now In Progress`,
        params: { kind: "assigned_to_self", title: "Screen flickers", actor: name },
      },
    ]);
  });

  it("is null for a notification of the person's own words, and for params this version does not know", async () => {
    const uma = await signedInAs(t.app, t.database.db, "user");
    const own = await createForSelf(uma.cookie, uma.user.id, "Hello me");
    expect(own.params).toBeNull();
    // A row written by a newer version (during a rolling restart): its message is still shown.
    await t.database.db.insert(notifications).values({
      userId: uma.user.id,
      type: "test",
      message: "Something new happened",
      params: { kind: "from_the_future" } as unknown as NotificationParams,
    });
    const response = await get("/api/notifications", uma.cookie);
    expect(response.statusCode).toBe(200);
    expect(
      response.json<{ items: Notification[] }>().items.map(({ message, params }) => ({ message, params })),
    ).toEqual([
      { message: "Something new happened", params: null },
      { message: "Hello me", params: null },
    ]);
  });
});

describe("creating a notification", () => {
  it("requires a user id and a message, with the spec's messages", async () => {
    const uma = await signedInAs(t.app, t.database.db, "user");
    const noUid = await post("/api/notifications", uma.cookie, { message: "Hi" });
    expect(noUid.statusCode).toBe(400);
    expect(noUid.json().message).toContain("User ID is required");
    const blankMessage = await post("/api/notifications", uma.cookie, { uid: uma.user.id, message: "   " });
    expect(blankMessage.statusCode).toBe(400);
    expect(blankMessage.json().message).toContain("Message is required");
  });

  it("answers 400, not 500, for text PostgreSQL cannot store (a lone surrogate, a NUL)", async () => {
    const uma = await signedInAs(t.app, t.database.db, "user");
    const badUid = await post("/api/notifications", uma.cookie, { uid: "\uD800", message: "Hi" });
    expect(badUid.statusCode).toBe(400);
    expect(badUid.json().message).toContain("User ID must be valid Unicode text");
    const nul = await post("/api/notifications", uma.cookie, { uid: uma.user.id, message: "a\u0000b" });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().message).toContain("Message must not contain control characters");
  });

  it("lets everyone, administrators too, create only test notifications and only for themselves", async () => {
    const uma = await signedInAs(t.app, t.database.db, "user");
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const refused = await post("/api/notifications", uma.cookie, { uid: admin.user.id, message: "Hi" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: "forbidden",
      message: "You can only create notifications for yourself",
    });
    // An administrator cannot write into someone else's bell either.
    const byAdmin = await post("/api/notifications", admin.cookie, {
      uid: uma.user.id,
      message: "From admin",
    });
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().message).toBe("You can only create notifications for yourself");
    // Nor pass one off as the app's own ticket news.
    const disguised = await post("/api/notifications", admin.cookie, {
      uid: admin.user.id,
      message: "NEW TICKET CREATED",
      type: "new_ticket",
    });
    expect(disguised.statusCode).toBe(422);
    expect(disguised.json()).toEqual({
      code: "rule_violation",
      message: "Only test notifications can be created here; the others come from tickets.",
    });
    expect((await get("/api/notifications", uma.cookie)).json()).toEqual({ items: [], nextCursor: null });
    expect((await get("/api/notifications", admin.cookie)).json()).toEqual({ items: [], nextCursor: null });

    const created = await post("/api/notifications", admin.cookie, {
      uid: admin.user.id,
      message: "Testing my bell",
      type: "test",
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ uid: admin.user.id, type: "test", read: false, broadcast: false });
  });

  it("links a ticket's notifications to the ticket", async () => {
    const uma = await insertUser(t.database.db, { role: "user" });
    const theo = await signedInAs(t.app, t.database.db, "technician");
    const umaCookie = await signIn(t.app, uma.email);
    const ticket = (await post("/api/tickets", umaCookie, ticketInput)).json<{ ticketId: string }>();
    const items = (await get("/api/notifications", theo.cookie)).json<{ items: Notification[] }>().items;
    expect(items[0]!.ticketId).toBe(ticket.ticketId);
  });
});
