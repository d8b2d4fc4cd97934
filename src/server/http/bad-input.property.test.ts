import { randomUUID } from "node:crypto";
import fc from "fast-check";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { notifications, type UserRow, webhookDeliveries } from "#server/db/schema/index.ts";
import { insertTicket, insertUser, signedInAs } from "#server/test/factories.ts";
import { registeredRoutes } from "#server/test/route-table.ts";
import {
  changedTables,
  settleOutboxes,
  type TableSnapshot,
  tableSnapshotter,
} from "#server/test/table-snapshot.ts";
import { createTestApp, request, type TestApp, testBaseURL } from "#server/test/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "#server/test/webhook-receiver.ts";
import { apiErrorSchema } from "#shared/errors.ts";
import { scimErrorSchema } from "#shared/scim/scim.schemas.ts";

// Decision 045: generated bad input — wrong types, huge and odd Unicode strings, NUL and control
// characters, nulls, extra and __proto__ keys, deep nesting, SQL and HTML payloads, wrong content types,
// odd path parameters, query strings and headers — sent to every state-changing route by a caller who may
// use it. Never a 5xx; every 4xx in the shared error shape; a refused request writes nothing.
//
// FUZZ_RUNS sets the runs per route (default 12, which keeps the file well under a minute per database);
// above the default the test prints a summary to quote. FUZZ_SEED replays a run (the same seed for every
// route); FUZZ_ROUTES (a regular expression over "METHOD /route") sends to some routes only.
// FUZZ_SNAPSHOT_EVERY=N takes the table snapshot at one request in N instead of every request (default 1):
// the snapshot is most of a request's cost, and a long run (10,000 per route) takes hours with one per
// request. One comparison then covers every refused request since the last snapshot, as long as none
// succeeded in between (a success may write); every request is still checked for its status and shape.

const defaultRuns = 12;
const runs = Number(process.env.FUZZ_RUNS ?? defaultRuns);
const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const snapshotEvery = Number(process.env.FUZZ_SNAPSHOT_EVERY ?? 1);
const routeFilter = process.env.FUZZ_ROUTES ? new RegExp(process.env.FUZZ_ROUTES) : undefined;
if (!Number.isInteger(snapshotEvery) || snapshotEvery < 1) {
  throw new Error(`FUZZ_SNAPSHOT_EVERY must be a whole number ≥ 1, not ${process.env.FUZZ_SNAPSHOT_EVERY}`);
}

let t: TestApp;
let receiver: WebhookReceiver;
type Person = { user: UserRow; cookie: string };
let admin: Person;
let owner: Person;
let technician: Person;
const ids: Record<string, string> = {};
let scimToken = "";

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({ webhooks: { allowPrivate: true } });
  const { db } = t.database;
  admin = await signedInAs(t.app, db, "admin");
  owner = await signedInAs(t.app, db, "user");
  technician = await signedInAs(t.app, db, "technician");
  const ticket = await insertTicket(db, { createdBy: owner.user.id, assignedTo: technician.user.id });
  ids.ticketId = ticket.id;
  ids.userId = (await insertUser(db, { role: "user" })).id;
  const post = async (url: string, payload: unknown, cookie = admin.cookie) => {
    const response = await request(t.app, { method: "POST", url, cookie, payload: payload as object });
    if (response.statusCode !== 201) throw new Error(`${url}: ${response.body}`);
    return response.json() as { id: string; webhook?: { id: string } };
  };
  ids.fieldId = (await post("/api/admin/settings/custom-fields", { label: "Asset tag", type: "text" })).id;
  ids.webhookId = (await post("/api/admin/webhooks", { url: receiver.url(), events: ["ticket.created"] }))
    .webhook!.id;
  ids.deliveryId = `whd_${randomUUID()}`;
  await db.insert(webhookDeliveries).values({
    id: ids.deliveryId,
    endpointId: ids.webhookId,
    eventType: "ticket.created",
    body: "{}",
    status: "failed",
    finishedAt: new Date(),
  });
  ids.articleId = (
    await post("/api/articles", { title: "Printer jams", body: "Open tray 2.", category: "Hardware" })
  ).id;
  ids.responseId = (await post("/api/canned-responses", { title: "Reboot", body: "Please reboot." })).id;
  ids.teamId = (await post("/api/teams", { name: "Network", memberIds: [technician.user.id] })).id;
  ids.macroId = (await post("/api/macros", { title: "Resolve", actions: { status: "Resolved" } })).id;
  ids.ruleId = (await post("/api/routing/rules", { category: "Network", teamId: ids.teamId })).id;
  ids.viewId = (await post("/api/views", { name: "Open", query: "status=Open", sharing: "staff" })).id;
  const other = await insertTicket(db, { createdBy: owner.user.id, assignedTo: technician.user.id });
  const link = await post(`/api/tickets/${ticket.id}/links`, { ticketId: other.id, kind: "related" });
  ids.linkId = (link as unknown as { linkId: string }).linkId;
  ids.affectedId = other.id;
  const [notification] = await db
    .insert(notifications)
    .values({ userId: admin.user.id, type: "test", message: "Hello" })
    .returning();
  ids.notificationId = String(notification!.id);
  ids.tokenId = (await post("/api/me/tokens", { name: "laptop", scope: "read" })).id;
  // SCIM (decision 081) is called with a SCIM token, at a person it may change.
  ids.scimTokenId = (await post("/api/admin/scim/tokens", { name: "Revoked by the fuzzing" })).id;
  scimToken = ((await post("/api/admin/scim/tokens", { name: "Entra ID" })) as { token?: string }).token!;
  ids.id = (await insertUser(db, { role: "user" })).id;
  // A SCIM token records its last use even when the request it opened is then refused (as an API token).
  takeSnapshot = await tableSnapshotter(t.database.db, { ignoredColumns: { scim_tokens: ["last_used_at"] } });
}, 120_000);
afterAll(async () => {
  await t.close();
  await receiver.close();
});

// ---------------------------------------------------------------------------------------- the routes

/** A valid body for each route that takes one: the generators bend it. */
const validBodies: Record<string, unknown> = {
  "POST /scim/v2/Users": {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
    userName: "provisioned@example.test",
    name: { givenName: "Pro", familyName: "Visioned" },
    active: true,
  },
  "PUT /scim/v2/Users/:id": { userName: "renamed@example.test", displayName: "Renamed", active: true },
  "PATCH /scim/v2/Users/:id": {
    schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    Operations: [{ op: "Replace", path: "name.givenName", value: "Ada" }],
  },
  "POST /api/admin/scim/tokens": { name: "Okta" },
  "POST /api/admin-signup": { name: "A", email: "a@example.test", password: "password123", adminKey: "x" },
  "POST /api/admin/users": { name: "Invited", email: "i@example.test", role: "user", department: "General" },
  "PATCH /api/admin/users/:userId": {
    name: "Renamed",
    role: "user",
    department: "General",
    status: "Active",
  },
  "PUT /api/admin/users/:userId/status": { status: "Active" },
  "PUT /api/admin/settings/departments": { departments: ["General", "IT"] },
  "PUT /api/admin/settings/auto-close": { enabled: true, days: 9 },
  "POST /api/admin/settings/custom-fields": { label: "Serial", type: "text" },
  "PUT /api/admin/settings/custom-fields/order": { fieldIds: ["cf_00000000"] },
  "PUT /api/admin/settings/custom-fields/:fieldId": { label: "Asset tag", type: "text" },
  "PUT /api/admin/settings/custom-fields/:fieldId/retired": { retired: false },
  "POST /api/admin/webhooks": { url: "http://127.0.0.1:1/hook", events: ["ticket.created"] },
  "PATCH /api/admin/webhooks/:webhookId": { description: "Chat" },
  "POST /api/teams": { name: "Desk", description: "First line", memberIds: [], leadId: null },
  "PUT /api/teams/:teamId": { name: "Network", memberIds: [] },
  "POST /api/routing/rules": { category: "Network", titleWords: ["vpn"], teamId: "team_00000000" },
  "PUT /api/routing/rules/order": { ruleIds: ["rr_0000000000000000"] },
  "PUT /api/routing/rules/:ruleId": { department: "Finance", teamId: "team_00000000" },
  "PUT /api/routing/default-team": { teamId: null },
  "POST /api/articles": { title: "Wi-Fi", body: "Join again.", category: "Network" },
  "POST /api/articles/deflections": { formVisit: randomUUID() },
  "PATCH /api/articles/:articleId": { title: "Printer jams (tray 2)" },
  "PUT /api/articles/:articleId/vote": { helpful: true },
  "POST /api/articles/:articleId/suggestion-opens": { formVisit: randomUUID() },
  "PATCH /api/me": { name: "New Name" },
  "PUT /api/me/theme": { theme: "dark" },
  "POST /api/me/tokens": { name: "cell", scope: "read" },
  "PUT /api/me/locale": { locale: "de" },
  "POST /api/me/role": { role: "user" },
  "PUT /api/me/notification-settings": { emailTypes: ["ticket_comment"], soundsMuted: true },
  "POST /api/tickets": {
    title: "Monitor flickers",
    description: "Since this morning.",
    category: "Hardware",
    priority: "Low",
    department: "General",
    floor: "1",
    officeNumber: "101",
  },
  "POST /api/tickets/bulk": {
    ticketIds: ["TKT00000000AAAAAAAA"],
    action: { kind: "priority", priority: "High" },
  },
  "PATCH /api/tickets/:ticketId": { title: "Printer on floor 2 jams" },
  "PUT /api/tickets/:ticketId/assignee": { assigneeId: null },
  "PATCH /api/tickets/:ticketId/status": { status: "In Progress" },
  "POST /api/tickets/:ticketId/comments": { message: "Any news?" },
  "PUT /api/tickets/:ticketId/custom-fields": { values: {} },
  "PUT /api/tickets/:ticketId/feedback": { rating: 5 },
  "PUT /api/tickets/:ticketId/team": { teamId: null },
  "PATCH /api/tickets/:ticketId/tags": { add: ["vpn"], remove: ["printer"] },
  "POST /api/tickets/:ticketId/links": { ticketId: "TKT00000000AAAAAAAA", kind: "related" },
  "POST /api/tickets/:ticketId/merge": { targetId: "TKT00000000AAAAAAAA" },
  "PUT /api/tickets/:ticketId/major-incident": { headline: "VPN unavailable — we are working on it" },
  "POST /api/tickets/:ticketId/incident/affected": { ticketIds: ["TKT00000000AAAAAAAA"] },
  "POST /api/tickets/:ticketId/incident/updates": { body: "The gateway is being replaced." },
  "PUT /api/admin/settings/tags": { fixed: false, allowed: ["vpn"] },
  "POST /api/views": { name: "Mine", query: "status=Open&sort=priority" },
  "PUT /api/views/:viewId": { name: "Open now", query: "status=Open", sharing: "staff" },
  "POST /api/canned-responses": { title: "Reboot", body: "Please reboot." },
  "PATCH /api/canned-responses/:responseId": { title: "Reboot first" },
  "POST /api/macros": { title: "VPN known issue", body: "Known issue.", actions: { addTags: ["vpn"] } },
  "PATCH /api/macros/:macroId": { title: "Resolve now" },
  "POST /api/tickets/bulk/macro": { ticketIds: ["TKT00000000AAAAAAAA"], macroId: `mac_${randomUUID()}` },
  "POST /api/notifications": { uid: "x", message: "Test" },
  "POST /api/notifications/unsubscribe": { token: "x" },
  "POST /api/auth/sign-in/email": { email: "nobody@example.test", password: "password123" },
  "POST /api/auth/sign-up/email": { name: "N", email: "n@example.test", password: "password123" },
  "POST /api/auth/request-password-reset": { email: "nobody@example.test" },
  "POST /api/auth/reset-password": { token: "x", newPassword: "password123" },
};

// The settings PUTs that take a whole calendar or policy: fuzzed from an empty object.
const wildcardExamples: Record<string, string[]> = {
  "POST /api/auth/*": [
    "/api/auth/sign-in/email",
    "/api/auth/sign-up/email",
    "/api/auth/request-password-reset",
    "/api/auth/reset-password",
  ],
};

/** Percent-encodes any string; a lone surrogate (which encodeURIComponent refuses) becomes U+FFFD. */
const encode = (value: string) => encodeURIComponent(value.replace(/[\ud800-\udfff]/gu, "\ufffd"));

const mutating = new Set(["POST", "PUT", "PATCH", "DELETE"]);

interface Target {
  method: string;
  /** The route as registered, for the body table and the report. */
  route: string;
  /** The path with its :params filled in. */
  path: string;
  params: string[];
}

function targets(app: FastifyInstance): Target[] {
  const found: Target[] = [];
  for (const { method, url } of registeredRoutes(app)) {
    if (!mutating.has(method)) continue;
    // Signing out ends the caller's session: it takes no input, and the matrix covers it.
    const paths = url.includes("*") ? (wildcardExamples[`${method} ${url}`] ?? []) : [url];
    for (const path of paths) {
      found.push({
        method,
        route: url.includes("*") ? path : url,
        path,
        params: [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!),
      });
    }
  }
  return found;
}

// ------------------------------------------------------------------------------------------ generators

const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.string({ unit: "binary", maxLength: 50 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\u0007\u001b[31m\u007f",
    "\r\n\t",
    "\ud800",
    "\udfff\ud800",
    "\u202e\u200b\ufeff",
    "𝕳𝖊𝖑𝖕🙂👩‍💻",
    "'; drop table tickets; --",
    "' or '1'='1",
    "1) union select password from accounts --",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "javascript:alert(1)",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection payload, sent as text.
    "${7*7}{{7*7}}",
    "../../../../etc/passwd",
    "%00%2e%2e%2f",
    "NaN",
    "-1",
    "1e309",
    "true",
    "null",
    "__proto__",
  ),
  fc.integer({ min: 1, max: 70_000 }).map((length) => "x".repeat(length)),
);

const scalar = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, Number.MAX_VALUE, true, false, null),
);

const jsonish = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(nastyString, tie("value"), { maxKeys: 5 }),
  ),
})).value;

/** JSON nested thousands deep, as text (building it as an object would overflow the test's own stack). */
const deeplyNested = fc.integer({ min: 50, max: 5_000 }).map((depth) => {
  const open = Array.from({ length: depth }, (_, i) => (i % 2 ? "[" : '{"a":')).join("");
  const close = Array.from({ length: depth }, (_, i) => (i % 2 ? "]" : "}"))
    .reverse()
    .join("");
  return `${open}"bottom"${close}`;
});

/** The valid body with one field bent, or keys added (__proto__, constructor, unknown ones). */
function bentBody(valid: unknown) {
  const fields = valid && typeof valid === "object" ? Object.keys(valid) : [];
  return fc.oneof(
    fields.length === 0
      ? jsonish
      : fc
          .tuple(fc.constantFrom(...fields), jsonish)
          .map(([field, value]) => ({ ...(valid as object), [field]: value })),
    fc
      .tuple(fc.constantFrom("__proto__", "constructor", "prototype", "isAdmin", "role", "id"), jsonish)
      .map(([key, value]) => JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value ?? null)}}`)),
    fc.constant(valid).map((body) => ({
      ...(body as object),
      ...JSON.parse('{"__proto__":{"role":"admin","polluted":true}}'),
    })),
  );
}

interface Sent {
  body?: string;
  contentType?: string;
  pathValues: Record<string, string>;
  query: string;
  headers: Record<string, string>;
}

function requestArbitrary(target: Target): fc.Arbitrary<Sent> {
  const valid = validBodies[`${target.method} ${target.route}`] ?? {};
  const keys = valid && typeof valid === "object" ? Object.keys(valid) : [];
  const fields = keys.length > 0 ? keys : ["a"];
  const json = fc.oneof(
    fc.oneof(bentBody(valid), jsonish).map((value) => JSON.stringify(value) ?? "null"),
    deeplyNested,
    fc
      .tuple(fc.constantFrom(...fields), deeplyNested)
      .map(([field, deep]) =>
        JSON.stringify({ ...(valid as object), [field]: "\u0000deep" }).replace('"\\u0000deep"', deep),
      ),
  );
  const body = fc.oneof(
    { weight: 6, arbitrary: json.map((text) => ({ body: text, contentType: "application/json" })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.oneof(nastyString, json),
          fc.constantFrom(
            "text/plain",
            "application/x-www-form-urlencoded",
            "application/xml",
            "multipart/form-data; boundary=x",
            "application/json; charset=latin1",
            "application/octet-stream",
            "",
          ),
        )
        .map(([text, contentType]) => ({ body: text, contentType })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom("{", '{"a":', "[1,2", "\u0000", "{}}").map((text) => ({
        body: text,
        contentType: "application/json",
      })),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
  const pathValue = fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: nastyString.filter((value) => value.length > 0 && value.length < 3_000) },
  );
  const query = fc.oneof(
    { weight: 3, arbitrary: fc.constant("") },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.tuple(nastyString, nastyString), { maxLength: 4 })
        .map((pairs) =>
          pairs
            .map(([key, value]) => `${encode(key.slice(0, 200))}=${encode(value.slice(0, 2_000))}`)
            .join("&"),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom("fileName=", "fileName[]=a&fileName[]=b", "%zz", "a=%00", "__proto__[x]=1"),
    },
  );
  const headers = fc.dictionary(
    fc.constantFrom(
      "accept",
      "accept-language",
      "last-event-id",
      "x-request-id",
      "if-none-match",
      "x-forwarded-for",
    ),
    fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
      maxLength: 200,
    }),
    { maxKeys: 2 },
  );
  return fc
    .record({
      body,
      values: fc.tuple(...target.params.map(() => pathValue)),
      query,
      headers,
    })
    .map(({ body: sent, values, query: q, headers: h }) => ({
      ...sent,
      pathValues: Object.fromEntries(
        target.params.flatMap((name, index) =>
          values[index] === null ? [] : [[name, values[index] as string]],
        ),
      ),
      query: q,
      headers: h,
    }));
}

// ------------------------------------------------------------------------------------------ the checks

// As in the authorization matrix (decision 045): table-snapshot.ts.
let takeSnapshot: () => Promise<TableSnapshot>;

async function snapshot() {
  const started = performance.now();
  const taken = await takeSnapshot();
  tally.snapshots++;
  tally.snapshotSeconds += (performance.now() - started) / 1_000;
  return taken;
}

/** Who may use the route, so that the input reaches its validation and its service. */
function callerFor(target: Target): string | null {
  if (target.path.startsWith("/api/auth/") || target.path === "/api/admin-signup") return null;
  if (target.path.endsWith("/feedback")) return owner.cookie;
  if (target.path.endsWith("/assign")) return technician.cookie;
  return admin.cookie;
}

// better-auth's answers keep its own codes (INVALID_TOKEN, VALIDATION_ERROR…), which the client reads
// (src/client/lib/api-client.ts): the same { code, message } shape with a code outside the shared list.
const authErrorSchema = z.object({ code: z.string().min(1), message: z.string() });

const tally = {
  requests: 0,
  byStatus: new Map<number, number>(),
  byRoute: new Map<string, number>(),
  /** 4xx answers outside the shape the route must answer in (the assertion stops at the first). */
  offShape: 0,
  /** /api/auth/* 4xx in better-auth's shape with its own codes (allowed, counted apart). */
  authCodes: 0,
  refused: 0,
  /** Refused requests covered by a comparison of the tables before and after, and the snapshots' cost. */
  compared: 0,
  snapshots: 0,
  snapshotSeconds: 0,
};

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

function printSummary(routes: number, seconds: number) {
  const statuses = Object.fromEntries([...tally.byStatus].sort(([a], [b]) => a - b));
  if (runs <= defaultRuns) {
    console.log(
      `bad input: ${tally.requests} requests to ${routes} routes (${runs} each); statuses`,
      statuses,
    );
    return;
  }
  const perRoute = [...tally.byRoute.values()];
  const serverErrors = [...tally.byStatus].reduce((sum, [status, n]) => sum + (status >= 500 ? n : 0), 0);
  console.log(
    [
      `bad input, FUZZ_RUNS=${runs} FUZZ_SEED=${seed ?? "(fast-check's own per route)"} FUZZ_SNAPSHOT_EVERY=${snapshotEvery}`,
      `  requests: ${tally.requests} to ${tally.byRoute.size} of ${routes} routes; per route min ${Math.min(...perRoute)}, max ${Math.max(...perRoute)}`,
      `  5xx: ${serverErrors}; 4xx off the shared shape: ${tally.offShape} (better-auth codes on /api/auth/*: ${tally.authCodes})`,
      `  refused ${tally.refused}, of which ${tally.compared} covered by a table comparison (${tally.snapshots} snapshots, ${Math.round(tally.snapshotSeconds)} s); wall time ${Math.round(seconds)} s (${(tally.requests / seconds).toFixed(1)} requests/s)`,
      `  statuses: ${JSON.stringify(statuses)}`,
    ].join("\n"),
  );
}

describe("bad input to every state-changing route", () => {
  const list = () => targets(t.app);

  it("covers every state-changing route", () => {
    const routes = list();
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.map((route) => `${route.method} ${route.route}`)).toContain("POST /api/tickets");
  });

  it.each([
    ["a path parameter longer than the router takes", `/api/tickets/${"x".repeat(2_000)}/comments`, 414],
    ["a malformed %-escape in the path", "/api/tickets/%zz/comments", 400],
  ])("answers %s in the shared error shape, without repeating the path", async (_case, url, status) => {
    const response = await request(t.app, { method: "POST", url, cookie: admin.cookie, payload: {} });
    expect(response.statusCode).toBe(status);
    expect(apiErrorSchema.parse(response.json())).toMatchObject({ code: "validation_failed" });
    expect(response.body).not.toContain(url.split("/")[3]);
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  // Found by the property below on PostgreSQL: a NUL reached the query as a parameter and failed there (500).
  it.each(["PATCH", "PUT", "POST", "GET"] as const)(
    "refuses a NUL in a person's id with 400 (%s)",
    async (method) => {
      const suffix = { PATCH: "", PUT: "/status", POST: "/password-reset", GET: "/history" }[method];
      const response = await request(t.app, {
        method,
        url: `/api/admin/users/a%00b${suffix}`,
        cookie: admin.cookie,
        ...(method === "GET" || method === "POST"
          ? {}
          : { payload: validBodies[`${method} /api/admin/users/:userId${suffix}`] as object }),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        code: "validation_failed",
        message: expect.stringContaining("User id"),
      });
    },
  );

  // Found by the property below on PostgreSQL (FUZZ_RUNS=10000): the same, for an assignee in a body.
  it.each(["PUT", "POST"] as const)("refuses a NUL in the assignee's id with 400 (%s)", async (method) => {
    const assigneeId = "a\u0000b";
    const response = await request(t.app, {
      method,
      cookie: admin.cookie,
      ...(method === "PUT"
        ? { url: `/api/tickets/${ids.ticketId}/assignee`, payload: { assigneeId } }
        : {
            url: "/api/tickets/bulk",
            payload: { ticketIds: [ids.ticketId], action: { kind: "assign", assigneeId } },
          }),
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("Assignee"),
    });
  });

  it(
    "never answers 5xx, answers every 4xx in the shared error shape, and writes nothing when it refuses",
    async () => {
      const started = performance.now();
      // The tables as they were before the refused requests sent since (by route): a refused request must
      // not write, so one comparison covers them all; a request that succeeded may write, and starts over.
      let before: TableSnapshot | undefined;
      let refusedSince = new Map<string, number>();
      const chosen = list().filter((target) => routeFilter?.test(`${target.method} ${target.route}`) ?? true);
      try {
        for (const target of chosen) {
          await fc.assert(
            fc.asyncProperty(requestArbitrary(target), async (sent) => {
              const isCompared = tally.requests % snapshotEvery === 0;
              if (isCompared) before ??= await snapshot();
              const path = target.path.replace(/:(\w+)/g, (_match, name: string) =>
                encode(sent.pathValues[name] ?? String(ids[name] ?? name)),
              );
              const isScim = target.path.startsWith("/scim/");
              const cookie = isScim ? null : callerFor(target);
              const response = await t.app.inject({
                method: target.method as "POST",
                url: sent.query ? `${path}?${sent.query}` : path,
                headers: {
                  origin: testBaseURL,
                  ...(cookie ? { cookie } : {}),
                  ...(isScim ? { authorization: `Bearer ${scimToken}` } : {}),
                  ...(sent.contentType ? { "content-type": sent.contentType } : {}),
                  ...sent.headers,
                },
                ...(sent.body === undefined ? {} : { payload: sent.body }),
              });
              const label = `${target.method} ${target.route}`;
              tally.requests++;
              tally.byStatus.set(response.statusCode, (tally.byStatus.get(response.statusCode) ?? 0) + 1);
              tally.byRoute.set(label, (tally.byRoute.get(label) ?? 0) + 1);
              expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
              if (response.statusCode >= 400) {
                tally.refused++;
                const isAuth = target.path.startsWith("/api/auth/");
                const body = parseJson(response.body);
                const parsed = (
                  isAuth ? authErrorSchema : isScim ? scimErrorSchema : apiErrorSchema
                ).safeParse(body);
                if (!parsed.success) tally.offShape++;
                else if (isAuth && !apiErrorSchema.safeParse(body).success) tally.authCodes++;
                expect(
                  parsed.success,
                  `${label} ${response.statusCode}: ${response.body.slice(0, 300)}`,
                ).toBe(true);
                if (!before) return;
                refusedSince.set(label, (refusedSince.get(label) ?? 0) + 1);
                if (!isCompared) return;
                const after = await snapshot();
                const others = [...refusedSince].map(([route, n]) => `${route} ×${n}`).join(", ");
                expect(
                  changedTables(before, after),
                  `${label} refused with ${response.statusCode} but wrote${snapshotEvery > 1 ? ` (or one of the refused requests since the last snapshot: ${others})` : ""}`,
                ).toEqual([]);
                for (const n of refusedSince.values()) tally.compared += n;
                before = after;
                refusedSince = new Map();
              } else {
                await settleOutboxes(t.database.db);
                before = undefined;
                refusedSince = new Map();
              }
            }),
            { numRuns: runs, seed, endOnFailure: true },
          );
        }
      } finally {
        printSummary(list().length, (performance.now() - started) / 1_000);
      }
    },
    Math.max(3_600_000, runs * 5_000),
  );
});
