import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Me } from "#shared/users/user.schemas.ts";
import type { UserRow } from "../../db/schema/index.ts";
import { signedInAs, signIn } from "../../test/factories.ts";
import { createTestApp, request, type TestApp } from "../../test/test-app.ts";

let t: TestApp;
type Person = { user: UserRow; cookie: string };
const people: Record<"user" | "technician" | "admin", Person> = {} as never;
let neighbour: Person;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ["user", "technician", "admin"] as const) {
    people[role] = await signedInAs(t.app, t.database.db, role);
  }
  neighbour = await signedInAs(t.app, t.database.db, "user");
});
afterAll(() => t.close());

const setTheme = (cookie: string | null, payload: unknown) =>
  request(t.app, {
    method: "PUT",
    url: "/api/me/theme",
    cookie,
    payload: payload as Record<string, unknown>,
  });
const me = async (cookie: string) => {
  const response = await request(t.app, { method: "GET", url: "/api/me", cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Me>();
};

describe("PUT /api/me/theme", () => {
  it("refuses an anonymous caller", async () => {
    const response = await setTheme(null, { theme: "dark" });
    expect(response.statusCode).toBe(401);
  });

  it.each(["user", "technician", "admin"] as const)(
    "lets a %s choose dark, light or system for themselves; /api/me returns it on every session",
    async (role) => {
      const person = people[role];
      expect((await me(person.cookie)).theme).toBe("system");

      const dark = await setTheme(person.cookie, { theme: "dark" });
      expect(dark.statusCode, dark.body).toBe(200);
      expect(dark.json<Me>()).toMatchObject({ id: person.user.id, theme: "dark" });

      // Kept per person: a new sign-in (another browser) sees the same choice.
      const otherBrowser = await signIn(t.app, person.user.email);
      expect((await me(otherBrowser)).theme).toBe("dark");

      expect((await setTheme(person.cookie, { theme: "light" })).json<Me>().theme).toBe("light");
      expect((await me(otherBrowser)).theme).toBe("light");
      expect((await setTheme(otherBrowser, { theme: "system" })).json<Me>().theme).toBe("system");
      expect((await me(person.cookie)).theme).toBe("system");
    },
  );

  it("changes only the caller's own theme", async () => {
    await setTheme(people.admin.cookie, { theme: "dark" });
    expect((await me(neighbour.cookie)).theme).toBe("system");
    // A body naming someone else is not a way to reach them: the id is ignored (not part of the schema).
    await setTheme(neighbour.cookie, { theme: "light", id: people.admin.user.id });
    expect((await me(people.admin.cookie)).theme).toBe("dark");
    expect((await me(neighbour.cookie)).theme).toBe("light");
    await setTheme(people.admin.cookie, { theme: "system" });
  });

  it.each([{ theme: "blue" }, { theme: "" }, { theme: null }, {}, { theme: ["dark"] }])(
    "answers 400 with a message for %j and keeps the theme",
    async (payload) => {
      const response = await setTheme(people.user.cookie, payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.body).toContain("Theme must be system, light or dark");
      expect((await me(people.user.cookie)).theme).toBe("system");
    },
  );
});
