import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scimTokens, users } from "#server/db/schema/index.ts";
import { createTestClock } from "#server/test/clock.ts";
import { signedInAs } from "#server/test/factories.ts";
import { createScimToken, expectScimError, scim } from "#server/test/scim-requests.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { CreatedScimToken, ScimTokenList } from "#shared/scim/scim-token.schemas.ts";

// Decision 081: the SCIM tokens of Admin settings › Provisioning (SCIM), and what SCIM answers beside Users.

let t: TestApp;
const clock = createTestClock(new Date());
let admin: Awaited<ReturnType<typeof signedInAs>>;

beforeAll(async () => {
  // This app has exactly one administrator: the last-admin rule's case.
  t = await createTestApp({ clock, apiTokenRateLimit: { window: 60, max: 40 } });
  admin = await signedInAs(t.app, t.database.db, "admin");
});
afterAll(() => t.close());

const list = async (cookie = admin.cookie) => {
  const response = await request(t.app, { method: "GET", url: "/api/admin/scim/tokens", cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ScimTokenList>();
};

describe("/api/admin/scim/tokens", () => {
  it("creates a token shown once, lists it with the base URL, its creator and last use, never its secret", async () => {
    const created = await createScimToken(t, admin.cookie, "Entra ID");
    expect(created.token).toMatch(/^scim_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(created.token.startsWith(created.prefix)).toBe(true);
    const secret = created.token.slice(created.prefix.length + 1);
    let listed = await list();
    expect(listed.baseUrl).toBe("http://localhost:3000/scim/v2");
    expect(listed.items[0]).toMatchObject({
      id: created.id,
      name: "Entra ID",
      createdByName: admin.user.name,
      lastUsedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(secret);
    const [row] = await t.database.db.select().from(scimTokens).where(eq(scimTokens.id, created.id));
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret);

    expect((await scim(t, created.token, "GET", "/Users?count=1")).statusCode).toBe(200);
    listed = await list();
    expect(listed.items[0]?.lastUsedAt).toBe(clock.now().toISOString());
  });

  it("is for administrators only, and not with a personal API token", async () => {
    for (const role of ["user", "technician"] as const) {
      const person = await signedInAs(t.app, t.database.db, role);
      for (const [method, url] of [
        ["GET", "/api/admin/scim/tokens"],
        ["POST", "/api/admin/scim/tokens"],
        ["DELETE", "/api/admin/scim/tokens/0123456789abcdef"],
      ] as const) {
        const response = await request(t.app, {
          method,
          url,
          cookie: person.cookie,
          ...(method === "POST" ? { payload: { name: "x" } } : {}),
        });
        expect(response.statusCode, `${role} ${method}`).toBe(403);
      }
    }
    const personal = await request(t.app, {
      method: "POST",
      url: "/api/me/tokens",
      cookie: admin.cookie,
      payload: { name: "s", scope: "write" },
    });
    const byToken = await t.app.inject({
      method: "POST",
      url: "/api/admin/scim/tokens",
      headers: { authorization: `Bearer ${personal.json().token}` },
      payload: { name: "minted" },
    });
    expect(byToken.statusCode).toBe(403);
    expect(byToken.json().message).toMatch(/API tokens cannot/);
  });

  it("allows 5 tokens at once, then asks to revoke one (409); a revoked token is gone from the list", async () => {
    const made: CreatedScimToken[] = [];
    while ((await list()).items.length < 5)
      made.push(await createScimToken(t, admin.cookie, `Spare ${made.length}`));
    const refused = await request(t.app, {
      method: "POST",
      url: "/api/admin/scim/tokens",
      cookie: admin.cookie,
      payload: { name: "Sixth" },
    });
    expect(refused.statusCode).toBe(409);
    for (const { id } of made) {
      const revoked = await request(t.app, {
        method: "DELETE",
        url: `/api/admin/scim/tokens/${id}`,
        cookie: admin.cookie,
      });
      expect(revoked.statusCode).toBe(204);
    }
    expect((await list()).items.map((item) => item.id)).not.toContain(made[0]?.id);
    // Each creation and revocation is in the admins' change history, by whom.
    const history = await request(t.app, {
      method: "GET",
      url: "/api/admin/settings/history?area=provisioning",
      cookie: admin.cookie,
    });
    expect(history.statusCode, history.body).toBe(200);
    const summaries = history.json<{ items: Array<{ summary: string; actorName: string }> }>().items;
    expect(summaries.map((entry) => entry.summary)).toContain(`Created the SCIM token “${made[0]?.name}”`);
    expect(summaries.map((entry) => entry.summary)).toContain(`Revoked the SCIM token “${made[0]?.name}”`);
    expect(new Set(summaries.map((entry) => entry.actorName))).toEqual(new Set([admin.user.name]));
    const again = await request(t.app, {
      method: "DELETE",
      url: `/api/admin/scim/tokens/${made[0]?.id}`,
      cookie: admin.cookie,
    });
    expect(again.statusCode).toBe(404);
  });
});

describe("SCIM beside Users", () => {
  it("refuses to deactivate the last active administrator, who stays active (400, naming the rule)", async () => {
    const { token } = await createScimToken(t, admin.cookie, "Last admin");
    for (const body of [
      {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
        Operations: [{ op: "Replace", path: "active", value: "False" }],
      },
    ]) {
      const refused = await scim(t, token, "PATCH", `/Users/${admin.user.id}`, body);
      expect(expectScimError(refused, 400).detail).toMatch(/last active administrator/);
    }
    expectScimError(await scim(t, token, "DELETE", `/Users/${admin.user.id}`), 400);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, admin.user.id));
    expect(row?.status).toBe("Active");
  });

  it("stops a token when its creator is no longer an administrator", async () => {
    const other = await signedInAs(t.app, t.database.db, "admin");
    const { token } = await createScimToken(t, other.cookie, "Okta");
    expect((await scim(t, token, "GET", "/Users?count=1")).statusCode).toBe(200);
    await t.database.db.update(users).set({ role: "technician" }).where(eq(users.id, other.user.id));
    expect(expectScimError(await scim(t, token, "GET", "/Users"), 401).detail).toMatch(
      /no longer an active administrator/,
    );
  });

  it("serves ServiceProviderConfig, ResourceTypes and Schemas, and accepts application/json bodies", async () => {
    const { token } = await createScimToken(t, admin.cookie, "Discovery");
    const config = await scim(t, token, "GET", "/ServiceProviderConfig");
    expect(config.headers["content-type"]).toMatch(/^application\/scim\+json/);
    expect(config.json()).toMatchObject({
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
      patch: { supported: true },
      filter: { supported: true, maxResults: 100 },
      bulk: { supported: false },
      authenticationSchemes: [{ type: "oauthbearertoken" }],
    });
    const types = (await scim(t, token, "GET", "/ResourceTypes")).json();
    expect(types.Resources).toEqual([expect.objectContaining({ id: "User", endpoint: "/Users" })]);
    const schemas = (await scim(t, token, "GET", "/Schemas")).json();
    expect(schemas.Resources.map((s: { id: string }) => s.id)).toEqual([
      "urn:ietf:params:scim:schemas:core:2.0:User",
      "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
    ]);
    const asJson = await t.app.inject({
      method: "POST",
      url: "/scim/v2/Users",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      payload: { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "json@contoso.test" },
    });
    expect(asJson.statusCode, asJson.body).toBe(201);
    expectScimError(await scim(t, token, "GET", "/Groups"), 404);
    const notJson = await t.app.inject({
      method: "POST",
      url: "/scim/v2/Users",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" },
      payload: "{not json",
    });
    expectScimError(notJson, 400, "invalidSyntax");
  });

  it("is rate limited per token like an API token: 429 in SCIM's shape with Retry-After", async () => {
    const { token } = await createScimToken(t, admin.cookie, "Busy");
    let answer = await scim(t, token, "GET", "/ServiceProviderConfig");
    expect(answer.headers["ratelimit-policy"]).toBe('"scim-token";q=40;w=60');
    for (let i = 0; i < 40 && answer.statusCode === 200; i += 1)
      answer = await scim(t, token, "GET", "/ServiceProviderConfig");
    expectScimError(answer, 429);
    expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
  });
});
