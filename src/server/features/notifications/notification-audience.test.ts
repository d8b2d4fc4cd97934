import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notifications } from "#server/db/schema/index.ts";
import { signedInAs, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Notification, NotificationCounts } from "#shared/notifications/notification.schemas.ts";
import { pruneReadNotifications } from "./notification-retention.ts";

// A new ticket's notification is one row addressed to the technicians (decision 068). Each technician
// must still have it as their own: read state, counts, filters, pages, Mark All as Read, retention.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const ticketInput = {
  title: "VPN drops",
  description: "Every hour",
  category: "Network",
  priority: "Medium",
  department: "Sales",
  floor: "2",
  officeNumber: "12",
};

const get = (url: string, cookie: string) => request(t.app, { method: "GET", url, cookie });
const post = (url: string, cookie: string, payload?: object) =>
  request(t.app, { method: "POST", url, cookie, ...(payload ? { payload } : {}) });

async function raise(cookie: string, title: string) {
  const response = await post("/api/tickets", cookie, { ...ticketInput, title });
  expect(response.statusCode).toBe(201);
}
const titlesOf = async (cookie: string, filter = "all") =>
  (await get(`/api/notifications?filter=${filter}`, cookie))
    .json<{ items: Notification[] }>()
    .items.map((n) => n.params && "title" in n.params && n.params.title);
const countsOf = async (cookie: string) =>
  (await get("/api/notifications/counts", cookie)).json<NotificationCounts>();
const storedRows = async () => (await t.database.db.select().from(notifications)).length;

describe("a notification to the technicians", () => {
  it("is one row, read or unread for each technician apart: two technicians, one marks it read", async () => {
    const user = await signedInAs(t.app, t.database.db, "user");
    const theo = await signedInAs(t.app, t.database.db, "technician");
    const tara = await signedInAs(t.app, t.database.db, "technician");
    await raise(user.cookie, "First");
    await raise(user.cookie, "Second");
    expect(await storedRows()).toBe(2);

    const [second] = (await get("/api/notifications", theo.cookie)).json<{ items: Notification[] }>().items;
    const read = await post(`/api/notifications/${second!.notificationId}/read`, theo.cookie);
    expect(read.json()).toMatchObject({ uid: theo.user.id, read: true });
    // Again: still read, nothing else changes.
    expect(
      (await post(`/api/notifications/${second!.notificationId}/read`, theo.cookie)).json(),
    ).toMatchObject({
      read: true,
    });

    expect(await countsOf(theo.cookie)).toEqual({ all: 2, unread: 1, read: 1 });
    expect(await titlesOf(theo.cookie, "unread")).toEqual(["First"]);
    expect(await titlesOf(theo.cookie, "read")).toEqual(["Second"]);
    expect(await countsOf(tara.cookie)).toEqual({ all: 2, unread: 2, read: 0 });
    expect(await titlesOf(tara.cookie, "unread")).toEqual(["Second", "First"]);
    expect(await titlesOf(tara.cookie, "read")).toEqual([]);

    // Mark All as Read for Tara; Theo's one unread stays unread.
    expect((await post("/api/notifications/read-all", tara.cookie)).json()).toEqual({ updated: 2 });
    expect(await countsOf(tara.cookie)).toEqual({ all: 2, unread: 0, read: 2 });
    expect(await countsOf(theo.cookie)).toEqual({ all: 2, unread: 1, read: 1 });
    // A later one is unread for both.
    await raise(user.cookie, "Third");
    expect(await titlesOf(tara.cookie, "unread")).toEqual(["Third"]);
    expect(await titlesOf(theo.cookie, "unread")).toEqual(["Third", "First"]);
    expect((await post("/api/notifications/read-all", theo.cookie)).json()).toEqual({ updated: 2 });
    expect(await countsOf(theo.cookie)).toEqual({ all: 3, unread: 0, read: 3 });
  });

  it("is not seen by whoever joined the technicians after it was sent, read or unread; the next one is", async () => {
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const user = await signedInAs(t.app, t.database.db, "user");
    const newcomer = await signedInAs(t.app, t.database.db, "user");
    await signedInAs(t.app, t.database.db, "technician");
    await raise(user.cookie, "Before they joined");

    const promoted = await request(t.app, {
      method: "PATCH",
      url: `/api/admin/users/${newcomer.user.id}`,
      cookie: admin.cookie,
      payload: { name: newcomer.user.name, role: "technician", department: "IT", status: "Active" },
    });
    expect(promoted.statusCode).toBe(200);
    const cookie = await signIn(t.app, newcomer.user.email);
    expect(await countsOf(cookie)).toEqual({ all: 0, unread: 0, read: 0 });
    expect(await titlesOf(cookie)).toEqual([]);
    const [before] = await t.database.db.select().from(notifications);
    expect((await post(`/api/notifications/${before!.id}/read`, cookie)).statusCode).toBe(404);

    await raise(user.cookie, "After they joined");
    expect(await titlesOf(cookie)).toEqual(["After they joined"]);
    expect(await countsOf(cookie)).toEqual({ all: 1, unread: 1, read: 0 });
  });

  it("is gone for a technician who stops being one, and not back for what was sent while they were away", async () => {
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const user = await signedInAs(t.app, t.database.db, "user");
    const theo = await signedInAs(t.app, t.database.db, "technician");
    await raise(user.cookie, "While a technician");
    const status = (value: string) =>
      request(t.app, {
        method: "PUT",
        url: `/api/admin/users/${theo.user.id}/status`,
        cookie: admin.cookie,
        payload: { status: value },
      });
    expect((await status("Inactive")).statusCode).toBe(200);
    await raise(user.cookie, "While away");
    expect((await status("Active")).statusCode).toBe(200);
    const cookie = await signIn(t.app, theo.user.email);
    expect(await titlesOf(cookie)).toEqual([]);
    await raise(user.cookie, "Back");
    expect(await titlesOf(cookie)).toEqual(["Back"]);
  });

  it("never reaches the technician who raised the ticket, nor users and admins, who cannot mark it read", async () => {
    const user = await signedInAs(t.app, t.database.db, "user");
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const theo = await signedInAs(t.app, t.database.db, "technician");
    const tara = await signedInAs(t.app, t.database.db, "technician");
    await raise(user.cookie, "Raised by Theo");
    // As when a technician's e-mail raises a ticket: they caused it, so it is not news to them.
    await t.database.db.update(notifications).set({ exceptUserId: theo.user.id });
    const [row] = await t.database.db.select().from(notifications);
    expect(await titlesOf(tara.cookie)).toEqual(["Raised by Theo"]);
    for (const cookie of [theo.cookie, user.cookie, admin.cookie]) {
      expect(await titlesOf(cookie)).toEqual([]);
      expect(await countsOf(cookie)).toEqual({ all: 0, unread: 0, read: 0 });
      expect((await post(`/api/notifications/${row!.id}/read`, cookie)).statusCode).toBe(404);
      expect((await post("/api/notifications/read-all", cookie)).json()).toEqual({ updated: 0 });
    }
    expect(await countsOf(tara.cookie)).toEqual({ all: 1, unread: 1, read: 0 });
  });

  it("pages with the technician's own notifications newest first, none twice or skipped", async () => {
    const user = await signedInAs(t.app, t.database.db, "user");
    const theo = await signedInAs(t.app, t.database.db, "technician");
    const expected: string[] = [];
    for (let i = 0; i < 7; i++) {
      await raise(user.cookie, `Ticket ${i}`);
      const message = `Test ${i}`;
      expect((await post("/api/notifications", theo.cookie, { uid: theo.user.id, message })).statusCode).toBe(
        201,
      );
      expected.unshift(message, `Ticket ${i}`);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Notification[]; nextCursor: string | null } = (
        await get(`/api/notifications?limit=3${cursor ? `&cursor=${cursor}` : ""}`, theo.cookie)
      ).json();
      seen.push(
        ...page.items.map((n) => (n.type === "test" ? n.message : (n.params as { title: string }).title)),
      );
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);
  });
});

describe("retention of a notification to the technicians", () => {
  const now = () => new Date(Date.now() + 100 * 24 * 60 * 60_000);

  it("keeps it until every technician has passed it with Mark All as Read", async () => {
    const user = await signedInAs(t.app, t.database.db, "user");
    const theo = await signedInAs(t.app, t.database.db, "technician");
    const tara = await signedInAs(t.app, t.database.db, "technician");
    await raise(user.cookie, "Old");
    await post("/api/notifications/read-all", theo.cookie);
    expect(await pruneReadNotifications(t.database.db, { olderThanDays: 90, now: now() })).toBe(0);
    await post("/api/notifications/read-all", tara.cookie);
    expect(await pruneReadNotifications(t.database.db, { olderThanDays: 90, now: now() })).toBe(1);
    expect(await storedRows()).toBe(0);
    // Not before its time.
    await raise(user.cookie, "Recent");
    await post("/api/notifications/read-all", theo.cookie);
    await post("/api/notifications/read-all", tara.cookie);
    expect(
      await pruneReadNotifications(t.database.db, { olderThanDays: 90, now: new Date(Date.now() + 60_000) }),
    ).toBe(0);
  });

  it("drops the read marks with it", async () => {
    const user = await signedInAs(t.app, t.database.db, "user");
    const theo = await signedInAs(t.app, t.database.db, "technician");
    await raise(user.cookie, "Old");
    const [row] = await t.database.db.select().from(notifications);
    await post(`/api/notifications/${row!.id}/read`, theo.cookie);
    await post("/api/notifications/read-all", theo.cookie);
    expect(await pruneReadNotifications(t.database.db, { olderThanDays: 90, now: now() })).toBe(1);
    const marks = await t.database.db.execute(sql`select count(*)::int as n from notification_reads`);
    expect((marks as unknown as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(0);
  });
});
