import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  adminChanges,
  mailOutbox,
  notifications,
  webhookDeliveries,
  webhookEndpoints,
} from "#server/db/schema/index.ts";
import { createOffsetClock } from "#server/test/clock.ts";
import { signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "#server/test/webhook-receiver.ts";
import type {
  Webhook,
  WebhookTestPayload,
  WebhookTestResult,
  WebhookWithSecret,
} from "#shared/webhooks/webhook.schemas.ts";
import { webhookSignature } from "./webhook-post.ts";

// Decision 080: "Send test" answers the attempt's outcome at once; an endpoint whose deliveries keep failing
// is switched off and the administrators are told; a delivery made ends the run of failures.

const clock = createOffsetClock();
let t: TestApp;
let receiver: WebhookReceiver;
let admin: { cookie: string; user: { id: string; name: string } };
let otherAdmin: { cookie: string; user: { id: string; name: string } };
let technician: { cookie: string; user: { id: string; name: string } };
let creator: { cookie: string; user: { id: string; name: string } };

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({ clock, webhooks: { allowPrivate: true, timeoutMs: 3_000 } });
  admin = await signedInAs(t.app, t.database.db, "admin");
  otherAdmin = await signedInAs(t.app, t.database.db, "admin");
  technician = await signedInAs(t.app, t.database.db, "technician");
  creator = await signedInAs(t.app, t.database.db, "user");
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});
beforeEach(async () => {
  await t.database.db.delete(webhookEndpoints);
  await t.database.db.delete(notifications);
  receiver.reset();
});

async function register(payload: object = {}) {
  const response = await request(t.app, {
    method: "POST",
    url: "/api/admin/webhooks",
    cookie: admin.cookie,
    payload: { url: receiver.url(), events: ["ticket.created"], ...payload },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<WebhookWithSecret>();
}

const sendTest = (webhookId: string, cookie = admin.cookie) =>
  request(t.app, { method: "POST", url: `/api/admin/webhooks/${webhookId}/test`, cookie });

async function webhookOf(id: string) {
  const response = await request(t.app, {
    method: "GET",
    url: `/api/admin/webhooks/${id}`,
    cookie: admin.cookie,
  });
  expect(response.statusCode).toBe(200);
  return response.json<Webhook>();
}

async function createTicket() {
  const response = await request(t.app, {
    method: "POST",
    url: "/api/tickets",
    cookie: creator.cookie,
    payload: {
      title: "Printer jams",
      description: "It jams on every second page.",
      category: "Hardware",
      priority: "Low",
      department: "General",
      floor: "2",
      officeNumber: "201",
    },
  });
  expect(response.statusCode, response.body).toBe(201);
}

/** Waits until `count` deliveries are finished (the sender records them just after the receiver answers). */
async function finished(count: number) {
  for (;;) {
    const rows = await t.database.db.select().from(webhookDeliveries);
    if (rows.filter((row) => row.status !== "pending").length >= count) return rows;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("Send test", () => {
  it("sends a signed webhook.test now and answers how it went, storing no delivery", async () => {
    const { webhook, secret } = await register();
    const response = await sendTest(webhook.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<WebhookTestResult>()).toMatchObject({
      delivered: true,
      responseStatus: 200,
      responseBody: "ok",
      error: null,
      durationMs: expect.any(Number),
    });
    const [got] = receiver.received;
    const timestamp = Number(got!.headers["helpdesk-webhook-timestamp"]);
    expect(got!.headers["helpdesk-webhook-signature"]).toBe(webhookSignature(secret, timestamp, got!.body));
    expect(JSON.parse(got!.body) as WebhookTestPayload).toMatchObject({
      type: "webhook.test",
      webhook: { id: webhook.id, url: webhook.url },
      actor: { id: admin.user.id, name: admin.user.name },
    });
    expect(await t.database.db.select().from(webhookDeliveries)).toEqual([]);
  });

  it("answers the receiver's refusal with its code and the error, and counts no failure", async () => {
    const { webhook } = await register({ failureLimit: 1 });
    receiver.replies.push({ status: 500, body: "database down" });
    const response = await sendTest(webhook.id);
    expect(response.statusCode).toBe(200);
    expect(response.json<WebhookTestResult>()).toMatchObject({
      delivered: false,
      responseStatus: 500,
      responseBody: "database down",
      error: "The receiver answered 500",
    });
    expect(await webhookOf(webhook.id)).toMatchObject({ active: true, consecutiveFailures: 0 });
  });

  it("is refused to anyone but an administrator, who is told why", async () => {
    const { webhook } = await register();
    const response = await sendTest(webhook.id, technician.cookie);
    expect(response.statusCode).toBe(403);
    expect(response.json<{ message: string }>().message).toBe("Only administrators can manage webhooks.");
    expect(receiver.received).toEqual([]);
    expect((await sendTest("whk_0000000000000000")).statusCode).toBe(404);
  });
});

describe("switched off after failed deliveries", () => {
  it("switches the endpoint off at its limit, says why, records it and tells every administrator", async () => {
    const { webhook } = await register({ failureLimit: 2 });
    receiver.replies.push({ status: 410, body: "gone" }, { status: 410, body: "gone" });
    await createTicket();
    await finished(1);
    expect(await webhookOf(webhook.id)).toMatchObject({ active: true, consecutiveFailures: 1 });
    await createTicket();
    await finished(2);

    const off = await webhookOf(webhook.id);
    expect(off).toMatchObject({
      active: false,
      consecutiveFailures: 2,
      disabledAt: expect.any(String),
      disabledReason: "Switched off after 2 deliveries failed in a row. The last: The receiver answered 410",
    });
    const told = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.type, "webhook_disabled"));
    expect(told.map((row) => row.userId).sort()).toEqual([admin.user.id, otherAdmin.user.id].sort());
    expect(told[0]).toMatchObject({
      ticketId: null,
      params: { kind: "webhook_disabled", webhookId: webhook.id, url: webhook.url, failures: 2 },
    });
    // E-mailed to the administrators (on by default), with a link to the webhook page.
    const mails = (await t.database.db.select().from(mailOutbox)).filter((mail) =>
      mail.subject.startsWith("[Helpdesk] Webhook switched off"),
    );
    expect(mails.map((mail) => mail.userId).sort()).toEqual([admin.user.id, otherAdmin.user.id].sort());
    expect(mails[0]!.subject).toBe(`[Helpdesk] Webhook switched off: ${webhook.url}`);
    expect(mails[0]!.link).toContain("/admin/settings?tab=webhooks");
    const [history] = await t.database.db
      .select()
      .from(adminChanges)
      .where(eq(adminChanges.summary, `Switched off the webhook ${webhook.url} after 2 failed deliveries`));
    expect(history).toMatchObject({ actorId: null, area: "webhooks", after: { active: false } });

    // Off: the next ticket queues nothing for it.
    await createTicket();
    expect(await t.database.db.select().from(webhookDeliveries)).toHaveLength(2);

    // Switched on again by an administrator: the reason and the count are gone.
    const on = await request(t.app, {
      method: "PATCH",
      url: `/api/admin/webhooks/${webhook.id}`,
      cookie: admin.cookie,
      payload: { active: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json<Webhook>()).toMatchObject({
      active: true,
      consecutiveFailures: 0,
      disabledAt: null,
      disabledReason: null,
    });
  });

  it("starts counting again after a delivery is made, and never switches off an endpoint whose limit is 0", async () => {
    const { webhook } = await register({ failureLimit: 2 });
    receiver.replies.push({ status: 410 }, { status: 200, body: "ok" }, { status: 410 });
    await createTicket();
    await finished(1);
    expect((await webhookOf(webhook.id)).consecutiveFailures).toBe(1);
    await createTicket();
    await finished(2);
    expect((await webhookOf(webhook.id)).consecutiveFailures).toBe(0);
    await createTicket();
    await finished(3);
    expect(await webhookOf(webhook.id)).toMatchObject({ active: true, consecutiveFailures: 1 });

    await t.database.db.delete(webhookEndpoints);
    await t.database.db.delete(webhookDeliveries);
    const never = await register({ failureLimit: 0 });
    receiver.replies.push({ status: 410 }, { status: 410 }, { status: 410 });
    for (const count of [1, 2, 3]) {
      await createTicket();
      await finished(count);
    }
    expect(await webhookOf(never.webhook.id)).toMatchObject({ active: true, consecutiveFailures: 3 });
    expect(
      await t.database.db.select().from(notifications).where(eq(notifications.type, "webhook_disabled")),
    ).toEqual([]);
  });

  it("refuses a limit that is not a whole number from 0 to 1000, saying so", async () => {
    const response = await request(t.app, {
      method: "POST",
      url: "/api/admin/webhooks",
      cookie: admin.cookie,
      payload: { url: receiver.url(), events: ["ticket.created"], failureLimit: -1 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain("Switch off after must be a whole number from 0 (never) to 1000");
  });
});
