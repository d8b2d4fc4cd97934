import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminChanges, appSettings, type UserRow } from "#server/db/schema/index.ts";
import { signedInAs } from "#server/test/factories.ts";
import { registeredRoutes } from "#server/test/route-table.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { defaultBusinessCalendar } from "#shared/service-levels/business-calendar.schemas.ts";
import type { AdminChangePage } from "#shared/settings/settings.schemas.ts";

let t: TestApp;
type Person = { user: UserRow; cookie: string };
let user: Person;
let technician: Person;
let admin: Person;

beforeAll(async () => {
  t = await createTestApp();
  user = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(adminChanges);
  await t.database.db.delete(appSettings);
});

const calendarUrl = "/api/admin/settings/business-calendar";
const storedRows = async () => ({
  settings: await t.database.db.select().from(appSettings),
  changes: await t.database.db.select().from(adminChanges),
});

/** Every Admin settings route, read from Fastify's route table: a route added later is covered unseen. */
const settingsRoutes = () =>
  registeredRoutes(t.app).filter(
    (route) => route.url.startsWith("/api/admin/settings") && route.method !== "HEAD",
  );
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, "missing-id");

describe("who may use Admin settings", () => {
  it("lists the settings routes it checks", () => {
    expect(settingsRoutes().map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([`GET ${calendarUrl}`, `PUT ${calendarUrl}`, "GET /api/admin/settings/history"]),
    );
  });

  it("refuses anonymous people (401), users and technicians (403) on every route, even with a bad body, and changes nothing", async () => {
    const before = await storedRows();
    for (const route of settingsRoutes()) {
      const body = route.method === "GET" || route.method === "DELETE" ? undefined : { nonsense: true };
      for (const [who, cookie, status] of [
        ["anonymous", undefined, 401],
        ["user", user.cookie, 403],
        ["technician", technician.cookie, 403],
      ] as const) {
        const response = await request(t.app, {
          method: route.method as "GET",
          url: concrete(route.url),
          cookie,
          payload: body,
        });
        expect(response.statusCode, `${who} ${route.method} ${route.url}: ${response.body}`).toBe(status);
      }
    }
    expect(await storedRows()).toEqual(before);
  });

  it("answers administrators on every route: reads 200 (or 404 for a missing item), a bad body 400", async () => {
    for (const route of settingsRoutes()) {
      const hasParam = route.url.includes(":");
      const isRead = route.method === "GET";
      const response = await request(t.app, {
        method: route.method as "GET",
        url: concrete(route.url),
        cookie: admin.cookie,
        payload: isRead || route.method === "DELETE" ? undefined : { nonsense: true },
      });
      const expected = isRead ? (hasParam ? 404 : 200) : route.method === "DELETE" ? 404 : 400;
      expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBe(expected);
    }
  });
});

describe("business hours", () => {
  it("reads the default (Monday to Friday 09:00–17:00 UTC) until an admin saves them", async () => {
    const response = await request(t.app, { method: "GET", url: calendarUrl, cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ value: defaultBusinessCalendar, updatedAt: null, updatedByName: null });
  });

  it("saves a valid calendar, tells who saved it and writes one history line with before and after", async () => {
    const berlin = {
      ...defaultBusinessCalendar,
      timeZone: "Europe/Berlin",
      holidays: [{ date: "2026-12-25", name: "Christmas Day" }],
    };
    const saved = await request(t.app, {
      method: "PUT",
      url: calendarUrl,
      cookie: admin.cookie,
      payload: berlin,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ value: berlin, updatedByName: admin.user.name });

    const again = await request(t.app, {
      method: "PUT",
      url: calendarUrl,
      cookie: admin.cookie,
      payload: berlin,
    });
    expect(again.statusCode).toBe(200);

    const history = await request(t.app, {
      method: "GET",
      url: "/api/admin/settings/history?area=business-calendar",
      cookie: admin.cookie,
    });
    const page = history.json<AdminChangePage>();
    // Saving the same value twice is one change, not two.
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      area: "business-calendar",
      summary: "Changed the business hours",
      actorName: admin.user.name,
      before: defaultBusinessCalendar,
      after: berlin,
    });
  });

  it("refuses an invalid calendar with a 400 that names the field, and keeps the stored one", async () => {
    const cases: Array<[object, RegExp]> = [
      [{ ...defaultBusinessCalendar, timeZone: "Mars/Olympus" }, /timeZone/],
      [
        {
          ...defaultBusinessCalendar,
          workingHours: {
            ...defaultBusinessCalendar.workingHours,
            Monday: [{ open: "17:00", close: "09:00" }],
          },
        },
        /Monday: the closing time must be after the opening time/,
      ],
      [{ ...defaultBusinessCalendar, holidays: [{ date: "2026-02-30" }] }, /Holiday date/],
    ];
    for (const [payload, message] of cases) {
      const response = await request(t.app, {
        method: "PUT",
        url: calendarUrl,
        cookie: admin.cookie,
        payload,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect(await storedRows()).toEqual({ settings: [], changes: [] });
  });
});
