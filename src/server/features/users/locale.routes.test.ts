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

const setLocale = (cookie: string | null, payload: unknown) =>
  request(t.app, {
    method: "PUT",
    url: "/api/me/locale",
    cookie,
    payload: payload as Record<string, unknown>,
  });
const me = async (cookie: string) => {
  const response = await request(t.app, { method: "GET", url: "/api/me", cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Me>();
};

describe("PUT /api/me/locale", () => {
  it("refuses an anonymous caller", async () => {
    const response = await setLocale(null, { locale: "de" });
    expect(response.statusCode).toBe(401);
  });

  it.each(["user", "technician", "admin"] as const)(
    "lets a %s choose German, English or the browser's language for themselves; /api/me returns it on every session",
    async (role) => {
      const person = people[role];
      expect((await me(person.cookie)).locale).toBe("browser");

      const german = await setLocale(person.cookie, { locale: "de" });
      expect(german.statusCode, german.body).toBe(200);
      expect(german.json<Me>()).toMatchObject({ id: person.user.id, locale: "de", theme: "system" });

      // Kept per person: a new sign-in (another browser) sees the same choice.
      const otherBrowser = await signIn(t.app, person.user.email);
      expect((await me(otherBrowser)).locale).toBe("de");

      expect((await setLocale(person.cookie, { locale: "en" })).json<Me>().locale).toBe("en");
      expect((await me(otherBrowser)).locale).toBe("en");
      expect((await setLocale(otherBrowser, { locale: "browser" })).json<Me>().locale).toBe("browser");
      expect((await me(person.cookie)).locale).toBe("browser");
    },
  );

  it("changes only the caller's own language", async () => {
    await setLocale(people.admin.cookie, { locale: "de" });
    expect((await me(neighbour.cookie)).locale).toBe("browser");
    // A body naming someone else is not a way to reach them: the id is ignored (not part of the schema).
    await setLocale(neighbour.cookie, { locale: "en", id: people.admin.user.id });
    expect((await me(people.admin.cookie)).locale).toBe("de");
    expect((await me(neighbour.cookie)).locale).toBe("en");
    await setLocale(people.admin.cookie, { locale: "browser" });
  });

  it.each([{ locale: "fr" }, { locale: "de-DE" }, { locale: "" }, { locale: null }, {}, { locale: ["de"] }])(
    "answers 400 with a message for %j and keeps the language",
    async (payload) => {
      const response = await setLocale(people.user.cookie, payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.body).toContain("Language must be browser, en or de");
      expect((await me(people.user.cookie)).locale).toBe("browser");
    },
  );
});
