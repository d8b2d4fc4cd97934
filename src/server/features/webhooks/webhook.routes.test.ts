import type { LookupAddress } from "node:dns";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminChanges, type UserRow, webhookEndpoints } from "#server/db/schema/index.ts";
import { signedInAs } from "#server/test/factories.ts";
import { registeredRoutes } from "#server/test/route-table.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { AdminChangePage } from "#shared/settings/settings.schemas.ts";
import type { Webhook, WebhookWithSecret } from "#shared/webhooks/webhook.schemas.ts";

// A resolver that knows a few made-up names (the machine may be offline) and asks the system for the rest,
// so "localhost" resolves as it really does.
const fakeDns: Record<string, LookupAddress[]> = {
  "hooks.example.com": [{ address: "93.184.215.14", family: 4 }],
  "intranet.example.com": [{ address: "10.1.2.3", family: 4 }],
  "split.example.com": [
    { address: "93.184.215.14", family: 4 },
    { address: "fd00:ec2::254", family: 6 },
  ],
};

let t: TestApp;
type Person = { user: UserRow; cookie: string };
let user: Person;
let technician: Person;
let admin: Person;

beforeAll(async () => {
  t = await createTestApp({
    webhooks: {
      allowPrivate: false,
      resolve: async (host) => {
        const known = fakeDns[host];
        if (known) return known;
        const { lookup } = await import("node:dns/promises");
        return lookup(host, { all: true });
      },
    },
  });
  user = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(webhookEndpoints);
  await t.database.db.delete(adminChanges);
});

const stored = async () => ({
  endpoints: await t.database.db.select().from(webhookEndpoints),
  changes: await t.database.db.select().from(adminChanges),
});
const webhookRoutes = () =>
  registeredRoutes(t.app).filter(
    (route) => route.url.startsWith("/api/admin/webhooks") && route.method !== "HEAD",
  );
const missingWebhook = "whk_0000000000000000";
const missingDelivery = "whd_00000000-0000-4000-8000-000000000000";
const concrete = (url: string) =>
  url.replace(":webhookId", missingWebhook).replace(":deliveryId", missingDelivery);

async function create(payload: object, cookie = admin.cookie) {
  return request(t.app, { method: "POST", url: "/api/admin/webhooks", cookie, payload });
}
const valid = { url: "https://hooks.example.com/helpdesk", events: ["ticket.created"], description: "Chat" };

describe("who may use webhooks", () => {
  it("lists the routes it checks", () => {
    expect(webhookRoutes().map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        "GET /api/admin/webhooks",
        "POST /api/admin/webhooks",
        "GET /api/admin/webhooks/:webhookId",
        "PATCH /api/admin/webhooks/:webhookId",
        "DELETE /api/admin/webhooks/:webhookId",
        "POST /api/admin/webhooks/:webhookId/rotate-secret",
        "GET /api/admin/webhooks/:webhookId/deliveries",
        "POST /api/admin/webhooks/:webhookId/deliveries/:deliveryId/redeliver",
      ]),
    );
  });

  it("refuses anonymous people (401), users and technicians (403) on every route, even with a bad body, and changes nothing", async () => {
    const before = await stored();
    for (const route of webhookRoutes()) {
      for (const payload of [undefined, { nonsense: true }, valid]) {
        if (route.method === "GET" && payload) continue;
        for (const [who, cookie, status] of [
          ["anonymous", undefined, 401],
          ["user", user.cookie, 403],
          ["technician", technician.cookie, 403],
        ] as const) {
          const response = await request(t.app, {
            method: route.method as "GET",
            url: concrete(route.url),
            cookie,
            payload,
          });
          expect(response.statusCode, `${who} ${route.method} ${route.url}: ${response.body}`).toBe(status);
        }
      }
    }
    expect(await stored()).toEqual(before);
  });

  it("answers administrators on every route: the list 200, a missing item 404, a bad body 400", async () => {
    for (const route of webhookRoutes()) {
      const hasBody = route.method === "POST" || route.method === "PATCH";
      const takesInput =
        hasBody &&
        !route.url.endsWith("redeliver") &&
        !route.url.endsWith("rotate-secret") &&
        !route.url.endsWith("/test");
      const response = await request(t.app, {
        method: route.method as "GET",
        url: concrete(route.url),
        cookie: admin.cookie,
        payload: takesInput ? { nonsense: true } : undefined,
      });
      const expected = route.url.includes(":") ? (takesInput ? 400 : 404) : takesInput ? 400 : 200;
      expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBe(expected);
      if (expected !== 200) expect(response.json()).toHaveProperty("code");
    }
  });
});

describe("registering webhooks", () => {
  it("creates an endpoint, shows its secret once, and records the change without the secret", async () => {
    const response = await create(valid);
    expect(response.statusCode, response.body).toBe(201);
    const { webhook, secret } = response.json<WebhookWithSecret>();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(webhook).toMatchObject({
      url: valid.url,
      description: "Chat",
      events: ["ticket.created"],
      active: true,
      secretHint: `…${secret.slice(-4)}`,
    });

    const list = await request(t.app, { method: "GET", url: "/api/admin/webhooks", cookie: admin.cookie });
    expect(list.json()).toEqual({ items: [webhook] });
    expect(list.body).not.toContain(secret);

    const history = await request(t.app, {
      method: "GET",
      url: "/api/admin/settings/history?area=webhooks",
      cookie: admin.cookie,
    });
    const page = history.json<AdminChangePage>();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      area: "webhooks",
      summary: `Added the webhook ${valid.url}`,
      actorName: admin.user.name,
      before: null,
    });
    expect(history.body).not.toContain(secret);
  });

  it("edits, pauses, rotates the secret (the old one stops working) and deletes, each in the history", async () => {
    const { webhook, secret } = (await create(valid)).json<WebhookWithSecret>();
    const url = `/api/admin/webhooks/${webhook.id}`;
    const edited = await request(t.app, {
      method: "PATCH",
      url,
      cookie: admin.cookie,
      payload: { active: false, events: ["ticket.feedback", "ticket.created"] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // Events come back in the one documented order, whatever order they were sent in.
    expect(edited.json<Webhook>()).toMatchObject({
      active: false,
      events: ["ticket.created", "ticket.feedback"],
    });

    const rotated = await request(t.app, {
      method: "POST",
      url: `${url}/rotate-secret`,
      cookie: admin.cookie,
    });
    expect(rotated.statusCode).toBe(200);
    const next = rotated.json<WebhookWithSecret>().secret;
    expect(next).not.toBe(secret);
    const [row] = await t.database.db.select().from(webhookEndpoints);
    expect(row!.secret).toBe(next);

    const deleted = await request(t.app, { method: "DELETE", url, cookie: admin.cookie });
    expect(deleted.statusCode).toBe(204);
    expect((await request(t.app, { method: "GET", url, cookie: admin.cookie })).statusCode).toBe(404);
    const summaries = (await t.database.db.select().from(adminChanges)).map((c) => c.summary).sort();
    expect(summaries).toEqual(
      [
        `Added the webhook ${valid.url}`,
        `Changed the webhook ${valid.url}`,
        `Rotated the secret of the webhook ${valid.url}`,
        `Deleted the webhook ${valid.url}`,
      ].sort(),
    );
  });

  it("refuses bad input with a 400 that names the problem, and writes nothing", async () => {
    const cases: Array<[object, RegExp]> = [
      [{ ...valid, url: "ftp://hooks.example.com/x" }, /http:\/\/ or https:\/\//],
      [{ ...valid, url: "not a url" }, /full address/],
      [{ ...valid, url: "https://user:pw@hooks.example.com/" }, /user name or password/],
      [{ ...valid, events: [] }, /at least one event/],
      [{ ...valid, events: ["ticket.escalated"] }, /not a webhook event/],
      [{ ...valid, description: "x".repeat(201) }, /at most 200/],
      [{ events: ["ticket.created"] }, /URL is required/],
    ];
    for (const [payload, message] of cases) {
      const response = await create(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect(await stored()).toEqual({ endpoints: [], changes: [] });
  });

  it("refuses targets inside the network on save: loopback, private, link-local, metadata, IPv6 and names resolving there", async () => {
    const refused = [
      "http://127.0.0.1:8080/hook",
      "http://10.0.0.8/hook",
      "http://192.168.1.20/hook",
      "http://172.16.5.4/hook",
      "http://169.254.169.254/latest/meta-data/",
      "http://[::1]:3000/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://[::ffff:a9fe:a9fe]/hook",
      "http://[fd00:ec2::254]/hook",
      "http://[fe80::1]/hook",
      "http://0.0.0.0/hook",
      "http://2130706433/hook", // 127.0.0.1 written as one number
      "http://0x7f.1/hook",
      "http://224.0.0.1/hook",
      "http://localhost:3000/hook",
      "https://intranet.example.com/hook",
      "https://split.example.com/hook",
    ];
    for (const url of refused) {
      const response = await create({ ...valid, url });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
      expect(response.json().message).toMatch(/private, loopback or reserved address/);
    }
    expect((await stored()).endpoints).toEqual([]);
    // Changing the URL of an existing endpoint is checked the same way.
    const id = (await create(valid)).json<WebhookWithSecret>().webhook.id;
    const moved = await request(t.app, {
      method: "PATCH",
      url: `/api/admin/webhooks/${id}`,
      cookie: admin.cookie,
      payload: { url: "http://169.254.169.254/" },
    });
    expect(moved.statusCode).toBe(400);
    expect((await stored()).endpoints[0]!.url).toBe(valid.url);
  });

  it("refuses a name that does not resolve", async () => {
    const response = await create({ ...valid, url: "https://does-not-exist.invalid/hook" });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/could not be resolved/);
  });
});
