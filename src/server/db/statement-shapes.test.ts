import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { users } from "./schema/index.ts";
import { bound, runShaped, shapesBuiltOn } from "./statement-shapes.ts";

// Decision 066: a statement is built once per shape and run with each request's values bound.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

describe("runShaped", () => {
  it("builds a shape once and answers each run with its own values", async () => {
    const { db } = database;
    const [ada, bob] = [
      await insertUser(db, { name: "Ada Shape" }),
      await insertUser(db, { name: "Bob Shape" }),
    ];
    let builds = 0;
    const nameOf = async (id: string) => {
      const rows = await runShaped(
        db,
        "test|name-by-id",
        () => {
          builds++;
          return db
            .select({ name: users.name })
            .from(users)
            .where(eq(users.id, bound("id")));
        },
        { id },
      );
      return rows.map((row) => row.name);
    };
    expect(await nameOf(ada.id)).toEqual(["Ada Shape"]);
    expect(await nameOf(bob.id)).toEqual(["Bob Shape"]);
    expect(await nameOf(ada.id)).toEqual(["Ada Shape"]);
    expect(builds).toBe(1);

    const [built] = shapesBuiltOn(db).filter(({ shape }) => shape === "test|name-by-id");
    expect(built?.text).toMatch(/= \$1/);
    for (const value of [ada.id, bob.id]) expect(built?.text).not.toContain(value);
  });

  it("takes several placeholders and values of any type the column maps", async () => {
    const { db } = database;
    const people = [await insertUser(db, { role: "technician" }), await insertUser(db, { role: "admin" })];
    const rows = await runShaped(
      db,
      "test|roles-of-two",
      () =>
        db
          .select({ id: users.id, role: users.role })
          .from(users)
          .where(inArray(users.id, [bound("first"), bound("second")]))
          .orderBy(users.role),
      { first: people[0]!.id, second: people[1]!.id },
    );
    expect(rows).toEqual([
      { id: people[1]!.id, role: "admin" },
      { id: people[0]!.id, role: "technician" },
    ]);
  });

  it("refuses a statement that would keep a value for every later run of its shape", async () => {
    const { db } = database;
    const person = await insertUser(db);
    expect(() =>
      runShaped(db, "test|a-value-kept", () => db.select().from(users).where(eq(users.id, person.id)), {}),
    ).toThrow(/parameter \$1 is a value/);
    expect(shapesBuiltOn(db).map(({ shape }) => shape)).not.toContain("test|a-value-kept");
  });

  it("says which value is missing instead of running without it", async () => {
    const { db } = database;
    await expect(
      runShaped(
        db,
        "test|missing-value",
        () =>
          db
            .select({ id: users.id })
            .from(users)
            .where(eq(users.id, bound("id"))),
        {},
      ),
    ).rejects.toThrow(/No value for placeholder "id"/);
  });
});
