import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "#server/db/schema/index.ts";
import { inTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { createOffsetClock } from "#server/test/clock.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "#server/test/webhook-receiver.ts";
import type {
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookPayload,
  WebhookWithSecret,
} from "#shared/webhooks/webhook.schemas.ts";

type Verify = (
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: string,
  nowSeconds?: number,
) => boolean;

/**
 * The receiver's check exactly as docs/api.md prints it: the TypeScript block of its "Webhooks" section is
 * written to a file and imported, so a test fails when the docs stop matching what the server sends.
 */
async function verifierFromTheDocs(): Promise<Verify> {
  const docs = readFileSync(path.resolve("docs/api.md"), "utf8");
  const section = docs.slice(docs.indexOf("## Webhooks"));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error("docs/api.md has no TypeScript block under ## Webhooks");
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "helpdesk-receiver-")), "verify.ts");
  writeFileSync(file, code);
  const module = (await import(/* @vite-ignore */ file)) as { verifyHelpdeskWebhook: Verify };
  return module.verifyHelpdeskWebhook;
}

const clock = createOffsetClock();
let t: TestApp;
let receiver: WebhookReceiver;
let verify: Verify;
let admin: { cookie: string; user: { id: string; name: string } };
let creator: { cookie: string; user: { id: string; name: string } };
let technician: { cookie: string; user: { id: string; name: string } };

beforeAll(async () => {
  verify = await verifierFromTheDocs();
  receiver = await startWebhookReceiver();
  // Loopback receivers need private targets allowed; one attempt gives up after 3 s here (time enough to check that the app answers meanwhile).
  t = await createTestApp({ clock, webhooks: { allowPrivate: true, timeoutMs: 3_000 } });
  admin = await signedInAs(t.app, t.database.db, "admin");
  creator = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});
beforeEach(async () => {
  await t.database.db.delete(webhookEndpoints);
  receiver.reset();
});

async function register(events: string[], options: { active?: boolean; url?: string } = {}) {
  const response = await request(t.app, {
    method: "POST",
    url: "/api/admin/webhooks",
    cookie: admin.cookie,
    payload: { url: options.url ?? receiver.url(), events, active: options.active ?? true },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<WebhookWithSecret>();
}

async function createTicket(title = "Printer on floor 2 jams") {
  const response = await request(t.app, {
    method: "POST",
    url: "/api/tickets",
    cookie: creator.cookie,
    payload: {
      title,
      description: "It jams on every second page.",
      category: "Hardware",
      priority: "Low",
      department: "General",
      floor: "2",
      officeNumber: "201",
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ ticketId: string }>();
}

const deliveries = () => t.database.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.createdAt);

/**
 * The sender records an attempt just after the receiver answered: wait for the row to say so (an attempt
 * under way is pending with no outcome; a recorded one is finished or has its error).
 */
async function settled(id: string, attempts: number) {
  for (;;) {
    const [row] = await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    if (row && row.attempts >= attempts && (row.status !== "pending" || row.lastError !== null)) return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function log(webhookId: string) {
  const response = await request(t.app, {
    method: "GET",
    url: `/api/admin/webhooks/${webhookId}/deliveries`,
    cookie: admin.cookie,
  });
  expect(response.statusCode).toBe(200);
  return response.json<WebhookDeliveryPage>();
}

describe("a delivery a receiver can trust", () => {
  it("POSTs a ticket's creation after commit, signed so that the receiver from the docs accepts it", async () => {
    const { webhook, secret } = await register(["ticket.created"]);
    const ticket = await createTicket();
    await receiver.waitFor(1);

    const [got] = receiver.received;
    const headers = {
      timestamp: got!.headers["helpdesk-webhook-timestamp"] as string,
      signature: got!.headers["helpdesk-webhook-signature"] as string,
    };
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(verify(secret, headers, got!.body)).toBe(true);
    // The same request is refused with another secret, another body, or replayed 5 minutes later.
    expect(verify(`${secret}x`, headers, got!.body)).toBe(false);
    expect(verify(secret, headers, got!.body.replace("Printer", "Scanner"))).toBe(false);
    expect(verify(secret, headers, got!.body, Number(headers.timestamp) + 5 * 60 + 1)).toBe(false);

    const payload = JSON.parse(got!.body) as WebhookPayload;
    expect(payload).toMatchObject({
      type: "ticket.created",
      actor: { id: creator.user.id, name: creator.user.name },
      ticket: { ticketId: ticket.ticketId, title: "Printer on floor 2 jams", status: "Open" },
    });
    // As an admin reads it: with its service-level view.
    expect(payload.ticket).toHaveProperty("sla");

    const [row] = await deliveries();
    expect(got!.headers["helpdesk-webhook-id"]).toBe(row!.id);
    expect(payload.id).toBe(row!.eventId);
    const delivered = await settled(row!.id, 1);
    expect(delivered).toMatchObject({
      status: "delivered",
      attempts: 1,
      responseStatus: 200,
      responseBody: "ok",
    });
    expect((await log(webhook.id)).items).toEqual([
      expect.objectContaining({ id: row!.id, status: "delivered", responseStatus: 200, attempts: 1 }),
    ]);
  });

  it("retries after a 500 with backoff and then delivers; the retry is the same delivery, freshly signed", async () => {
    const { secret } = await register(["ticket.created"]);
    receiver.replies.push({ status: 500, body: "database down" });
    await createTicket();
    await receiver.waitFor(1);
    const [queued] = await deliveries();
    const failedOnce = await settled(queued!.id, 1);
    expect(failedOnce).toMatchObject({
      status: "pending",
      attempts: 1,
      responseStatus: 500,
      responseBody: "database down",
      lastError: "The receiver answered 500",
    });
    // The next attempt is a minute later: not before.
    const waited = failedOnce.nextAttemptAt.getTime() - clock.now().getTime();
    expect(waited).toBeGreaterThan(55_000);
    expect(waited).toBeLessThanOrEqual(60_000);
    await t.app.jobs.tick();
    expect(receiver.received).toHaveLength(1);

    clock.advance(61_000);
    await t.app.jobs.tick();
    await receiver.waitFor(2);
    const delivered = await settled(queued!.id, 2);
    expect(delivered).toMatchObject({
      status: "delivered",
      attempts: 2,
      responseStatus: 200,
      lastError: null,
    });
    const [first, second] = receiver.received;
    expect(second!.headers["helpdesk-webhook-id"]).toBe(first!.headers["helpdesk-webhook-id"]);
    expect(second!.body).toBe(first!.body);
    expect(
      verify(
        secret,
        {
          timestamp: second!.headers["helpdesk-webhook-timestamp"] as string,
          signature: second!.headers["helpdesk-webhook-signature"] as string,
        },
        second!.body,
        Math.floor(clock.now().getTime() / 1000),
      ),
    ).toBe(true);
  });

  it("attempts each retry when it falls due (1 minute, then 5), without waiting for the job's next look", async () => {
    await register(["ticket.created"]);
    receiver.replies.push({ status: 503, body: "busy" }, { status: 503, body: "still busy" });
    await createTicket();
    await receiver.waitFor(1);
    const [queued] = await deliveries();
    // No job runs here (the test app's job runner looks once an hour): only the sender's own timer can
    // make these attempts. The clock moves to exactly each retry's due time, and no further.
    const first = await settled(queued!.id, 1);
    clock.advance(first.nextAttemptAt.getTime() - clock.now().getTime());
    await receiver.waitFor(2);
    const second = await settled(queued!.id, 2);
    expect(second).toMatchObject({ status: "pending", lastError: "The receiver answered 503" });
    const wait = second.nextAttemptAt.getTime() - clock.now().getTime();
    expect(wait).toBeGreaterThan(4 * 60_000);
    expect(wait).toBeLessThanOrEqual(5 * 60_000);
    clock.advance(wait);
    await receiver.waitFor(3);
    expect(await settled(queued!.id, 3)).toMatchObject({ status: "delivered", attempts: 3 });
  });

  it("fails at once on a 4xx other than 429, and never follows a redirect", async () => {
    await register(["ticket.created"]);
    receiver.replies.push({ status: 410, body: "gone" });
    await createTicket();
    await receiver.waitFor(1);
    const [row] = await deliveries();
    expect(await settled(row!.id, 1)).toMatchObject({
      status: "failed",
      attempts: 1,
      responseStatus: 410,
      lastError: "The receiver answered 410",
    });

    receiver.reset();
    await t.database.db.delete(webhookDeliveries);
    receiver.replies.push({ status: 302, headers: { location: receiver.url("/elsewhere") } });
    await createTicket();
    await receiver.waitFor(1);
    const [redirected] = await deliveries();
    expect(await settled(redirected!.id, 1)).toMatchObject({
      status: "failed",
      responseStatus: 302,
      lastError: "The receiver answered 302 (redirects are not followed)",
    });
    expect(receiver.received.map((r) => r.path)).toEqual(["/hook"]);
    clock.advance(13 * 3_600_000);
    await t.app.jobs.tick();
    expect(receiver.received).toHaveLength(1);
  });

  it("retries a 429 and a receiver that does not answer in time, and the app's requests never wait for it", async () => {
    await register(["ticket.created"]);
    receiver.replies.push("hang");
    await createTicket("First");
    await receiver.waitFor(1);
    // The receiver holds the first webhook open; the app still answers at once.
    await createTicket("Second");
    const [first] = await deliveries();
    const [inFlight] = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, first!.id));
    expect(inFlight).toMatchObject({ status: "pending", attempts: 1, lastError: null, responseStatus: null });

    expect(await settled(first!.id, 1)).toMatchObject({
      status: "pending",
      lastError: "No answer within 3 s",
    });
    const second = (await deliveries()).find((row) => row.id !== first!.id)!;
    expect(await settled(second.id, 1)).toMatchObject({ status: "delivered" });

    receiver.replies.push({ status: 429 });
    clock.advance(61_000);
    await t.app.jobs.tick();
    expect(await settled(first!.id, 2)).toMatchObject({
      status: "pending",
      attempts: 2,
      responseStatus: 429,
    });
    // The second retry waits 5 minutes.
    clock.advance(5 * 60_000 + 1_000);
    await t.app.jobs.tick();
    expect(await settled(first!.id, 3)).toMatchObject({ status: "delivered", attempts: 3 });
  });
});

describe("what is sent, and what is not", () => {
  it("sends a public comment with its text, never an internal note", async () => {
    await register(["ticket.commented", "ticket.created"]);
    const ticket = await insertTicket(t.database.db, {
      createdBy: creator.user.id,
      assignedTo: technician.user.id,
      status: "In Progress",
    });
    const note = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.id}/comments`,
      cookie: technician.cookie,
      payload: { message: "The user broke it again (internal)", isInternal: true },
    });
    expect(note.statusCode, note.body).toBe(201);
    expect(await deliveries()).toEqual([]);

    const comment = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.id}/comments`,
      cookie: technician.cookie,
      payload: { message: "Please restart the printer." },
    });
    expect(comment.statusCode).toBe(201);
    await receiver.waitFor(1);
    const payload = JSON.parse(receiver.received[0]!.body) as WebhookPayload;
    expect(payload).toMatchObject({
      type: "ticket.commented",
      actor: { id: technician.user.id },
      comment: { text: "Please restart the printer.", authorId: technician.user.id },
    });
    expect(receiver.received[0]!.body).not.toContain("internal");
  });

  it("queues one delivery per active endpoint subscribed to the event, and none for others", async () => {
    const statusHook = await register(["ticket.status_changed"]);
    await register(["ticket.status_changed"], { active: false });
    await register(["ticket.feedback"]);
    const ticket = await insertTicket(t.database.db, {
      createdBy: creator.user.id,
      assignedTo: technician.user.id,
      status: "In Progress",
    });
    const changed = await request(t.app, {
      method: "PATCH",
      url: `/api/tickets/${ticket.id}/status`,
      cookie: technician.cookie,
      payload: { status: "Resolved" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await receiver.waitFor(1);
    const rows = await deliveries();
    expect(rows.map((r) => [r.endpointId, r.eventType])).toEqual([
      [statusHook.webhook.id, "ticket.status_changed"],
    ]);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      type: "ticket.status_changed",
      status: { from: "In Progress", to: "Resolved" },
      ticket: { status: "Resolved" },
    });
  });

  it("sends Assign to Me as ticket.assigned and the creator's rating as ticket.feedback", async () => {
    await register(["ticket.assigned", "ticket.feedback"]);
    const open = await insertTicket(t.database.db, { createdBy: creator.user.id });
    const assigned = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${open.id}/assign`,
      cookie: technician.cookie,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    await receiver.waitFor(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      type: "ticket.assigned",
      actor: { id: technician.user.id },
      assignee: { from: null, to: technician.user.id },
      status: { from: "Open", to: "In Progress" },
      ticket: { assignedTo: technician.user.id, assignedToName: technician.user.name },
    });

    const resolved = await insertTicket(t.database.db, {
      createdBy: creator.user.id,
      assignedTo: technician.user.id,
      status: "Resolved",
    });
    const rated = await request(t.app, {
      method: "PUT",
      url: `/api/tickets/${resolved.id}/feedback`,
      cookie: creator.cookie,
      payload: { rating: 4, comment: "Quick, thanks" },
    });
    expect(rated.statusCode, rated.body).toBe(200);
    await receiver.waitFor(2);
    expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({
      type: "ticket.feedback",
      actor: { id: creator.user.id },
      feedback: { rating: 4, comment: "Quick, thanks" },
    });
  });

  it("holds a paused endpoint's queued retry until it is switched on again, then sends it at once", async () => {
    const { webhook } = await register(["ticket.created"]);
    receiver.replies.push({ status: 503 });
    await createTicket();
    await receiver.waitFor(1);
    const [row] = await deliveries();
    await settled(row!.id, 1);
    const pause = (active: boolean) =>
      request(t.app, {
        method: "PATCH",
        url: `/api/admin/webhooks/${webhook.id}`,
        cookie: admin.cookie,
        payload: { active },
      });
    expect((await pause(false)).statusCode).toBe(200);
    clock.advance(61_000);
    await t.app.jobs.tick();
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries())[0]).toMatchObject({ status: "pending", attempts: 1 });

    // Switched on: the retry that fell due meanwhile goes at once, without the job's next look.
    expect((await pause(true)).statusCode).toBe(200);
    await receiver.waitFor(2);
    expect(await settled(row!.id, 2)).toMatchObject({ status: "delivered" });
  });

  it("queues nothing when the change rolls back, and exactly one delivery when it commits", async () => {
    await register(["ticket.created"]);
    const ticket = await insertTicket(t.database.db, { createdBy: creator.user.id });
    const record = (fail: boolean) =>
      inTransaction({ db: t.database.db }, async (_tx, recordEvent) => {
        await recordEvent({ ticketId: ticket.id, type: "created", actorId: creator.user.id });
        if (fail) throw new Error("the change failed");
      });
    await expect(record(true)).rejects.toThrow("the change failed");
    expect(await deliveries()).toEqual([]);
    await record(false);
    expect(await deliveries()).toHaveLength(1);
  });

  it("redelivers: a new delivery of the same body, sent at once and shown in the log", async () => {
    const { webhook } = await register(["ticket.created"]);
    await createTicket();
    await receiver.waitFor(1);
    const [original] = await deliveries();
    await settled(original!.id, 1);

    const response = await request(t.app, {
      method: "POST",
      url: `/api/admin/webhooks/${webhook.id}/deliveries/${original!.id}/redeliver`,
      cookie: admin.cookie,
    });
    expect(response.statusCode, response.body).toBe(201);
    const again = response.json<WebhookDelivery>();
    expect(again).toMatchObject({ status: "pending", attempts: 0, redeliveryOf: original!.id });
    expect(again.id).not.toBe(original!.id);
    await receiver.waitFor(2);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    expect(receiver.received[1]!.headers["helpdesk-webhook-id"]).toBe(again.id);
    await settled(again.id, 1);
    expect((await log(webhook.id)).items.map((d) => [d.id, d.status])).toEqual([
      [again.id, "delivered"],
      [original!.id, "delivered"],
    ]);
  });

  it("deletes finished deliveries after the retention period", async () => {
    await register(["ticket.created"]);
    await createTicket();
    await receiver.waitFor(1);
    const [row] = await deliveries();
    await settled(row!.id, 1);
    clock.advance(31 * 24 * 3_600_000);
    await t.app.jobs.tick();
    expect(await deliveries()).toEqual([]);
  });
});
