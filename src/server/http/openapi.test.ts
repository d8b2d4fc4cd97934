import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "#server/auth/auth.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { projectRoot } from "#server/project-root.ts";
import { registeredRoutes } from "#server/test/route-table.ts";
import { createTestApp, request, type TestApp, testBaseURL } from "#server/test/test-app.ts";
import { webhookEventTypes } from "#shared/webhooks/webhook.schemas.ts";
import { themeScriptHash } from "./security-headers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        summary?: string;
        tags?: string[];
        parameters?: Array<{ in: string; name: string }>;
        requestBody?: unknown;
        responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
      }
    >
  >;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
  servers?: Array<{ url: string }>;
  tags?: Array<{ name: string; description?: string }>;
  webhooks?: Record<string, { post?: { requestBody?: unknown; operationId?: string } }>;
}

const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}`,
      operation,
    })),
  );

/** Every `additionalProperties: false` under a value, by where it is. */
function forbiddenExtras(value: unknown, at: string): string[] {
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === "additionalProperties" && inner === false ? [at] : forbiddenExtras(inner, `${at}/${key}`),
  );
}

async function fetchDocument() {
  const response = await request(t.app, { method: "GET", url: "/api/openapi.json" });
  expect(response.statusCode).toBe(200);
  return response.json() as OpenApiDocument;
}

/**
 * Routes under /api that are deliberately not paths of the document, each with its reason.
 * Anything else registered under /api and missing from the document fails the test below.
 */
const deliberateExceptions: Array<[pattern: RegExp, reason: string]> = [
  [/^\/api\/auth\/\*$/, "better-auth's bridge: the document lists the endpoints behind it one by one"],
  [/^\/api\/docs(\/|$)/, "the browsable page's own HTML, scripts and styles (Swagger UI), not API"],
];

describe("the OpenAPI document", () => {
  it("is served signed out as a valid OpenAPI 3.1 document naming Helpdesk, its version and both ways to authenticate", async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.title).toBe("Helpdesk");
    const { version } = JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")) as {
      version: string;
    };
    expect(document.info.version).toBe(version);
    expect(document.components.securitySchemes).toMatchObject({
      sessionCookie: { type: "apiKey", in: "cookie" },
      bearerAuth: { type: "http", scheme: "bearer" },
    });
    expect(document.components.schemas.ApiError).toMatchObject({
      required: expect.arrayContaining(["code", "message"]),
    });
    // The validator dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it("lists every route the app registers under /api, tagged by feature, except the deliberate exceptions", async () => {
    const document = await fetchDocument();
    const apiRoutes = registeredRoutes(t.app).filter(
      ({ method, url }) => url.startsWith("/api/") && method !== "HEAD",
    );
    expect(apiRoutes).toContainEqual({ method: "POST", url: "/api/tickets/:ticketId/assign" });
    expect(document.paths["/healthz"]).toBeUndefined();
    expect(document.paths["/api/auth/{*}"]).toBeUndefined();

    const undocumented = apiRoutes
      .filter(({ url }) => !deliberateExceptions.some(([pattern]) => pattern.test(url)))
      .filter(({ method, url }) => {
        const path = url.replace(/:(\w+)/g, "{$1}");
        return !document.paths[path]?.[method.toLowerCase()];
      })
      .map(({ method, url }) => `${method} ${url}`);
    expect(undocumented, "routes missing from /api/openapi.json").toEqual([]);

    // Every {name} in a path is declared as a path parameter of each of its operations.
    const undeclared = Object.entries(document.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).flatMap(([method, operation]) =>
        [...path.matchAll(/\{(\w+)\}/g)]
          .filter(([, name]) => !operation.parameters?.some((p) => p.in === "path" && p.name === name))
          .map(([, name]) => `${method} ${path}: ${name}`),
      ),
    );
    expect(undeclared).toEqual([]);

    const operations = Object.values(document.paths).flatMap((byMethod) => Object.values(byMethod));
    for (const operation of operations) expect(operation.tags?.length).toBe(1);
    expect(document.paths["/api/tickets/{ticketId}/assign"]?.post?.tags).toEqual(["tickets"]);
    expect(document.paths["/api/admin/users"]?.get?.tags).toEqual(["user-management"]);
  });

  it("describes request bodies and answers from the routes' zod schemas, and failures by the shared error shape", async () => {
    const document = await fetchDocument();
    const createTicket = document.paths["/api/tickets"]?.post as unknown as {
      requestBody: { content: { "application/json": { schema: { properties: Record<string, unknown> } } } };
      responses: Record<string, unknown>;
    };
    expect(Object.keys(createTicket.requestBody.content["application/json"].schema.properties)).toContain(
      "title",
    );
    expect(createTicket.responses).toHaveProperty("201");
    expect(createTicket.responses["4XX"]).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/ApiError" } } },
    });
  });

  it("describes the better-auth endpoints behind /api/auth/* under the auth tag", async () => {
    const document = await fetchDocument();
    expect(document.paths["/api/auth/sign-in/email"]?.post?.tags).toEqual(["auth"]);
    expect(document.paths["/api/auth/reset-password/{token}"]?.get).toBeDefined();
    expect(document.paths["/api/auth/two-factor/verify-totp"]?.post?.tags).toEqual(["auth"]);
    expect(document.paths["/api/auth/providers"]?.get?.tags).toEqual(["auth"]);
  });

  it("lists every better-auth endpoint that answers under /api/auth, and every one it lists answers", async () => {
    const document = await fetchDocument();
    // Every endpoint better-auth has with our plugins and both kinds of single sign-on, asked through the
    // app's own bridge: anything but a 404 is an endpoint people can call, so the document must say so.
    const auth = createAuth({
      db: t.database.db,
      baseURL: testBaseURL,
      secret: "openapi-test-secret-openapi-test-secret",
      mailer: createMailer({
        outboxDir: mkdtempSync(path.join(os.tmpdir(), "openapi-")),
        from: "a@b.test",
        log: () => {},
      }),
      google: { clientId: "google-client", clientSecret: "google-secret" },
      oidc: {
        discoveryUrl: "http://127.0.0.1:9/.well-known/openid-configuration",
        clientId: "oidc-client",
        clientSecret: "oidc-secret",
        label: "Sign in with Contoso",
      },
    });
    const endpoints = Object.values(
      auth.api as Record<string, { path?: string; options?: { method?: unknown } }>,
    );
    const shape = (method: string, pathBelowAuth: string) =>
      `${method.toUpperCase()} ${pathBelowAuth.replace(/:\w+|\{\w+\}/g, "{}")}`;
    const answering: string[] = [];
    const silent: string[] = [];
    for (const { path: endpointPath, options } of endpoints) {
      if (!endpointPath) continue;
      const methods = [options?.method]
        .flat()
        .flatMap((method) => (method === "*" ? ["GET", "POST"] : [method]));
      for (const method of methods.filter((m): m is "GET" | "POST" => m === "GET" || m === "POST")) {
        const response = await request(t.app, {
          method,
          url: `/api/auth${endpointPath.replace(/:\w+/g, "x")}`,
          ...(method === "POST" ? { payload: {} } : {}),
        });
        (response.statusCode === 404 ? silent : answering).push(shape(method, endpointPath));
      }
    }
    const documented = Object.entries(document.paths)
      .filter(
        ([documentPath]) => documentPath.startsWith("/api/auth/") && documentPath !== "/api/auth/providers",
      )
      .flatMap(([documentPath, byMethod]) =>
        Object.keys(byMethod).map((method) => shape(method, documentPath.slice("/api/auth".length))),
      );
    expect(answering).toContain("POST /two-factor/verify-totp");
    expect(silent).toContain("POST /update-user");
    expect(
      answering.filter((endpoint) => !documented.includes(endpoint)),
      "answer but are not documented",
    ).toEqual([]);
    expect(
      documented.filter((endpoint) => !answering.includes(endpoint)),
      "documented but answer 404",
    ).toEqual([]);
  });
});

describe("what tools need of the document (Redocly's recommended rules, npm run lint:api)", () => {
  it("gives every operation a unique operationId, a summary and a success answer", async () => {
    const operations = operationsOf(await fetchDocument());
    expect(operations.filter(({ operation }) => !operation.operationId).map(({ name }) => name)).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(
      ids.filter((id, index) => ids.indexOf(id) !== index),
      "operationIds used twice",
    ).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
    expect(operations.filter(({ operation }) => !operation.summary?.trim()).map(({ name }) => name)).toEqual(
      [],
    );
    // A success answer: 2xx, better-auth's `default`, or the one redirect (the unsubscribe link).
    const withoutSuccess = operations
      .filter(
        ({ operation }) => !Object.keys(operation.responses).some((code) => /^(2|303|default)/.test(code)),
      )
      .map(({ name }) => name);
    expect(withoutSuccess).toEqual([]);
  });

  it("names the ids clients rely on, and the content types of answers that are not JSON", async () => {
    const document = await fetchDocument();
    expect(document.paths["/api/tickets"]?.get?.operationId).toBe("listTickets");
    expect(document.paths["/api/tickets/{ticketId}"]?.get?.operationId).toBe("getTicket");
    expect(document.paths["/api/tickets/{ticketId}/comments"]?.post?.operationId).toBe("addTicketComment");
    const contentTypes = (path: string, method: string, code: string) =>
      Object.keys(document.paths[path]?.[method]?.responses[code]?.content ?? {});
    expect(contentTypes("/api/tickets/export.csv", "get", "200")).toEqual(["text/csv"]);
    expect(contentTypes("/api/admin/users/export.csv", "get", "200")).toEqual(["text/csv"]);
    expect(contentTypes("/api/attachments/{attachmentId}", "get", "200")).toEqual(["*/*"]);
    expect(contentTypes("/api/attachments/{attachmentId}/preview", "get", "200")).toEqual(["*/*"]);
    expect(contentTypes("/api/notifications/stream", "get", "200")).toEqual(["text/event-stream"]);
    expect(document.paths["/api/views/{viewId}"]?.delete?.responses["204"]).toBeDefined();
    expect(document.paths["/api/views/{viewId}"]?.delete?.responses["204"]?.content).toBeUndefined();
  });

  it("tells where Idempotency-Key, If-Match and the ticket's ETag apply (decision 078)", async () => {
    const document = await fetchDocument();
    const headersOf = (path: string, method: string) =>
      (document.paths[path]?.[method]?.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);
    expect(headersOf("/api/tickets", "post")).toEqual(["Idempotency-Key"]);
    expect(headersOf("/api/tickets/{ticketId}/comments", "post")).toEqual(["Idempotency-Key"]);
    // A token's answer is its secret, shown once: never stored, so no key.
    expect(headersOf("/api/me/tokens", "post")).toEqual([]);
    expect(headersOf("/api/tickets/{ticketId}/status", "patch")).toEqual(["If-Match"]);
    expect(document.paths["/api/tickets/{ticketId}/status"]?.patch?.responses["412"]).toBeDefined();
    const answer = document.paths["/api/tickets/{ticketId}"]?.get?.responses["200"] as { headers?: object };
    expect(Object.keys(answer.headers ?? {})).toEqual(["ETag"]);
  });

  it("names the app's address as its server and declares every tag it uses, with a description", async () => {
    const document = await fetchDocument();
    expect(document.servers).toEqual([{ url: testBaseURL }]);
    const declared = new Map(document.tags?.map((tag) => [tag.name, tag.description]));
    const used = new Set(operationsOf(document).flatMap(({ operation }) => operation.tags ?? []));
    expect(
      [...used].filter((tag) => !declared.get(tag)?.trim()),
      "tags used but not described",
    ).toEqual([]);
  });

  it("lets answers gain fields (docs/api.md) and leaves request bodies as the routes declare them", async () => {
    const document = await fetchDocument();
    const inAnswers = operationsOf(document).flatMap(({ name, operation }) =>
      forbiddenExtras(operation.responses, name),
    );
    expect(inAnswers, "answer schemas with additionalProperties: false").toEqual([]);
    expect(forbiddenExtras(document.components.schemas, "components")).toEqual([]);
    // Left as the routes' schemas say (a strict body refuses unknown fields there too).
    expect(forbiddenExtras(document.paths["/api/teams"]?.post?.requestBody, "POST /api/teams")).not.toEqual(
      [],
    );
  });

  it("describes every webhook event's delivery in `webhooks`, with the payload's schema", async () => {
    const document = await fetchDocument();
    expect(Object.keys(document.webhooks ?? {})).toEqual([...webhookEventTypes, "webhook.test"]);
    expect(document.webhooks?.["webhook.test"]?.post?.requestBody).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/WebhookTestPayload" } } },
    });
    expect(document.webhooks?.["ticket.commented"]?.post?.requestBody).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/WebhookPayload" } } },
    });
    expect(document.components.schemas.WebhookPayload).toMatchObject({
      required: expect.arrayContaining(["id", "type", "occurredAt", "ticket", "actor"]),
    });
  });
});

describe("the API docs page", () => {
  it("is served signed out under the app's strict CSP, loading its scripts and styles from our own origin", async () => {
    const page = await request(t.app, { method: "GET", url: "/api/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    // The only inline script allowed anywhere is the theme one, by its hash (decision 035).
    expect(page.headers["content-security-policy"]).toContain(`script-src 'self' ${themeScriptHash};`);
    expect(page.body).toContain("Helpdesk API");
    expect(page.body).not.toMatch(/<script>|<style>|https?:\/\//);
    // Only the docs' own answers allow the one hashed inline style of Swagger UI's logo; never unsafe-inline.
    expect(page.headers["content-security-policy"]).toMatch(/style-src 'self' 'sha256-[\w+/=]+';/);
    expect(page.headers["content-security-policy"]).not.toContain("unsafe-inline");
    const elsewhere = await request(t.app, { method: "GET", url: "/api/openapi.json" });
    expect(elsewhere.headers["content-security-policy"]).toContain("style-src 'self';");

    const script = await request(t.app, { method: "GET", url: "/api/docs/static/swagger-ui-bundle.js" });
    expect(script.statusCode).toBe(200);
    const document = await request(t.app, { method: "GET", url: "/api/docs/json" });
    expect(document.json()).toMatchObject({ info: { title: "Helpdesk" } });
  });
});
