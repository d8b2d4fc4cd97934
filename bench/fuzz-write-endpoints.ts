// Fuzz run over every write endpoint (and the list's query string): sends generated bad bodies, params and
// queries to the real app on a fresh PGlite and counts the answers that are 5xx. Odd input must be a 4xx.
//
//   npx tsx bench/fuzz-write-endpoints.ts            # FUZZ_SEED=7 FUZZ_ROUNDS=300 to change the run
//
// Prints the total, the 5xx count per route with one example each, and the /api/auth/* routes apart.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { buildApp } from "#server/app.ts";
import { createDatabase } from "#server/db/client.ts";
import { tickets, users } from "#server/db/schema/index.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { defaultBusinessCalendar } from "#shared/service-levels/business-calendar.schemas.ts";
import { defaultSlaPolicy } from "#shared/service-levels/sla-policy.schemas.ts";

const seed = Number(process.env.FUZZ_SEED ?? 20240607);
const rounds = Number(process.env.FUZZ_ROUNDS ?? 250);
const baseURL = "http://localhost:3000";
const adminKey = "fuzz-admin-key-0123456789";

/** mulberry32: a small seeded PRNG, so that a run can be repeated exactly. */
function prng(state: number) {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(seed);
const int = (max: number) => Math.floor(random() * max);
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;

const b64 = (text: string) => Buffer.from(text).toString("base64url");

const oddStrings: readonly (() => string)[] = [
  () => "",
  () => " ",
  () => "\u0000",
  () => `abc\u0000def`,
  () => "\u0001\u0002\u0007\u001b[31m\u007f",
  () => "\ud800",
  () => "\udfff\ud800x",
  () => "\uffff\ufffe",
  () => "😀👩‍💻🏳️‍🌈",
  () => "‮rtl‬",
  () => "Zoë Ålesund 東京 مرحبا",
  () => "x".repeat(1 + int(300)),
  () => "y".repeat(60_000),
  () => "'; drop table tickets; --",
  () => "' or '1'='1",
  () => "<script>alert(1)</script>",
  () => "<img src=x onerror=alert(1)>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4j-style lookup string is the payload.
  () => "${jndi:ldap://x}",
  () => "%00%0d%0a",
  () => "\r\n\r\nHTTP/1.1 200 OK",
  () => "__proto__",
  () => "constructor",
  () => "TKT",
  () => "TKT0M5ABCDEF1234567",
  () => "Resolved",
  () => "In Progress",
  () => "technician",
  () => "admin",
  () => "a@b",
  () => `fuzz${int(1e9)}@example.test`,
  () => "NaN",
  () => "-1",
  () => "1e309",
  () => "null",
  () => Array.from({ length: 1 + int(40) }, () => String.fromCharCode(int(0x10000))).join(""),
];

function deep(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = random() < 0.5 ? [value] : { a: value };
  return value;
}

function oddValue(level = 0): unknown {
  const choice = int(level > 2 ? 9 : 13);
  switch (choice) {
    case 0:
      return null;
    case 1:
      return pick([0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2, 6, 3]);
    case 2:
      return random() < 0.5;
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
    case 8:
      return pick(oddStrings)();
    case 9:
      return Array.from({ length: int(4) }, () => oddValue(level + 1));
    case 10:
      return { [pick(["__proto__", "constructor", "prototype", "toString", "x"])]: oddValue(level + 1) };
    case 11:
      return deep(pick([50, 500]));
    default:
      return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}');
  }
}

/** A valid body with one or more fields broken, a field missing, an extra key, or no body at all. */
function mutate(valid: Record<string, unknown>): unknown {
  const roll = random();
  if (roll < 0.1) return oddValue();
  const body: Record<string, unknown> = { ...valid };
  const keys = Object.keys(valid);
  const changes = 1 + int(2);
  for (let i = 0; i < changes; i++) {
    const key = pick(keys);
    if (random() < 0.1) delete body[key];
    else body[key] = random() < 0.7 ? pick(oddStrings)() : oddValue();
  }
  if (random() < 0.1) body[pick(["__proto__", "constructor", "extra", "role", "status"])] = oddValue();
  return body;
}

/** Raw payloads that are not a JSON object: broken JSON, other content types. */
function rawPayload(): { payload: string; contentType: string } {
  return pick([
    { payload: "{", contentType: "application/json" },
    { payload: '{"a":', contentType: "application/json" },
    { payload: "null", contentType: "application/json" },
    { payload: "[]", contentType: "application/json" },
    { payload: '"\\u0000"', contentType: "application/json" },
    { payload: `${"[".repeat(20_000)}${"]".repeat(20_000)}`, contentType: "application/json" },
    { payload: `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`, contentType: "application/json" },
    { payload: "a=1&b=2", contentType: "application/x-www-form-urlencoded" },
    { payload: "hello", contentType: "text/plain" },
    { payload: '{"title":"x"}', contentType: "application/json; charset=utf-16" },
  ]);
}

function oddCursor(): string {
  return pick([
    () => b64(`275760-09-13T00:00:00.001Z|TKT1`),
    () => b64(`+275760-09-13T00:00:00.000Z|TKT1`),
    () => b64(`-271821-04-20T00:00:00.000Z|TKT1`),
    () => b64(`${8.64e15 + 1}|TKT1`),
    () => b64(`2024-01-01T00:00:00.000Z|`),
    () => b64(`2024-01-01T00:00:00.000Z|x\u0000y`),
    () => b64(`0|TKT1`),
    () => b64(`99999|TKT1`),
    () => b64(`not a date|TKT1`),
    () => b64(pick(oddStrings)()),
    () => "%%%",
    () => "====",
    () => pick(oddStrings)().slice(0, 150),
    () => Buffer.from(Array.from({ length: 40 }, () => int(256))).toString("base64url"),
  ])();
}

function oddQuery(): Record<string, string> {
  const query: Record<string, string> = {};
  const keys = ["scope", "status", "priority", "category", "q", "cursor", "limit"];
  for (const key of keys) {
    if (random() < 0.5) continue;
    query[key] =
      key === "cursor"
        ? oddCursor()
        : key === "limit"
          ? pick(["0", "-1", "1e3", "abc", "25", "1.5", "99999999999999999999"])
          : pick(oddStrings)().slice(0, 250);
  }
  return query;
}

const outbox = mkdtempSync(path.join(os.tmpdir(), "helpdesk-fuzz-"));
const database = createDatabase({ pglite: new PGlite() });
await database.migrate();
const app = await buildApp({
  database,
  baseURL,
  authSecret: "fuzz-secret-fuzz-secret-fuzz-secret-0123",
  clientDir: null,
  credentialRateLimit: { window: 60, max: 1_000_000 },
  adminSignUpKey: adminKey,
  mailer: createMailer({
    outboxDir: path.join(outbox, "outbox"),
    from: "Helpdesk <h@fuzz.local>",
    log: () => {},
  }),
});
await app.ready();

async function send(options: {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  url: string;
  cookie?: string;
  body?: unknown;
  raw?: { payload: string; contentType: string };
  query?: Record<string, string>;
}): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { origin: baseURL };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.raw) headers["content-type"] = options.raw.contentType;
  return app.inject({
    method: options.method,
    url: options.url,
    query: options.query,
    headers,
    ...(options.raw
      ? { payload: options.raw.payload }
      : options.body === undefined
        ? {}
        : {
            payload: JSON.stringify(options.body),
            headers: { ...headers, "content-type": "application/json" },
          }),
  });
}

const cookieOf = (response: LightMyRequestResponse) => {
  const all = ([] as string[]).concat(response.headers["set-cookie"] ?? []);
  const session = all.find((c) => c.startsWith("better-auth.session_token="));
  if (!session) throw new Error(`no session: ${response.statusCode} ${response.body}`);
  return session.split(";")[0]!;
};

async function signUp(role: "user" | "technician", email: string) {
  const response = await send({
    method: "POST",
    url: "/api/auth/sign-up/email",
    body: { name: `Fuzz ${role}`, email, password: "correct horse battery", role },
  });
  return cookieOf(response);
}

const userCookie = await signUp("user", "fuzz-user@example.test");
const technicianCookie = await signUp("technician", "fuzz-tech@example.test");
const rolelessEmail = "fuzz-roleless@example.test";
await signUp("user", rolelessEmail);
const adminSignUp = await send({
  method: "POST",
  url: "/api/admin-signup",
  body: { name: "Fuzz Admin", email: "fuzz-admin@example.test", password: "correct horse battery", adminKey },
});
if (adminSignUp.statusCode !== 201) throw new Error(`admin sign-up failed: ${adminSignUp.body}`);
const signInBody = (email: string) => ({ email, password: "correct horse battery" });
const [fuzzUser] = await database.db.select().from(users).where(eq(users.email, "fuzz-user@example.test"));
const userId = fuzzUser!.id;
const adminCookie = cookieOf(
  await send({ method: "POST", url: "/api/auth/sign-in/email", body: signInBody("fuzz-admin@example.test") }),
);

const validTicket = {
  title: "Printer jams",
  description: "Every second page",
  category: "Hardware",
  priority: "Low",
  department: "General",
  floor: "1",
  officeNumber: "12",
};

async function newTicket() {
  const response = await send({ method: "POST", url: "/api/tickets", cookie: userCookie, body: validTicket });
  if (response.statusCode !== 201) throw new Error(`ticket failed: ${response.body}`);
  return response.json<{ ticketId: string }>().ticketId;
}
const ticketIds = [await newTicket(), await newTicket(), await newTicket()];
await database.db.update(tickets).set({ status: "Resolved" }).where(eq(tickets.id, ticketIds[2]!));

const cookies = () => pick([userCookie, technicianCookie, adminCookie]);

// Saved responses (decision 013): one personal (the technician's) and one shared (the admin's) to aim at.
async function newCannedResponse(cookie: string, scope: "personal" | "shared") {
  const response = await send({
    method: "POST",
    url: "/api/canned-responses",
    cookie,
    body: { title: `Fuzz ${scope}`, body: "Hi {{creator.firstName}}", scope },
  });
  if (response.statusCode !== 201) throw new Error(`saved response failed: ${response.body}`);
  return response.json<{ id: string }>().id;
}
const cannedResponseIds = [
  await newCannedResponse(technicianCookie, "personal"),
  await newCannedResponse(adminCookie, "shared"),
];
const cannedResponseParam = () =>
  random() < 0.75 ? pick(cannedResponseIds) : percentEncoded(pick(oddStrings)().slice(0, 200)) || "x";
// Byte by byte: encodeURIComponent throws on a lone surrogate, and such a path is part of the fuzz.
const percentEncoded = (text: string) =>
  [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
const ticketParam = () =>
  random() < 0.75 ? pick(ticketIds) : percentEncoded(pick(oddStrings)().slice(0, 200)) || "x";

interface Target {
  route: string;
  isAuth: boolean;
  make: () => Parameters<typeof send>[0];
}

const bodyOrRaw = (valid: Record<string, unknown>) =>
  random() < 0.08 ? { raw: rawPayload() } : { body: mutate(valid) };

const targets: Target[] = [
  {
    route: "POST /api/auth/sign-up/email",
    isAuth: true,
    make: () => ({
      method: "POST",
      url: "/api/auth/sign-up/email",
      ...bodyOrRaw({
        name: "Ann",
        email: `a${int(1e9)}@example.test`,
        password: "long enough",
        role: "user",
      }),
    }),
  },
  {
    route: "POST /api/auth/sign-in/email",
    isAuth: true,
    make: () => ({
      method: "POST",
      url: "/api/auth/sign-in/email",
      ...bodyOrRaw(signInBody("fuzz-user@example.test")),
    }),
  },
  {
    route: "POST /api/auth/request-password-reset",
    isAuth: true,
    make: () => ({
      method: "POST",
      url: "/api/auth/request-password-reset",
      ...bodyOrRaw({ email: "fuzz-user@example.test", redirectTo: "/reset-password" }),
    }),
  },
  {
    route: "POST /api/auth/reset-password",
    isAuth: true,
    make: () => ({
      method: "POST",
      url: "/api/auth/reset-password",
      ...bodyOrRaw({ newPassword: "another long one", token: "abcdef0123456789" }),
    }),
  },
  {
    route: "PATCH /api/me",
    isAuth: false,
    make: () => ({ method: "PATCH", url: "/api/me", cookie: cookies(), ...bodyOrRaw({ name: "New Name" }) }),
  },
  {
    route: "POST /api/me/role",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: "/api/me/role",
      cookie: rolelessCookie,
      ...bodyOrRaw({ role: "user" }),
    }),
  },
  {
    route: "POST /api/admin-signup",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: "/api/admin-signup",
      ...bodyOrRaw({
        name: "Root",
        email: `r${int(1e9)}@example.test`,
        password: "long enough",
        adminKey: random() < 0.3 ? adminKey : "wrong",
      }),
    }),
  },
  {
    route: "POST /api/tickets",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: "/api/tickets",
      cookie: pick([userCookie, adminCookie]),
      ...bodyOrRaw(validTicket),
    }),
  },
  {
    route: "POST /api/tickets/:ticketId/assign",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: `/api/tickets/${ticketParam()}/assign`,
      cookie: cookies(),
      ...(random() < 0.5 ? bodyOrRaw({}) : {}),
    }),
  },
  {
    route: "PATCH /api/tickets/:ticketId/status",
    isAuth: false,
    make: () => ({
      method: "PATCH",
      url: `/api/tickets/${ticketParam()}/status`,
      cookie: cookies(),
      ...bodyOrRaw({ status: pick(["In Progress", "Resolved", "Closed"]) }),
    }),
  },
  {
    route: "POST /api/tickets/:ticketId/comments",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: `/api/tickets/${ticketParam()}/comments`,
      cookie: cookies(),
      ...bodyOrRaw({ message: "Any news?" }),
    }),
  },
  // Followers and mentions (decision 014).
  {
    route: "POST /api/tickets/:ticketId/comments (mentions)",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: `/api/tickets/${ticketParam()}/comments`,
      cookie: cookies(),
      ...bodyOrRaw({
        message: `@[${pick(oddStrings)().slice(0, 60)}](${pick([userId, "usr_x", "a".repeat(64)])}) ${pick(oddStrings)().slice(0, 200)}`,
        isInternal: random() < 0.5,
      }),
    }),
  },
  {
    route: "PUT /api/tickets/:ticketId/follow",
    isAuth: false,
    make: () => ({
      method: "PUT",
      url: `/api/tickets/${ticketParam()}/follow`,
      cookie: cookies(),
      ...(random() < 0.5 ? bodyOrRaw({}) : {}),
    }),
  },
  {
    route: "DELETE /api/tickets/:ticketId/follow",
    isAuth: false,
    make: () => ({ method: "DELETE", url: `/api/tickets/${ticketParam()}/follow`, cookie: cookies() }),
  },
  {
    route: "GET /api/staff",
    isAuth: false,
    make: () => ({ method: "GET", url: "/api/staff", cookie: cookies(), query: oddQuery() }),
  },
  {
    route: "POST /api/attachments",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: "/api/attachments",
      cookie: cookies(),
      query:
        random() < 0.1
          ? {}
          : {
              fileName: pick([
                () => pick(["a.png", "b.txt", "c.pdf", "d.zip", "e.docx", "f.svg"]),
                pick(oddStrings),
              ])(),
            },
      raw: pick([
        rawPayload,
        () => ({
          payload: pick(oddStrings)(),
          contentType: pick(["image/png", "text/plain", "", "application/json"]),
        }),
        () => ({
          payload: String.fromCharCode(...Array.from({ length: int(2000) }, () => int(256))),
          contentType: "application/octet-stream",
        }),
        () => ({ payload: "\x89PNG\r\n\x1a\n", contentType: "image/png" }),
      ])(),
    }),
  },
  {
    route: "POST /api/tickets/:id/comments+files",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: `/api/tickets/${ticketParam()}/comments`,
      cookie: cookies(),
      ...bodyOrRaw({
        message: "See the file",
        attachmentIds: [pick(["ATT0M5ABCDEF12345678", pick(oddStrings)()])],
      }),
    }),
  },
  {
    route: "PUT /api/tickets/:ticketId/feedback",
    isAuth: false,
    make: () => ({
      method: "PUT",
      url: `/api/tickets/${ticketParam()}/feedback`,
      cookie: userCookie,
      ...bodyOrRaw({ rating: 4, comment: "Quick" }),
    }),
  },
  {
    route: "PATCH /api/tickets/:ticketId",
    isAuth: false,
    make: () => ({
      method: "PATCH",
      url: `/api/tickets/${ticketParam()}`,
      cookie: cookies(),
      ...bodyOrRaw(
        random() < 0.5
          ? { priority: pick(["Low", "Medium", "High"]), title: "Printer jams twice" }
          : { description: "Every page now" },
      ),
    }),
  },
  {
    route: "POST /api/tickets/bulk",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: "/api/tickets/bulk",
      cookie: cookies(),
      ...bodyOrRaw({
        ticketIds: [pick(ticketIds), ...(random() < 0.2 ? [pick(oddStrings)().slice(0, 40)] : [])],
        action: pick([
          { kind: "status", status: pick(["In Progress", "Resolved", "Closed"]) },
          { kind: "priority", priority: pick(["Low", "Medium", "High"]) },
          { kind: "assignToMe" },
          { kind: "assign", assigneeId: null },
        ]),
      }),
    }),
  },
  {
    route: "GET /api/tickets",
    isAuth: false,
    make: () => ({ method: "GET", url: "/api/tickets", cookie: cookies(), query: oddQuery() }),
  },
  // Notifications (decision 008).
  {
    route: "POST /api/notifications",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: "/api/notifications",
      cookie: cookies(),
      ...bodyOrRaw({ uid: pick([userId, "technicians", "nobody"]), message: "Test", type: "test" }),
    }),
  },
  {
    route: "POST /api/notifications/:id/read",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: `/api/notifications/${random() < 0.5 ? String(int(50) + 1) : percentEncoded(pick(oddStrings)().slice(0, 100)) || "x"}/read`,
      cookie: cookies(),
    }),
  },
  {
    route: "POST /api/notifications/read-all",
    isAuth: false,
    make: () => ({ method: "POST", url: "/api/notifications/read-all", cookie: cookies(), ...bodyOrRaw({}) }),
  },
  {
    route: "GET /api/notifications",
    isAuth: false,
    make: () => ({ method: "GET", url: "/api/notifications", cookie: cookies(), query: oddQuery() }),
  },
  {
    route: "PUT /api/me/notification-settings",
    isAuth: false,
    make: () => ({
      method: "PUT",
      url: "/api/me/notification-settings",
      cookie: cookies(),
      ...bodyOrRaw({ emailTypes: ["ticket_comment"], soundsMuted: false }),
    }),
  },
  {
    route: "POST /api/notifications/unsubscribe",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: "/api/notifications/unsubscribe",
      ...bodyOrRaw({ token: "abc.def" }),
    }),
  },
  // User management (decision 009).
  {
    route: "GET /api/admin/users",
    isAuth: false,
    make: () => ({ method: "GET", url: "/api/admin/users", cookie: adminCookie, query: oddQuery() }),
  },
  {
    route: "POST /api/admin/users",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: "/api/admin/users",
      cookie: pick([adminCookie, userCookie]),
      ...bodyOrRaw({
        name: "Invited",
        email: `i${int(1e9)}@example.test`,
        role: "user",
        department: "General",
      }),
    }),
  },
  {
    route: "PATCH /api/admin/users/:id",
    isAuth: false,
    make: () => ({
      method: "PATCH",
      url: `/api/admin/users/${random() < 0.7 ? userId : percentEncoded(pick(oddStrings)().slice(0, 100)) || "x"}`,
      cookie: pick([adminCookie, technicianCookie]),
      ...bodyOrRaw({ name: "Fuzz user", role: "user", department: "General", status: "Active" }),
    }),
  },
  {
    route: "PUT /api/admin/users/:id/status",
    isAuth: false,
    make: () => ({
      method: "PUT",
      url: `/api/admin/users/${userId}/status`,
      cookie: adminCookie,
      ...bodyOrRaw({ status: "Active" }),
    }),
  },
  // Saved responses (decision 013).
  {
    route: "GET /api/canned-responses",
    isAuth: false,
    make: () => ({
      method: "GET",
      url: "/api/canned-responses",
      cookie: cookies(),
      query: random() < 0.5 ? oddQuery() : { scope: pick(oddStrings)(), q: pick(oddStrings)().slice(0, 250) },
    }),
  },
  {
    route: "POST /api/canned-responses",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: "/api/canned-responses",
      cookie: cookies(),
      ...bodyOrRaw({
        title: `Reply ${int(1e9)}`,
        body: "Hello {{creator.name}}, about {{ticket.id}}",
        scope: pick(["personal", "shared"]),
      }),
    }),
  },
  {
    route: "PATCH /api/canned-responses/:id",
    isAuth: false,
    make: () => ({
      method: "PATCH",
      url: `/api/canned-responses/${cannedResponseParam()}`,
      cookie: cookies(),
      ...bodyOrRaw({ title: `Renamed ${int(1e9)}`, body: "New text" }),
    }),
  },
  {
    route: "DELETE /api/canned-responses/:id",
    isAuth: false,
    // Mostly odd ids, so that the two targets live on for the other routes.
    make: () => ({
      method: "DELETE",
      url: `/api/canned-responses/${random() < 0.1 ? cannedResponseParam() : percentEncoded(pick(oddStrings)().slice(0, 200)) || "x"}`,
      cookie: cookies(),
    }),
  },
  // Admin settings (decision 023): every area, custom fields, a ticket's values; the admin most of the time.
  ...(
    [
      ["business-calendar", defaultBusinessCalendar],
      ["sla-policies", defaultSlaPolicy],
      ["departments", { departments: ["General", `Dept ${int(1e6)}`] }],
      ["auto-close", { enabled: true, days: 7 }],
    ] as const
  ).map(([area, valid]) => ({
    route: `PUT /api/admin/settings/${area}`,
    isAuth: false,
    make: () => ({
      method: "PUT" as const,
      url: `/api/admin/settings/${area}`,
      cookie: random() < 0.8 ? adminCookie : cookies(),
      ...bodyOrRaw(valid as Record<string, unknown>),
    }),
  })),
  {
    route: "GET /api/admin/settings/history",
    isAuth: false,
    make: () => ({
      method: "GET",
      url: "/api/admin/settings/history",
      cookie: adminCookie,
      query: oddQuery(),
    }),
  },
  {
    route: "POST /api/admin/settings/custom-fields",
    isAuth: false,
    make: () => ({
      method: "POST",
      url: "/api/admin/settings/custom-fields",
      cookie: random() < 0.8 ? adminCookie : cookies(),
      ...bodyOrRaw({
        label: `Field ${int(1e9)}`,
        type: pick(["text", "number", "single_choice", "multiple_choice", "checkbox", "date"]),
        options: [
          { value: "a", label: "A" },
          { value: "b", label: "B" },
        ],
        category: pick([null, "Hardware", "Software"]),
        required: false,
      }),
    }),
  },
  {
    route: "PUT /api/admin/settings/custom-fields/:id",
    isAuth: false,
    make: () => ({
      method: "PUT",
      url: `/api/admin/settings/custom-fields/${percentEncoded(pick(oddStrings)().slice(0, 100)) || "x"}`,
      cookie: adminCookie,
      ...bodyOrRaw({ label: "Renamed", type: "text", required: false }),
    }),
  },
  {
    route: "PUT /api/admin/settings/custom-fields/order",
    isAuth: false,
    make: () => ({
      method: "PUT",
      url: "/api/admin/settings/custom-fields/order",
      cookie: adminCookie,
      ...bodyOrRaw({ fieldIds: ["cf_x"] }),
    }),
  },
  {
    route: "PUT /api/tickets/:id/custom-fields",
    isAuth: false,
    make: () => ({
      method: "PUT",
      url: `/api/tickets/${ticketParam()}/custom-fields`,
      cookie: cookies(),
      ...bodyOrRaw({ customFields: {} }),
    }),
  },
  {
    route: "GET /api/tickets (due, sort, cf)",
    isAuth: false,
    make: () => ({
      method: "GET",
      url: "/api/tickets",
      cookie: cookies(),
      query: {
        due: pick(["overdue", "due_soon", pick(oddStrings)().slice(0, 50)]),
        sort: pick(["due", "newest", pick(oddStrings)().slice(0, 50)]),
        cf: pick(["cf_x:y", pick(oddStrings)().slice(0, 100)]),
        cursor: pick(oddStrings)().slice(0, 100),
      },
    }),
  },
];

// The role-less person signs in after their role is cleared, as after a first Google sign-in.
await database.db.update(users).set({ role: null }).where(eq(users.email, rolelessEmail));
const rolelessCookie = cookieOf(
  await send({ method: "POST", url: "/api/auth/sign-in/email", body: signInBody(rolelessEmail) }),
);

const failures = new Map<string, { count: number; example: string }>();
let total = 0;
const started = performance.now();
for (let round = 0; round < rounds; round++) {
  for (const target of targets) {
    const options = target.make();
    const response = await send(options);
    total++;
    if (response.statusCode < 500) continue;
    const shown = options.raw ? options.raw.payload : JSON.stringify(options.body ?? options.query ?? null);
    const entry = failures.get(target.route) ?? {
      count: 0,
      example: `${response.statusCode} ${options.url} ${(shown ?? "").slice(0, 160)} → ${response.body.slice(0, 160)}`,
    };
    entry.count++;
    failures.set(target.route, entry);
  }
}
const seconds = (performance.now() - started) / 1000;

const line = (route: string) => {
  const entry = failures.get(route);
  return `  ${route.padEnd(40)} ${String(entry?.count ?? 0).padStart(5)}${entry ? `   e.g. ${entry.example}` : ""}`;
};
const sum = (isAuth: boolean) =>
  targets.filter((t) => t.isAuth === isAuth).reduce((n, t) => n + (failures.get(t.route)?.count ?? 0), 0);

console.log(
  `Fuzz run: seed ${seed}, ${rounds} rounds, ${targets.length} routes, ${total} requests in ${seconds.toFixed(1)} s`,
);
console.log(`5xx on our routes: ${sum(false)}`);
for (const target of targets.filter((t) => !t.isAuth)) console.log(line(target.route));
console.log(`5xx on /api/auth/* (better-auth): ${sum(true)}`);
for (const target of targets.filter((t) => t.isAuth)) console.log(line(target.route));
console.log(`5xx in all: ${sum(false) + sum(true)}`);

await app.close();
await database.close();
rmSync(outbox, { recursive: true, force: true });
