import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  notifications,
  sessions,
  ticketLinks,
  tickets,
  type UserRow,
  webhookDeliveries,
} from "#server/db/schema/index.ts";
import { insertToken } from "#server/features/api-tokens/api-token.queries.ts";
import { insertScimToken } from "#server/features/scim/scim-token.queries.ts";
import type { Role } from "#shared/users/roles.ts";
import {
  type MatrixRow,
  type Principal,
  parseAuthorizationTable,
  principals,
  rowFor,
} from "./authorization-matrix.ts";
import { insertTeam, insertTicket, insertUser, signedInAs, signIn } from "./factories.ts";
import { registeredRoutes } from "./route-table.ts";
import { changedTables, settleOutboxes, type TableSnapshot, tableSnapshotter } from "./table-snapshot.ts";
import { createTestApp, request, type TestApp, testAdminKey } from "./test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.ts";

// Decision 045: the authorization matrix (authorization-matrix.ts) against the real app, route by route
// from Fastify's own route table. Every refused cell (status ≥ 400) must leave every table as it was.

let t: TestApp;
let receiver: WebhookReceiver;
const rows = parseAuthorizationTable();
const discover = process.env.MATRIX_DISCOVER === "1";

let counter = 0;
const next = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

// ---------------------------------------------------------------------------------------------- callers

type Kind = "owner" | "otherUser" | "technician" | "assignee" | "admin" | "roleless" | "deactivated";
const roleOf: Record<Kind, Role | null> = {
  owner: "user",
  otherUser: "user",
  technician: "technician",
  assignee: "technician",
  admin: "admin",
  roleless: null,
  deactivated: "user",
};

interface Person {
  user: UserRow;
  cookie: string;
  token: string | null;
}

async function createToken(cookie: string, scope: "read" | "write"): Promise<string> {
  const response = await request(t.app, {
    method: "POST",
    url: "/api/me/tokens",
    cookie,
    payload: { name: `matrix ${next()}`, scope },
  });
  if (response.statusCode !== 201) throw new Error(`token: ${response.statusCode} ${response.body}`);
  return (response.json() as { token: string }).token;
}

async function makePerson(kind: Kind): Promise<Person> {
  const { user, cookie } = await signedInAs(t.app, t.database.db, roleOf[kind]);
  const token = kind === "roleless" ? null : await createToken(cookie, "write");
  if (kind === "deactivated") {
    const response = await request(t.app, {
      method: "PUT",
      url: `/api/admin/users/${user.id}/status`,
      cookie: people.admin.cookie,
      payload: { status: "Inactive" },
    });
    if (response.statusCode !== 200) throw new Error(`deactivate: ${response.body}`);
  }
  return { user, cookie, token };
}

const people = {} as Record<Kind, Person>;
let adminReadToken: string;

/** Who a column is: a cookie, a bearer token, or nobody. */
function credentialsOf(principal: Principal, from: Record<Kind, Person>) {
  if (principal === "anonymous") return {};
  if (principal === "adminReadToken") return { authorization: `Bearer ${adminReadToken}` };
  if (principal.endsWith("Token")) {
    const person = from[principal.slice(0, -"Token".length) as Kind];
    return { authorization: `Bearer ${person.token}` };
  }
  return { cookie: from[principal as Kind].cookie };
}

// --------------------------------------------------------------------------------------------- fixtures

interface World {
  ticketId: string;
  userId?: string;
  fieldId?: string;
  webhookId?: string;
  deliveryId?: string;
  articleId?: string;
  responseId?: string;
  macroId?: string;
  notificationId?: string;
  tokenId?: string;
  sessionId?: string;
  attachmentId?: string;
  teamId?: string;
  automationRuleId?: string;
  scimTokenId?: string;
  ruleId?: string;
  viewId?: string;
  otherTicketId?: string;
  linkId?: string;
  affectedId?: string;
}

async function asAdmin(options: InjectOptions, expected: number) {
  const response = await request(t.app, { ...options, cookie: people.admin.cookie });
  if (response.statusCode !== expected) {
    throw new Error(`${options.method} ${options.url}: ${response.statusCode} ${response.body}`);
  }
  return response.json() as { id: string };
}

/** A fresh set of the things a route's :params name: a state-changing call that succeeded spent the last. */
async function makeWorld(url: string, spec: RequestSpec): Promise<World> {
  const { db } = t.database;
  const ticket = await insertTicket(db, {
    createdBy: people.owner.user.id,
    assignedTo: people.assignee.user.id,
    status: spec.ticketStatus ?? "In Progress",
    title: "Printer on floor 2 jams",
    ...(spec.onHold ? { onHoldSince: new Date(Date.now() - 60_000) } : {}),
  });
  const world: World = { ticketId: ticket.id };
  // Links and merging (decision 074): a second ticket of owner's, assigned to assignee, linked to the first.
  if (url.includes("/links") || url.endsWith("/merge")) {
    const other = await insertTicket(db, {
      createdBy: people.owner.user.id,
      assignedTo: people.assignee.user.id,
      status: "In Progress",
      title: "Printer on floor 2 jams again",
    });
    world.otherTicketId = other.id;
    if (url.includes(":linkId")) {
      world.linkId = `LNK${next().toUpperCase()}`;
      await db
        .insert(ticketLinks)
        .values({ id: world.linkId, ticketId: ticket.id, linkedTicketId: other.id, kind: "related" });
    }
  }
  // Major incidents (decision 077): the ticket is one; a second ticket of owner's, affected by it.
  if (url.includes("/major-incident") || url.includes("/incident/") || url.startsWith("/api/known-issues/")) {
    await db
      .update(tickets)
      .set({ incidentHeadline: "VPN unavailable", incidentDeclaredAt: new Date() })
      .where(eq(tickets.id, ticket.id));
  }
  if (url.includes("/incident/affected")) {
    const other = await insertTicket(db, {
      createdBy: people.owner.user.id,
      assignedTo: people.assignee.user.id,
      status: "In Progress",
      title: "No VPN from home",
    });
    world.otherTicketId = other.id;
    world.affectedId = other.id;
    if (url.includes(":affectedId")) {
      await db.insert(ticketLinks).values({
        id: `LNK${next().toUpperCase()}`,
        ticketId: other.id,
        linkedTicketId: ticket.id,
        kind: "incident",
      });
    }
  }
  if (url.includes(":userId")) world.userId = (await insertUser(db, { role: "user" })).id;
  if (url.includes(":fieldId")) {
    world.fieldId = (
      await asAdmin(
        {
          method: "POST",
          url: "/api/admin/settings/custom-fields",
          payload: { label: `Asset tag ${next()}`, type: "text" },
        },
        201,
      )
    ).id;
  }
  if (url.includes(":webhookId")) {
    const created = (await asAdmin(
      {
        method: "POST",
        url: "/api/admin/webhooks",
        payload: { url: receiver.url(), events: ["ticket.created"] },
      },
      201,
    )) as unknown as { webhook: { id: string } };
    world.webhookId = created.webhook.id;
    world.deliveryId = `whd_${randomUUID()}`;
    await db.insert(webhookDeliveries).values({
      id: world.deliveryId,
      endpointId: world.webhookId,
      eventType: "ticket.created",
      body: "{}",
      status: "failed",
      attempts: 5,
      finishedAt: new Date(),
    });
  }
  // A team with the assignee in it (routes about teams, routing and a ticket's team), and a rule to it.
  if (url.includes(":teamId") || url.startsWith("/api/routing") || url.endsWith("/team")) {
    world.teamId = (
      await insertTeam(db, { name: `Team ${next()}`, memberIds: [people.assignee.user.id] })
    ).id;
  }
  if (url.includes(":ruleId") || url === "/api/routing/rules/order") {
    world.ruleId = (
      await asAdmin(
        { method: "POST", url: "/api/routing/rules", payload: { category: "Network", teamId: world.teamId } },
        201,
      )
    ).id;
  }
  // An automation rule (decision 076), switched off.
  if (url.includes(":automationRuleId") || url === "/api/automation/rules/order") {
    world.automationRuleId = (
      await asAdmin(
        {
          method: "POST",
          url: "/api/automation/rules",
          payload: {
            name: `Rule ${next()}`,
            trigger: "created",
            conditions: [{ field: "category", op: "is", value: "Network" }],
            actions: { priority: "High" },
          },
        },
        201,
      )
    ).id;
  }
  // A view an administrator shared with all staff (decision 071): staff see it, only admins change it.
  if (url.includes(":viewId")) {
    world.viewId = (
      await asAdmin(
        {
          method: "POST",
          url: "/api/views",
          payload: { name: `Open ${next()}`, query: "status=Open", sharing: "staff" },
        },
        201,
      )
    ).id;
  }
  if (url.includes(":articleId")) {
    const article = await asAdmin(
      {
        method: "POST",
        url: "/api/articles",
        payload: {
          title: `Printer jams ${next()}`,
          body: "Open tray 2 and pull the paper out.",
          category: "Hardware",
          status: "published",
        },
      },
      201,
    );
    await asAdmin(
      {
        method: "PATCH",
        url: `/api/articles/${article.id}`,
        payload: { body: "Open tray 2, pull the paper out and close it firmly." },
      },
      200,
    );
    world.articleId = article.id;
  }
  if (url.includes(":responseId")) {
    const response = await request(t.app, {
      method: "POST",
      url: "/api/canned-responses",
      cookie: people.assignee.cookie,
      payload: { title: `Restart ${next()}`, body: "Please restart and tell us." },
    });
    world.responseId = (response.json() as { id: string }).id;
  }
  if (url.includes(":macroId") || url === "/api/tickets/bulk/macro") {
    const response = await request(t.app, {
      method: "POST",
      url: "/api/macros",
      cookie: people.assignee.cookie,
      payload: { title: `Fixed ${next()}`, body: "Restarted the spooler.", actions: { status: "Resolved" } },
    });
    world.macroId = (response.json() as { id: string }).id;
  }
  if (url.includes(":notificationId")) {
    const [row] = await db
      .insert(notifications)
      .values({
        userId: people.owner.user.id,
        type: "ticket_comment",
        message: "New comment",
        ticketId: ticket.id,
      })
      .returning();
    world.notificationId = String(row!.id);
  }
  if (url.includes(":tokenId")) {
    const id = randomBytes(8).toString("hex");
    await insertToken(db, {
      id,
      userId: people.owner.user.id,
      name: `laptop ${next()}`,
      tokenHash: "0".repeat(64),
      prefix: `hd_${id}`,
      scope: "write",
      createdAt: new Date(),
    });
    world.tokenId = id;
  }
  if (url.includes(":scimTokenId")) {
    const id = randomBytes(8).toString("hex");
    await insertScimToken(db, {
      id,
      name: `Entra ID ${next()}`,
      tokenHash: "0".repeat(64),
      prefix: `scim_${id}`,
      createdBy: people.admin.user.id,
      createdAt: new Date(),
    });
    world.scimTokenId = id;
  }
  if (url.includes(":sessionId")) {
    // Owner signed in on a second browser: the session the row ends.
    const cookie = await signIn(t.app, people.owner.user.email);
    const token = decodeURIComponent(cookie.split("=")[1]!).split(".")[0]!;
    const [row] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.token, token));
    if (!row) throw new Error("no second session of owner's");
    world.sessionId = row.id;
  }
  if (url.includes(":attachmentId")) {
    const upload = await request(t.app, {
      method: "POST",
      url: "/api/attachments?fileName=error.txt",
      cookie: people.owner.cookie,
      headers: { "content-type": "text/plain" },
      payload: "Error 0x42 on tray 2",
    });
    if (upload.statusCode !== 201) throw new Error(`upload: ${upload.body}`);
    world.attachmentId = (upload.json() as { id: string }).id;
    const comment = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.id}/comments`,
      cookie: people.owner.cookie,
      payload: { message: "The error it shows", attachmentIds: [world.attachmentId] },
    });
    if (comment.statusCode !== 201) throw new Error(`attach: ${comment.body}`);
  }
  return world;
}

// ----------------------------------------------------------------------------------- what each row sends

interface RequestSpec {
  /** The concrete path of a wildcard route. */
  path?: string;
  query?: string;
  body?: (world: World) => unknown | Promise<unknown>;
  headers?: Record<string, string>;
  ticketStatus?: "Open" | "In Progress" | "Resolved" | "Closed";
  /** The ticket is on hold (decision 070), since a minute ago. */
  onHold?: boolean;
  /** A success changes the caller themself (their role, their session): each such cell gets a new person. */
  changesCaller?: boolean;
  /** A long-lived answer (Server-Sent Events): read the status, then hang up. */
  stream?: boolean;
}

const period = "from=2026-01-01&to=2026-01-31";
const businessCalendar = { value: {} as unknown };
const slaPolicies = { value: {} as unknown };

const specs: Record<string, RequestSpec> = {
  "GET /api/auth/*": { path: "/api/auth/get-session" },
  "POST /api/auth/*": { path: "/api/auth/sign-out", changesCaller: true },
  "GET /api/docs/static/*": { path: "/api/docs/static/swagger-ui.css" },
  "POST /api/admin-signup": {
    body: () => ({
      name: "Second Admin",
      email: `admin-${next()}@example.test`,
      password: "correct horse battery",
      adminKey: testAdminKey,
    }),
  },
  "POST /api/admin/users": {
    body: () => ({
      name: "Invited",
      email: `invited-${next()}@example.test`,
      role: "user",
      department: "General",
    }),
  },
  "PATCH /api/admin/users/:userId": {
    body: () => ({ name: "Renamed", role: "technician", department: "General", status: "Active" }),
  },
  "PUT /api/admin/users/:userId/status": { body: () => ({ status: "Inactive" }) },
  "PUT /api/admin/settings/business-calendar": { body: () => businessCalendar.value },
  "PUT /api/admin/settings/sla-policies": { body: () => slaPolicies.value },
  "PUT /api/admin/settings/departments": { body: () => ({ departments: ["General", "Finance", "IT"] }) },
  "PUT /api/admin/settings/auto-close": { body: () => ({ enabled: true, days: 9 }) },
  "PUT /api/admin/settings/two-factor": { body: () => ({ requiredForStaff: false }) },
  "POST /api/admin/settings/custom-fields": { body: () => ({ label: `Asset ${next()}`, type: "text" }) },
  "PUT /api/admin/settings/custom-fields/order": {
    body: async () => {
      const fields = await request(t.app, {
        method: "GET",
        url: "/api/admin/settings/custom-fields",
        cookie: people.admin.cookie,
      });
      return { fieldIds: (fields.json() as { items: { id: string }[] }).items.map((f) => f.id).reverse() };
    },
  },
  "PUT /api/admin/settings/custom-fields/:fieldId": {
    body: () => ({ label: `Asset ${next()}`, type: "text" }),
  },
  "PUT /api/admin/settings/custom-fields/:fieldId/retired": { body: () => ({ retired: true }) },
  "POST /api/admin/webhooks": {
    body: () => ({ url: receiver.url("/other"), events: ["ticket.assigned"] }),
  },
  "PATCH /api/admin/webhooks/:webhookId": { body: () => ({ description: "Team chat" }) },
  "POST /api/teams": { body: () => ({ name: `Team ${next()}`, memberIds: [people.technician.user.id] }) },
  "PUT /api/teams/:teamId": { body: () => ({ name: `Renamed ${next()}` }) },
  "POST /api/routing/rules": { body: (w) => ({ titleWords: ["printer"], teamId: w.teamId }) },
  "PUT /api/routing/rules/order": {
    body: async () => {
      const routing = await request(t.app, {
        method: "GET",
        url: "/api/routing",
        cookie: people.admin.cookie,
      });
      return { ruleIds: (routing.json() as { rules: { id: string }[] }).rules.map((r) => r.id).reverse() };
    },
  },
  "PUT /api/routing/rules/:ruleId": { body: (w) => ({ department: "Finance", teamId: w.teamId }) },
  "PUT /api/routing/default-team": { body: (w) => ({ teamId: w.teamId }) },
  "POST /api/automation/rules": {
    body: () => ({
      name: `Rule ${next()}`,
      trigger: "changed",
      conditions: [{ field: "changed_by", value: "requester" }],
      actions: { addTags: ["replied"] },
    }),
  },
  "POST /api/automation/rules/try": {
    body: () => ({ trigger: "time", conditions: [{ field: "elapsed", since: "created", hours: 2 }] }),
  },
  "PUT /api/automation/rules/order": {
    body: async () => {
      const rules = await request(t.app, {
        method: "GET",
        url: "/api/automation/rules",
        cookie: people.admin.cookie,
      });
      return { ruleIds: (rules.json() as { rules: { id: string }[] }).rules.map((r) => r.id).reverse() };
    },
  },
  "PUT /api/automation/rules/:automationRuleId": {
    body: () => ({
      name: `Renamed rule ${next()}`,
      trigger: "created",
      conditions: [],
      actions: { priority: "Low" },
    }),
  },
  "PUT /api/automation/rules/:automationRuleId/enabled": { body: () => ({ enabled: true }) },
  "PUT /api/tickets/:ticketId/team": { body: (w) => ({ teamId: w.teamId }) },
  "POST /api/articles": {
    body: () => ({
      title: `Wi-Fi ${next()}`,
      body: "Forget the network and join again.",
      category: "Network",
    }),
  },
  "GET /api/articles/suggestions": { query: "q=printer" },
  "POST /api/articles/deflections": { body: () => ({ formVisit: randomUUID() }) },
  "PATCH /api/articles/:articleId": { body: () => ({ title: `Printer jams (tray 2) ${next()}` }) },
  "GET /api/articles/:articleId/diff": { query: "from=1&to=2" },
  "PUT /api/articles/:articleId/vote": { body: () => ({ helpful: true }) },
  "POST /api/articles/:articleId/suggestion-opens": { body: () => ({ formVisit: randomUUID() }) },
  "POST /api/attachments": {
    query: "fileName=screenshot.txt",
    headers: { "content-type": "text/plain" },
    body: () => "pixels",
  },
  "PATCH /api/me": { body: () => ({ name: "New Name" }) },
  "PUT /api/me/theme": { body: () => ({ theme: "dark" }) },
  "POST /api/me/tokens": { body: () => ({ name: `cell ${next()}`, scope: "read" }) },
  "POST /api/admin/scim/tokens": { body: () => ({ name: `Okta ${next()}` }) },
  "POST /scim/v2/Users": { body: () => ({ userName: `scim-${next()}@example.test` }) },
  "GET /scim/v2/Users/:id": { path: "/scim/v2/Users/someone" },
  "PUT /scim/v2/Users/:id": {
    path: "/scim/v2/Users/someone",
    body: () => ({ userName: "someone@example.test" }),
  },
  "PATCH /scim/v2/Users/:id": {
    path: "/scim/v2/Users/someone",
    body: () => ({
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", path: "active", value: false }],
    }),
  },
  "DELETE /scim/v2/Users/:id": { path: "/scim/v2/Users/someone" },
  "PUT /api/me/locale": { body: () => ({ locale: "de" }) },
  "PUT /api/me/away": { body: () => ({ away: true }) },
  "PUT /api/teams/:teamId/assignment": { body: () => ({ assignment: "round_robin" }) },
  "POST /api/me/role": { body: () => ({ role: "user" }), changesCaller: true },
  "PUT /api/me/notification-settings": {
    body: () => ({ emailTypes: ["ticket_comment"], soundsMuted: true }),
  },
  "POST /api/tickets": {
    body: () => ({
      title: "Monitor flickers",
      description: "Since this morning.",
      category: "Hardware",
      priority: "Low",
      department: "General",
      floor: "1",
      officeNumber: "101",
    }),
  },
  "POST /api/tickets/bulk": {
    body: (w) => ({ ticketIds: [w.ticketId], action: { kind: "priority", priority: "High" } }),
  },
  "PATCH /api/tickets/:ticketId": { body: () => ({ title: "Printer on floor 2 jams on tray 2" }) },
  "PUT /api/tickets/:ticketId/assignee": { body: () => ({ assigneeId: people.technician.user.id }) },
  "PATCH /api/tickets/:ticketId/status": { body: () => ({ status: "Resolved" }) },
  "POST /api/tickets/:ticketId/comments": { body: () => ({ message: "Any news?" }) },
  "PUT /api/tickets/:ticketId/custom-fields": { body: () => ({ values: {} }) },
  "PUT /api/tickets/:ticketId/feedback": { body: () => ({ rating: 5 }), ticketStatus: "Resolved" },
  "PUT /api/tickets/:ticketId/presence": { body: () => ({ state: "viewing", pageId: "matrix-page-1" }) },
  "DELETE /api/tickets/:ticketId/presence": { query: "pageId=matrix-page-1" },
  "PUT /api/tickets/:ticketId/hold": { body: () => ({ comment: "Could you send a photo of the tray?" }) },
  "PATCH /api/tickets/:ticketId/hold": {
    body: () => ({ until: new Date(Date.now() + 2 * 86_400_000).toISOString() }),
    onHold: true,
  },
  "DELETE /api/tickets/:ticketId/hold": { onHold: true },
  "PUT /api/admin/settings/on-hold": { body: () => ({ autoResolve: true, businessDays: 3 }) },
  "PUT /api/admin/settings/tags": { body: () => ({ fixed: false, allowed: ["printer"] }) },
  "PUT /api/admin/settings/ticket-intake": { body: () => ({ inviteUnknownRequesters: false }) },
  "PUT /api/admin/settings/sso-roles": { body: () => ({ claim: "groups", rules: [] }) },
  "PATCH /api/tickets/:ticketId/tags": { body: () => ({ add: [`printer ${next()}`] }) },
  "POST /api/tickets/:ticketId/links": { body: (w) => ({ ticketId: w.otherTicketId, kind: "related" }) },
  "POST /api/tickets/:ticketId/merge": { body: (w) => ({ targetId: w.otherTicketId }) },
  "PUT /api/tickets/:ticketId/major-incident": { body: () => ({ headline: `VPN down ${next()}` }) },
  "POST /api/tickets/:ticketId/incident/affected": { body: (w) => ({ ticketIds: [w.otherTicketId] }) },
  "POST /api/tickets/:ticketId/incident/updates": {
    body: () => ({ body: "The gateway is being replaced." }),
  },
  "POST /api/views": { body: () => ({ name: `Mine ${next()}`, query: "status=Open" }) },
  "PUT /api/views/:viewId": {
    body: () => ({ name: `Renamed ${next()}`, query: "priority=High", sharing: "staff" }),
  },
  "GET /api/search": { query: "q=printer" },
  "POST /api/canned-responses": { body: () => ({ title: `Reboot ${next()}`, body: "Please reboot." }) },
  "PATCH /api/canned-responses/:responseId": { body: () => ({ title: `Reboot first ${next()}` }) },
  "POST /api/macros": { body: () => ({ title: `Resolve ${next()}`, actions: { status: "Resolved" } }) },
  "PATCH /api/macros/:macroId": { body: () => ({ title: `Resolve now ${next()}` }) },
  "POST /api/tickets/bulk/macro": { body: (w) => ({ ticketIds: [w.ticketId], macroId: w.macroId }) },
  "GET /api/reports/ticket-volume": { query: period },
  "GET /api/reports/ticket-breakdown": { query: period },
  "GET /api/reports/response-times": { query: period },
  "GET /api/reports/satisfaction": { query: period },
  "GET /api/reports/teams": { query: period },
  "POST /api/notifications": { body: () => ({ uid: people.owner.user.id, message: "Test notification" }) },
  "GET /api/notifications/stream": { stream: true },
  "POST /api/notifications/unsubscribe": { body: () => ({ token: "not-a-real-token" }) },
  "GET /api/notifications/unsubscribe": { query: "token=not-a-real-token" },
};

function targetOf(method: string, url: string, spec: RequestSpec, world: World) {
  const path =
    spec.path ??
    url.replace(/:(\w+)/g, (_match, name: string) => {
      const value = world[name as keyof World];
      if (!value) throw new Error(`no fixture for :${name} in ${method} ${url}`);
      return value;
    });
  return spec.query ? `${path}?${spec.query}` : path;
}

async function send(
  method: string,
  url: string,
  spec: RequestSpec,
  world: World,
  credentials: { cookie?: string; authorization?: string },
): Promise<LightMyRequestResponse> {
  const body = await spec.body?.(world);
  const { cookie, authorization } = credentials;
  const options: InjectOptions & { cookie?: string | null } = {
    method: method as "GET",
    url: targetOf(method, url, spec, world),
    cookie: cookie ?? null,
    headers: { ...(authorization ? { authorization } : {}), ...spec.headers },
    ...(body === undefined ? {} : { payload: body as string }),
  };
  if (spec.stream) {
    const response = await request(t.app, { ...options, payloadAsStream: true });
    response.stream().destroy();
    return response;
  }
  return request(t.app, options);
}

// ---------------------------------------------------------------------------------- "nothing changed"

// A refused call with a token still records when the token was last used: only that column is left out
// (the tables that change on their own are table-snapshot.ts's).
let snapshot: () => Promise<TableSnapshot>;

// ---------------------------------------------------------------------------------------------- the test

beforeAll(async () => {
  // Webhooks go to a receiver on loopback, so that a delivery a call queued finishes at once.
  receiver = await startWebhookReceiver();
  t = await createTestApp({ webhooks: { allowPrivate: true } });
  // The admin first: deactivating a person is their call.
  people.admin = await makePerson("admin");
  for (const kind of ["owner", "otherUser", "technician", "assignee", "roleless", "deactivated"] as const) {
    people[kind] = await makePerson(kind);
  }
  adminReadToken = await createToken(people.admin.cookie, "read");
  for (const [name, holder] of [
    ["business-calendar", businessCalendar],
    ["sla-policies", slaPolicies],
  ] as const) {
    const current = await request(t.app, {
      method: "GET",
      url: `/api/admin/settings/${name}`,
      cookie: people.admin.cookie,
    });
    holder.value = (current.json() as { value: unknown }).value;
  }
  snapshot = await tableSnapshotter(t.database.db, { ignoredColumns: { api_tokens: ["last_used_at"] } });
}, 120_000);
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const safeMethods = new Set(["GET", "HEAD"]);

describe("the authorization matrix", () => {
  it("has a row for every registered route, and no row for a route that is gone", () => {
    const routes = registeredRoutes(t.app);
    const missing = routes.filter((route) => !rowFor(rows, route.method, route.url));
    expect(missing.map((route) => `${route.method} ${route.url}`)).toEqual([]);
    const registered = new Set(routes.map((route) => `${route.method} ${route.url}`));
    expect([...rows.keys()].filter((key) => !registered.has(key))).toEqual([]);
  });

  it("answers every route and caller as the table says, and a refused call changes nothing", async () => {
    const failures: string[] = [];
    const found: string[] = [];
    for (const { method, url } of registeredRoutes(t.app)) {
      const row: MatrixRow | undefined = rowFor(rows, method, url);
      const spec = specs[`${method === "HEAD" ? "GET" : method} ${url}`] ?? {};
      const actual: number[] = [];
      let world: World | null = null;
      // Consecutive refused calls form a run: the tables are compared before its first call and after
      // its last (after each call when discovering, to name the one that wrote).
      let run: { before: TableSnapshot; cells: string[] } | null = null;
      const endRun = async () => {
        if (!run) return;
        const { before, cells } = run;
        run = null;
        if (cells.length === 0) return;
        const after = await snapshot();
        const changed = changedTables(before, after);
        if (changed.length > 0)
          failures.push(`${cells.join(", ")}: refused, but changed ${changed.join(", ")}`);
      };
      for (const principal of principals) {
        const label = `${method} ${url} as ${principal}`;
        const expected = row?.expected[principal];
        const mayChange = discover || expected === undefined || expected < 400;
        if (mayChange) await endRun();
        if (!world) {
          await endRun();
          world = await makeWorld(url, spec);
          await settleOutboxes(t.database.db);
        }
        let from = people;
        // A call that would change who the caller is (their role, their session) gets a person of its own.
        if (spec.changesCaller && mayChange && principal !== "anonymous") {
          const kind = principal.replace(/Token$/, "") as Kind;
          if (kind in roleOf) from = { ...people, [kind]: await makePerson(kind) };
        }
        if (discover || !mayChange) run ??= { before: await snapshot(), cells: [] };
        const response = await send(method, url, spec, world, credentialsOf(principal, from));
        actual.push(response.statusCode);
        if (response.statusCode !== expected) {
          const body = String(response.body ?? "").slice(0, 160);
          failures.push(`${label}: expected ${expected}, got ${response.statusCode} ${body}`);
        }
        if (response.statusCode >= 400) {
          run?.cells.push(label);
          if (discover) await endRun();
        } else {
          run = null;
          // What the call queued (mail, webhook deliveries) is written before the next call is judged.
          await settleOutboxes(t.database.db);
          // A change spent the fixtures (deleted, resolved, reassigned…): the next caller gets fresh ones.
          if (!safeMethods.has(method) || spec.stream) world = null;
        }
      }
      await endRun();
      if (method !== "HEAD") {
        found.push(
          `${method.padEnd(6)} ${url.padEnd(56)} ${actual.slice(0, 8).join(" ")} | ${actual.slice(8).join(" ")}`,
        );
      }
    }
    if (discover) console.log(found.join("\n"));
    expect(failures).toEqual([]);
  }, 600_000);
});
