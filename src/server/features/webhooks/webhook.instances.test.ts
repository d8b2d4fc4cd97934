import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "#server/db/client.ts";
import { webhookDeliveries, webhookEndpoints } from "#server/db/schema/index.ts";
import { createTestClock, type TestClock } from "#server/test/clock.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { startWebhookReceiver, type WebhookReceiver } from "#server/test/webhook-receiver.ts";
import { createWebhookSender } from "./webhook-sender.ts";

// Decision 029: two app instances on one PostgreSQL send each queued delivery exactly once, and a
// delivery an instance claimed and then never finished (it stopped) is sent by another once its claim has
// passed. On PGlite both senders share the one connection (one process).

const quiet = { warn: () => {}, error: () => {} };
let database: TestDatabase;
let receiver: WebhookReceiver;
let clock: TestClock;
let others: Array<{ close: () => Promise<void> }> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await database.destroy();
});
beforeEach(async () => {
  await Promise.all(others.map((o) => o.close()));
  others = [];
  await database.db.delete(webhookEndpoints);
  receiver.reset();
  clock = createTestClock(new Date());
});

/** A second instance's database: a pool of its own on PostgreSQL; the same PGlite otherwise. */
function secondConnection(): Database["db"] {
  if (!database.url) return database.db;
  const other = createDatabase({ databaseUrl: database.url });
  others.push(other);
  return other.db;
}

async function queue(count: number) {
  await database.db.insert(webhookEndpoints).values({
    id: "whk_00000000000000aa",
    url: receiver.url(),
    events: ["ticket.created"],
    secret: "whsec_test",
  });
  await database.db.insert(webhookDeliveries).values(
    Array.from({ length: count }, (_, i) => ({
      id: `whd_00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      endpointId: "whk_00000000000000aa",
      eventType: "ticket.created" as const,
      body: JSON.stringify({ n: i }),
      nextAttemptAt: clock.now(),
    })),
  );
}

const sender = (db: Database["db"]) => createWebhookSender({ db, allowPrivate: true, log: quiet, clock });

describe("two instances on one database", () => {
  it("send each of 40 queued deliveries exactly once", async () => {
    await queue(40);
    const one = sender(database.db);
    const two = sender(secondConnection());
    const [a, b] = await Promise.all([one.drain(), two.drain()]);
    expect(a + b).toBe(40);
    const ids = receiver.received.map((r) => r.headers["helpdesk-webhook-id"]);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    const rows = await database.db.select().from(webhookDeliveries);
    expect(rows.every((row) => row.status === "delivered" && row.attempts === 1)).toBe(true);
    // Nothing is left for a second round on either instance.
    expect(await Promise.all([one.drain(), two.drain()])).toEqual([0, 0]);
    expect(receiver.received).toHaveLength(40);
  });

  it("attempt a retry once when it falls due: every instance's timer fires, one instance claims it", async () => {
    await queue(1);
    receiver.replies.push({ status: 500 });
    const one = sender(database.db);
    const two = sender(secondConnection());
    try {
      await Promise.all([one.drain(), two.drain()]);
      const [failed] = await database.db.select().from(webhookDeliveries);
      expect(failed).toMatchObject({ status: "pending", attempts: 1, responseStatus: 500 });
      // Both look at the queue after the failure, so both set their timer for the retry.
      await Promise.all([one.drain(), two.drain()]);
      clock.set(failed!.nextAttemptAt);
      await receiver.waitFor(2);
      await Promise.all([one.drain(), two.drain()]);
      expect(receiver.received).toHaveLength(2);
      const [row] = await database.db.select().from(webhookDeliveries);
      expect(row).toMatchObject({ status: "delivered", attempts: 2 });
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });

  it("sends a delivery whose sender stopped mid-attempt once its claim has passed, and not before", async () => {
    await queue(1);
    // An instance claimed it and stopped: the row is pending, counted once, and claimed for a while.
    await database.db
      .update(webhookDeliveries)
      .set({ attempts: 1, nextAttemptAt: new Date(clock.now().getTime() + 2 * 60_000 + 10_000) });
    const survivor = sender(secondConnection());
    expect(await survivor.drain()).toBe(0);
    clock.advance(2 * 60_000 + 10_001);
    expect(await survivor.drain()).toBe(1);
    const [row] = await database.db.select().from(webhookDeliveries);
    expect(row).toMatchObject({ status: "delivered", attempts: 2 });
    expect(receiver.received).toHaveLength(1);
  });
});
