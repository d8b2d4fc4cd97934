import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { pruneReadNotifications } from "./notification-retention.ts";

let database: TestDatabase;
let userId: string;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());
beforeEach(async () => {
  await database.db.execute(sql`delete from notifications`);
  userId = (await insertUser(database.db)).id;
});

const now = new Date("2030-06-01T12:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60_000).toISOString();

async function insertNotification(
  message: string,
  { createdDaysAgo, readDaysAgo }: { createdDaysAgo: number; readDaysAgo: number | null },
) {
  await database.db.execute(sql`
    insert into notifications (user_id, type, message, created_at, read_at)
    values (${userId}, 'ticket_status', ${message}, ${daysAgo(createdDaysAgo)},
            ${readDaysAgo === null ? null : daysAgo(readDaysAgo)})`);
}

async function remaining() {
  const result = await database.db.execute(sql`select message from notifications order by message`);
  return (result as unknown as { rows: Array<{ message: string }> }).rows.map((r) => r.message);
}

describe("pruneReadNotifications", () => {
  it("deletes read notifications older than the retention and keeps unread and recent ones", async () => {
    await insertNotification("old read", { createdDaysAgo: 120, readDaysAgo: 100 });
    await insertNotification("old read, read recently", { createdDaysAgo: 95, readDaysAgo: 1 });
    await insertNotification("old unread", { createdDaysAgo: 400, readDaysAgo: null });
    await insertNotification("recent read", { createdDaysAgo: 89, readDaysAgo: 88 });
    await insertNotification("recent unread", { createdDaysAgo: 1, readDaysAgo: null });

    const deleted = await pruneReadNotifications(database.db, { olderThanDays: 90, now });

    expect(deleted).toBe(2);
    expect(await remaining()).toEqual(["old unread", "recent read", "recent unread"]);
  });

  it("works through more rows than one batch", async () => {
    for (let i = 0; i < 7; i++)
      await insertNotification(`old ${i}`, { createdDaysAgo: 100, readDaysAgo: 99 });
    await insertNotification("kept", { createdDaysAgo: 100, readDaysAgo: null });
    expect(await pruneReadNotifications(database.db, { olderThanDays: 90, now, batchSize: 3 })).toBe(7);
    expect(await remaining()).toEqual(["kept"]);
  });

  it("keeps everything when the retention is 0", async () => {
    await insertNotification("ancient read", { createdDaysAgo: 5000, readDaysAgo: 4000 });
    expect(await pruneReadNotifications(database.db, { olderThanDays: 0, now })).toBe(0);
    expect(await remaining()).toEqual(["ancient read"]);
  });
});
