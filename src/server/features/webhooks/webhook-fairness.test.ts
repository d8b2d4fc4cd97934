import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "#server/db/schema/index.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { startWebhookReceiver, type WebhookReceiver } from "#server/test/webhook-receiver.ts";
import { createWebhookSender, webhookPlacesPerEndpoint as places } from "./webhook-sender.ts";

// Decision 050: a receiver that hangs must not hold up the deliveries to other webhooks. The sender used
// to claim ten due deliveries across all endpoints and wait for all ten: with a hanging receiver's backlog
// first in line, every other endpoint waited for its timeouts. Each endpoint now has places of its own.

const quiet = { warn: () => {}, error: () => {} };
let database: TestDatabase;
let receiver: WebhookReceiver;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await database.destroy();
});

const hanging = { id: "whk_00000000000000h1", path: "/hanging" };
const healthy = { id: "whk_00000000000000o1", path: "/healthy" };

async function queue(endpoint: { id: string }, count: number, from: number, at: Date) {
  await database.db.insert(webhookDeliveries).values(
    Array.from({ length: count }, (_, i) => ({
      id: `whd_00000000-0000-4000-8000-${String(from + i).padStart(12, "0")}`,
      endpointId: endpoint.id,
      eventType: "ticket.created" as const,
      body: JSON.stringify({ n: from + i }),
      nextAttemptAt: at,
      createdAt: at,
    })),
  );
}

describe("a receiver that hangs", () => {
  it("holds only its own deliveries: the other webhook's is made while its attempts are still unanswered", async () => {
    for (const endpoint of [hanging, healthy])
      await database.db.insert(webhookEndpoints).values({
        id: endpoint.id,
        url: receiver.url(endpoint.path),
        events: ["ticket.created"],
        secret: "whsec_test",
      });
    // The hanging receiver's backlog is older than the healthy one's delivery: first in line.
    const earlier = new Date(Date.now() - 60_000);
    await queue(hanging, 12, 0, earlier);
    await queue(healthy, 1, 100, new Date(earlier.getTime() + 1_000));
    receiver.holdPath(hanging.path);

    // A long attempt limit: the hanging receiver's attempts stay unanswered until the test releases them.
    const sender = createWebhookSender({
      db: database.db,
      allowPrivate: true,
      log: quiet,
      timeoutMs: 600_000,
    });
    const draining = sender.drain();
    const first = await Promise.race([
      receiver.waitForPath(healthy.path, 1).then(() => "the healthy webhook's delivery"),
      receiver
        .waitForPath(hanging.path, places + 1)
        .then(() => "one attempt too many at the hanging receiver"),
    ]);
    expect(first).toBe("the healthy webhook's delivery");
    // Recorded as delivered while the hanging receiver's attempts (one per place) are still unanswered.
    await expect
      .poll(async () => {
        const [row] = await database.db
          .select({ status: webhookDeliveries.status })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, healthy.id));
        return row?.status;
      })
      .toBe("delivered");
    expect(receiver.openOn(hanging.path)).toBe(places);

    // The receiver answers again: its backlog goes out, never more attempts at once than it has places.
    receiver.releaseHeld();
    expect(await draining).toBe(13);
    const rows = await database.db.select().from(webhookDeliveries);
    expect(rows.every((row) => row.status === "delivered" && row.attempts === 1)).toBe(true);
    expect(receiver.mostOpenOn(hanging.path)).toBe(places);
    await sender.stop();
  });
});
