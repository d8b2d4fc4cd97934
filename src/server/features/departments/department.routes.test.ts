import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminChanges, appSettings, type UserRow } from "#server/db/schema/index.ts";
import { signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { AdminChangePage } from "#shared/settings/settings.schemas.ts";

let t: TestApp;
type Person = { user: UserRow; cookie: string };
let user: Person;
let technician: Person;
let admin: Person;
let roleless: Person;

beforeAll(async () => {
  t = await createTestApp();
  user = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
  roleless = await signedInAs(t.app, t.database.db, null);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(adminChanges);
  await t.database.db.delete(appSettings);
});

const settingsUrl = "/api/admin/settings/departments";
const saveDepartments = (departments: unknown, cookie = admin.cookie) =>
  request(t.app, { method: "PUT", url: settingsUrl, cookie, payload: { departments } });
const readDepartments = (cookie: string | undefined) =>
  request(t.app, { method: "GET", url: "/api/departments", cookie });

describe("GET /api/departments", () => {
  it("refuses anonymous people with 401", async () => {
    const response = await readDepartments(undefined);
    expect(response.statusCode).toBe(401);
  });

  it("offers General to every signed-in person until an admin saves a list", async () => {
    for (const person of [user, technician, admin, roleless]) {
      const response = await readDepartments(person.cookie);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ departments: ["General"] });
    }
  });

  it("offers the saved list, in the admins' order, to users and technicians", async () => {
    const saved = await saveDepartments(["Finance", "General", "  Human Resources "]);
    expect(saved.statusCode, saved.body).toBe(200);
    for (const person of [user, technician]) {
      const response = await readDepartments(person.cookie);
      expect(response.json()).toEqual({ departments: ["Finance", "General", "Human Resources"] });
    }
  });
});

describe("saving the departments (Admin settings)", () => {
  it("records who changed the list, with the list before and after", async () => {
    const saved = await saveDepartments(["General", "Finance"]);
    expect(saved.json()).toMatchObject({
      value: { departments: ["General", "Finance"] },
      updatedByName: admin.user.name,
    });

    const history = await request(t.app, {
      method: "GET",
      url: "/api/admin/settings/history?area=departments",
      cookie: admin.cookie,
    });
    expect(history.json<AdminChangePage>().items).toEqual([
      expect.objectContaining({
        area: "departments",
        summary: "Changed the departments",
        actorName: admin.user.name,
        before: { departments: ["General"] },
        after: { departments: ["General", "Finance"] },
      }),
    ]);
  });

  it("refuses users and technicians (403) and leaves the list alone", async () => {
    for (const person of [user, technician]) {
      const response = await saveDepartments(["General", "Finance"], person.cookie);
      expect(response.statusCode).toBe(403);
    }
    expect((await readDepartments(user.cookie)).json()).toEqual({ departments: ["General"] });
  });

  it("refuses an invalid list with a 400 that names the field, and keeps the stored one", async () => {
    await saveDepartments(["General", "Finance"]);
    const cases: Array<[unknown, RegExp]> = [
      [["General", "  "], /departments\.1: Department name is required/],
      [["General", "x".repeat(101)], /departments\.1: Department name must be at most 100 characters/],
      [["General", "Finance", "finance "], /departments\.2: finance is listed twice/],
      [["Finance"], /departments: General must stay in the list/],
      [[], /departments: Departments must list at least General/],
      [["General", "Fin\u0000ance"], /departments\.1: Department name must not contain control characters/],
      ["General", /departments: Departments must be a list of names/],
      [Array.from({ length: 201 }, (_, i) => (i === 0 ? "General" : `D${i}`)), /At most 200 departments/],
    ];
    for (const [departments, message] of cases) {
      const response = await saveDepartments(departments);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect((await readDepartments(user.cookie)).json()).toEqual({ departments: ["General", "Finance"] });
  });

  it("lists each refused field with its path, so the editor can show it at that row", async () => {
    const response = await saveDepartments(["General", "Finance", " "]);
    expect(response.json().details).toEqual([
      { path: ["departments", "2"], message: "Department name is required" },
    ]);
  });
});
