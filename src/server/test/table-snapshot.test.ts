import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { insertUser } from "./factories.ts";
import { changedTables, tableSnapshotter } from "./table-snapshot.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

// The matrix and the bad-input test lean on this to say "changed nothing": it must see a change.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

it("sees a new row and a changed value, and leaves out what it was told to", async () => {
  const { db } = database;
  const user = await insertUser(db, { role: "user" });
  const snapshot = await tableSnapshotter(db, { ignoredColumns: { users: ["last_login"] } });
  const before = await snapshot();
  expect(before.users).toMatch(/^1 [0-9a-f]{32}$/);

  await db.execute(sql`update users set last_login = now() where id = ${user.id}`);
  await db.execute(
    sql`insert into rate_limits (id, key, count, last_request) values ('probe', 'probe', 1, 0)`,
  );
  expect(changedTables(before, await snapshot())).toEqual([]);

  await db.execute(sql`update users set name = 'Renamed' where id = ${user.id}`);
  expect(changedTables(before, await snapshot())).toEqual(["users"]);
  await insertUser(db, { role: "technician" });
  const after = await snapshot();
  // A new technician is a users row, their password's accounts row and their place among the technicians
  // that notifications are addressed to (decision 068).
  expect(changedTables(before, after)).toEqual(["accounts", "notification_audience_members", "users"]);
  expect(after.users).toMatch(/^2 /);
});
