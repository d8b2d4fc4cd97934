import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminChanges, appSettings, type UserRow } from "#server/db/schema/index.ts";
import { signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { defaultAutoCloseSettings } from "#shared/service-levels/auto-close.schemas.ts";
import type { AdminChangePage } from "#shared/settings/settings.schemas.ts";

// Who may use the route at all is settings.routes.test.ts's (it reads every settings route from Fastify).
let t: TestApp;
let admin: { user: UserRow; cookie: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAs(t.app, t.database.db, "admin");
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(adminChanges);
  await t.database.db.delete(appSettings);
});

const url = "/api/admin/settings/auto-close";
const put = (payload: object) => request(t.app, { method: "PUT", url, cookie: admin.cookie, payload });

describe("Admin settings: auto-close", () => {
  it("reads on, 7 days, until an admin saves it", async () => {
    const response = await request(t.app, { method: "GET", url, cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      value: { enabled: true, days: 7 },
      updatedAt: null,
      updatedByName: null,
    });
    expect(defaultAutoCloseSettings).toEqual({ enabled: true, days: 7 });
  });

  it("saves 3 days and writes one history line with before and after", async () => {
    const saved = await put({ enabled: true, days: 3 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ value: { enabled: true, days: 3 }, updatedByName: admin.user.name });

    const history = await request(t.app, {
      method: "GET",
      url: "/api/admin/settings/history?area=auto-close",
      cookie: admin.cookie,
    });
    expect(history.json<AdminChangePage>().items).toEqual([
      expect.objectContaining({
        area: "auto-close",
        summary: "Changed auto-close of resolved tickets",
        actorName: admin.user.name,
        before: { enabled: true, days: 7 },
        after: { enabled: true, days: 3 },
      }),
    ]);
  });

  it("refuses days outside 1–365 or not whole, and a missing switch, with a 400 naming the field", async () => {
    const cases: Array<[object, RegExp]> = [
      [{ enabled: true, days: 0 }, /Days must be a whole number from 1 to 365/],
      [{ enabled: true, days: 366 }, /Days must be a whole number from 1 to 365/],
      [{ enabled: true, days: 2.5 }, /Days must be a whole number from 1 to 365/],
      [{ enabled: true, days: "7" }, /Days must be a whole number from 1 to 365/],
      [{ days: 7 }, /Enabled must be true or false/],
    ];
    for (const [payload, message] of cases) {
      const response = await put(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect(await t.database.db.select().from(appSettings)).toEqual([]);
  });
});
