import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import { signedInAs, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Me } from "#shared/users/user.schemas.ts";

// A person's own preferences, kept on their account (decisions 035 and 038): PUT /api/me/theme and
// PUT /api/me/locale behave alike, so one set of tests runs over both.

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

const me = async (cookie: string) => {
  const response = await request(t.app, { method: "GET", url: "/api/me", cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Me>();
};

const preferences = [
  {
    field: "theme",
    url: "/api/me/theme",
    choices: "dark, light or system",
    /** The default, then two other choices. */
    values: ["system", "dark", "light"],
    invalid: [{ theme: "blue" }, { theme: "" }, { theme: null }, {}, { theme: ["dark"] }],
    message: "Theme must be system, light or dark",
  },
  {
    field: "locale",
    url: "/api/me/locale",
    choices: "German, English or the browser's language",
    values: ["browser", "de", "en"],
    invalid: [
      { locale: "fr" },
      { locale: "de-DE" },
      { locale: "" },
      { locale: null },
      {},
      { locale: ["de"] },
    ],
    message: "Language must be browser, en or de",
  },
] as const;

describe.each(preferences)("PUT $url", ({ field, url, choices, values, invalid, message }) => {
  const [byDefault, first, second] = values;
  const set = (cookie: string | null, payload: unknown) =>
    request(t.app, { method: "PUT", url, cookie, payload: payload as Record<string, unknown> });

  it("refuses an anonymous caller", async () => {
    const response = await set(null, { [field]: first });
    expect(response.statusCode).toBe(401);
  });

  it.each(["user", "technician", "admin"] as const)(
    `lets a %s choose ${choices} for themselves; /api/me returns it on every session`,
    async (role) => {
      const person = people[role];
      expect((await me(person.cookie))[field]).toBe(byDefault);

      const chosen = await set(person.cookie, { [field]: first });
      expect(chosen.statusCode, chosen.body).toBe(200);
      // The other preference stays as it was.
      expect(chosen.json<Me>()).toMatchObject({
        id: person.user.id,
        theme: "system",
        locale: "browser",
        [field]: first,
      });

      // Kept per person: a new sign-in (another browser) sees the same choice.
      const otherBrowser = await signIn(t.app, person.user.email);
      expect((await me(otherBrowser))[field]).toBe(first);

      expect((await set(person.cookie, { [field]: second })).json<Me>()[field]).toBe(second);
      expect((await me(otherBrowser))[field]).toBe(second);
      expect((await set(otherBrowser, { [field]: byDefault })).json<Me>()[field]).toBe(byDefault);
      expect((await me(person.cookie))[field]).toBe(byDefault);
    },
  );

  it(`changes only the caller's own ${field}`, async () => {
    await set(people.admin.cookie, { [field]: first });
    expect((await me(neighbour.cookie))[field]).toBe(byDefault);
    // A body naming someone else is not a way to reach them: the id is ignored (not part of the schema).
    await set(neighbour.cookie, { [field]: second, id: people.admin.user.id });
    expect((await me(people.admin.cookie))[field]).toBe(first);
    expect((await me(neighbour.cookie))[field]).toBe(second);
    await set(people.admin.cookie, { [field]: byDefault });
    await set(neighbour.cookie, { [field]: byDefault });
  });

  it.each(invalid as readonly object[])(
    `answers 400 with a message for %j and keeps the ${field}`,
    async (payload) => {
      const response = await set(people.user.cookie, payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.body).toContain(message);
      expect((await me(people.user.cookie))[field]).toBe(byDefault);
    },
  );
});
