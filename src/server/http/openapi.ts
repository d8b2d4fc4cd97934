import { readFileSync } from "node:fs";
import path from "node:path";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { createJsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";
import { projectRoot } from "#server/project-root.ts";
import { apiErrorSchema } from "#shared/errors.ts";
import { scimContentType } from "#shared/scim/scim.schemas.ts";
import {
  webhookEventLabels,
  webhookHeaders,
  webhookPayloadSchema,
  webhookTestEventType,
  webhookTestPayloadSchema,
} from "#shared/webhooks/webhook.schemas.ts";
import { idempotencyRefusedRoutes } from "./idempotency.ts";
import { addSafeRetryHeaders, noContent, nonJsonSuccess, operationIdOf } from "./openapi-operations.ts";
import { operationSummaries } from "./openapi-summaries.ts";

const packageJson = z
  .object({ version: z.string(), license: z.string() })
  .parse(JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")));

/** The path of the OpenAPI document and of the page that browses it. */
export const openApiPath = "/api/openapi.json";
export const apiDocsPath = "/api/docs";

const authTagNote =
  "Sign-in, sign-up, sign-out, password reset and two-factor sign-in, served by better-auth behind /api/auth/*. " +
  "Only the endpoints listed here answer; every other path under /api/auth answers 404. " +
  "Their bodies follow better-auth's own shapes, not the error shape of the rest of the API.";

/** sha256 of the <style> in Swagger UI's logo (swagger-ui-standalone-preset.js; e2e/api-docs.spec.ts fails if it changes). */
const swaggerUiLogoStyleHash = "sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w=";

/** Routes that answer without a session (the rest answer 401 to nobody signed in). */
const publicRoutes = [
  openApiPath,
  "/api/auth/providers",
  "/api/admin-signup",
  "/api/notifications/unsubscribe",
];

/** Tags per feature, first matching rule wins. The URL says which feature folder a route comes from. */
const tagRules: Array<[pattern: RegExp, tag: string]> = [
  [/^\/api\/auth(\/|$)/, "auth"],
  [/^\/api\/(openapi\.json|docs)/, "api"],
  [/^\/api\/tickets\/[^/]+\/follow/, "followers"],
  [/^\/api\/tickets\/[^/]+\/presence/, "presence"],
  [/^\/api\/tickets\/[^/]+\/custom-fields/, "custom-fields"],
  [/^\/api\/tickets\/[^/]+\/team$/, "teams"],
  [/^\/api\/routing(\/|$)/, "teams"],
  [/^\/api\/tickets\/[^/]+\/tags$/, "tags"],
  [/^\/api\/tickets\/[^/]+\/(links|merge)(\/|$)/, "links"],
  [/^\/api\/(tickets\/[^/]+\/(major-incident|incident)(\/|$)|known-issues)/, "major-incidents"],
  [/^\/api\/tickets\/([^/]+\/macros\/|bulk\/macro$)/, "macros"],
  [/^\/api\/tickets/, "tickets"],
  [/^\/api\/admin\/settings\/custom-fields/, "custom-fields"],
  [/^\/api\/admin\/settings/, "settings"],
  [/^\/api\/admin\/users/, "user-management"],
  [/^\/api\/admin\/webhooks/, "webhooks"],
  [/^\/api\/admin\/inbound-mail/, "inbound-mail"],
  [/^\/(scim\/v2|api\/admin\/scim)(\/|$)/, "SCIM"],
  [/^\/api\/me\/notification-settings/, "notifications"],
  [/^\/api\/(me|admin-signup|staff|technicians)(\/|$)/, "users"],
];

export const tagOf = (url: string) =>
  tagRules.find(([pattern]) => pattern.test(url))?.[1] ?? url.split("/")[2] ?? "api";

const tagDescriptions: Record<string, string> = {
  api: "This document and the page that browses it",
  auth: authTagNote,
  tickets: "Tickets, their activity, comments, status, assignment and feedback",
  followers: "Following a ticket",
  presence:
    "Who else is on a ticket: staff with its page open say they are viewing or typing, and hear who else is on their live stream",
  "custom-fields": "Custom fields: their definitions (admins) and a ticket's values",
  settings: "Admin settings: service levels, business hours, auto-close, escalation and their history",
  "user-management": "Admins manage accounts: roles, status, password resets and history",
  users: "The signed-in person, the first administrator's sign-up, and staff lists",
  notifications: "Notifications, their live stream and a person's notification settings",
  attachments: "Files attached to tickets and comments",
  "canned-responses": "Saved replies of technicians and admins",
  macros:
    "Macros: a saved reply plus changes to the ticket, previewed and applied in one step, alone or in bulk (decision 075)",
  departments: "Departments",
  articles:
    "Help articles of the knowledge base: reading, searching, suggestions, votes and, for staff, writing and revisions",
  reports:
    "Figures for technicians and administrators: ticket volume, response times, satisfaction, workload",
  search: "Search over tickets",
  mentions: "People who can be mentioned in a comment",
  teams: "Teams of technicians, a ticket's team, and the routing rules that choose a new ticket's team",
  tags: "Staff's tags on tickets and the tag control's suggestions (decision 071)",
  links:
    "Links between tickets (related, duplicate, parent and child) and merging a duplicate (decision 074)",
  "major-incidents":
    "Major incidents: declared on a ticket, the tickets they affect, public updates, and their public face, the known issues people follow (decision 077)",
  views:
    "Saved views of the ticket list: a name and the list's query string, personal or shared (decision 071)",
  automation:
    "Administrators' automation rules: conditions on a ticket and the changes they make, tried on the open tickets first (decision 076)",
  "inbound-mail":
    "What became of each e-mail the inbound mail listener received: a ticket, a comment, ignored or refused, and why (decision 083)",
  SCIM: "SCIM 2.0 provisioning for identity providers (Entra ID, Okta) under /scim/v2, with a SCIM token; its answers and failures use SCIM's own shapes (RFC 7643/7644), not ApiError. Admins create the tokens under /api/admin/scim (docs/operations.md, Provisioning with SCIM).",
  webhooks:
    "Admins register signed webhooks for ticket events and read their delivery log (docs/api.md, Webhooks)",
};

const errorResponse = {
  description: "A failure, in the one error shape of this API (code, message naming the field, details)",
  content: { "application/json": { schema: { $ref: "#/components/schemas/ApiError" } } },
};

/**
 * An endpoint behind the /api/auth/* bridge, described by hand (auth/auth-endpoints.ts's
 * exposedAuthEndpoints, handed in by the app).
 */
export interface DocumentedEndpoint {
  method: "GET" | "POST";
  path: string;
  summary: string;
}

/** better-auth's own failures: not the ApiError shape (docs/api.md, "Not covered"). */
const authErrorResponse = { description: "better-auth's own error answer (not ApiError)" };

/**
 * Answers may gain fields at any release (docs/api.md): their schemas must not forbid properties the
 * document does not list, or a client that validates answers breaks on the next release. The zod
 * transform writes `additionalProperties: false` on every object; request bodies keep it (the server
 * refuses unknown fields), answers lose it.
 */
function allowExtraProperties(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(allowExtraProperties);
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === "additionalProperties" && value === false))
      .map(([key, value]) => [key, allowExtraProperties(value)]),
  );
}

const jsonSchemaOf = (schema: z.ZodType) => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "output" });
  return allowExtraProperties(rest) as Record<string, unknown>;
};

/** The deliveries a webhook endpoint receives, one per event type (docs/api.md, Webhooks). */
function webhookDeliveries() {
  const headers = Object.values(webhookHeaders).map((name) => ({
    name,
    in: "header",
    required: true,
    schema: { type: "string" },
  }));
  const delivery = (type: string, summary: string, schema: string) => ({
    post: {
      operationId: `webhook${type.replace(/(^|[._])(\w)/g, (_, _separator, letter: string) => letter.toUpperCase())}`,
      summary,
      description:
        "Verify the signature before trusting the body, answer any 2xx within 10 seconds, and ignore an " +
        "event `id` you already handled (docs/api.md, Webhooks). New fields may appear.",
      tags: ["webhooks"],
      parameters: headers,
      requestBody: {
        required: true,
        content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
      },
      responses: {
        "2XX": { description: "Received; the answer's first 1 KB is kept in the delivery log" },
        "4XX": { description: "Refused: the delivery fails at once (408 and 429 are retried)" },
      },
      security: [],
    },
  });
  return {
    ...Object.fromEntries(
      Object.entries(webhookEventLabels).map(([type, label]) => [
        type,
        delivery(type, `${label}: sent to your endpoint as a signed POST`, "WebhookPayload"),
      ]),
    ),
    // Decision 080: sent only when an administrator presses "Send test"; never queued nor retried.
    [webhookTestEventType]: delivery(
      webhookTestEventType,
      "Send test: sent when an administrator asks, signed like every delivery",
      "WebhookTestPayload",
    ),
  };
}

interface Operation {
  responses?: unknown;
}

type Contents = Record<string, unknown>;
interface ScimOperation {
  requestBody?: { content?: Contents };
  responses: Record<string, { content?: Contents }>;
}

/** SCIM's bodies travel as application/scim+json (application/json is accepted too): the document says both. */
function withScimContentType(operation: ScimOperation) {
  const add = (content: Contents | undefined) => {
    if (content?.["application/json"]) content[scimContentType] = content["application/json"];
  };
  add(operation.requestBody?.content);
  for (const response of Object.values(operation.responses)) add(response.content);
}

/** Health checks are for load balancers, not the API; the /api/auth/* bridge is described by authEndpoints. */
const skipList = ["/healthz", "/readyz", "/api/auth/*"];

/**
 * Registers the OpenAPI 3.1 document (GET /api/openapi.json), generated from the zod schemas the routes
 * declare, and the page that browses it (GET /api/docs, Swagger UI served from our own origin: its
 * scripts and styles are files, so the strict CSP holds). Must run before the routes are registered:
 * @fastify/swagger collects them as they are added.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  { authEndpoints, baseURL }: { authEndpoints: ReadonlyArray<DocumentedEndpoint>; baseURL: string },
) {
  const transform = createJsonSchemaTransform({ skipList: [] });
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Helpdesk",
        version: packageJson.version,
        description:
          "The REST API of Helpdesk. Every route the app serves under /api is listed here. " +
          "Compatibility promise and authentication: docs/api.md. Failures share one shape: ApiError.",
        license: { name: packageJson.license, identifier: packageJson.license },
      },
      servers: [{ url: baseURL }],
      components: {
        securitySchemes: {
          sessionCookie: {
            type: "apiKey",
            in: "cookie",
            name: "better-auth.session_token",
            description: "The session cookie set by signing in (the browser sends it by itself).",
          },
          bearerAuth: {
            type: "http",
            scheme: "bearer",
            description: "A personal API token, sent as Authorization: Bearer <token>.",
          },
          scimBearer: {
            type: "http",
            scheme: "bearer",
            description:
              "A SCIM token (scim_…) from Admin settings › Provisioning (SCIM), for /scim/v2 only (decision 081).",
          },
        },
      },
      security: [{ sessionCookie: [] }, { bearerAuth: [] }],
      tags: Object.entries(tagDescriptions).map(([name, description]) => ({ name, description })),
    },
    transform: (input) => {
      // (The zod transform's own skip list misses routes declared without a schema, as these are.)
      if (skipList.includes(input.url)) return { schema: { hide: true }, url: input.url };
      const result = transform(input);
      const schema = (result.schema ?? {}) as Record<string, unknown>;
      if (schema.hide) return result;
      const method = [input.route.method].flat()[0] ?? "GET";
      const operation = `${method} ${result.url.replace(/:(\w+)/g, "{$1}")}`;
      const responses = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
      responses["4XX"] ??= errorResponse;
      const security = publicRoutes.includes(result.url) ? { security: [] } : {};
      const summary = (schema.summary as string | undefined) ?? operationSummaries[operation];
      return {
        ...result,
        schema: {
          ...schema,
          ...security,
          operationId: operationIdOf(method, operation.slice(method.length + 1)),
          ...(summary ? { summary } : {}),
          tags: [tagOf(result.url)],
          response: responses,
        },
      };
    },
    transformObject: (documentObject) => {
      const document = ("openapiObject" in documentObject ? documentObject.openapiObject : {}) as {
        components: { schemas?: Record<string, unknown> };
        paths: Record<string, Record<string, unknown>>;
        webhooks?: Record<string, unknown>;
      };
      const refusedPaths = Object.keys(idempotencyRefusedRoutes).map((url) => url.replace(/:(\w+)/g, "{$1}"));
      document.components.schemas = {
        ...document.components.schemas,
        ApiError: jsonSchemaOf(apiErrorSchema),
        WebhookPayload: jsonSchemaOf(webhookPayloadSchema),
        WebhookTestPayload: jsonSchemaOf(webhookTestPayloadSchema),
      };
      for (const [path, operations] of Object.entries(document.paths))
        for (const [method, operation] of Object.entries(operations) as Array<[string, Operation]>) {
          const responses = {
            ...(allowExtraProperties(operation.responses) as Record<string, unknown>),
            // Files, CSV, the event stream and redirects: not JSON, so not in the route's zod schemas.
            ...nonJsonSuccess[`${method.toUpperCase()} ${path}`],
          };
          // A delete without an answer's schema answers 204 (docs/api.md); any other such route fails the test.
          if (method === "delete" && !Object.keys(responses).some((code) => code.startsWith("2")))
            responses[204] = noContent;
          operation.responses = responses;
          if (path.startsWith("/scim/")) withScimContentType(operation as ScimOperation);
          addSafeRetryHeaders(
            method,
            path,
            operation as Parameters<typeof addSafeRetryHeaders>[2],
            refusedPaths,
          );
        }
      document.webhooks = webhookDeliveries();
      // better-auth's endpoints behind the /api/auth/* bridge, described by hand from the bridge's own list.
      for (const endpoint of authEndpoints) {
        const path = `/api/auth${endpoint.path}`;
        const method = endpoint.method.toLowerCase();
        const parameters = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
          name,
          in: "path",
          required: true,
          schema: { type: "string" },
        }));
        document.paths[path] ??= {};
        document.paths[path][method] = {
          tags: ["auth"],
          operationId: operationIdOf(endpoint.method, path),
          summary: endpoint.summary,
          description: authTagNote,
          ...(parameters.length ? { parameters } : {}),
          security: [],
          responses: { default: { description: "better-auth's answer" }, "4XX": authErrorResponse },
        };
      }
      return document;
    },
  });
  // Neither needs a session: the document describes the API, it holds no one's data.
  app.get(openApiPath, { schema: { summary: "This OpenAPI document" } }, async () => app.swagger());
  // Swagger UI's page loads the document from its own /api/docs/json (hidden), the same object.
  await app.register(swaggerUi, {
    routePrefix: apiDocsPath,
    theme: { title: "Helpdesk API" },
    // Its areas (tags) are listed closed, each opened by a click or a link (#/tickets/…). Swagger UI opening
    // all of them at once drew only the first one or two areas of a document this size (~140 operations).
    uiConfig: { docExpansion: "none", deepLinking: true },
    // Swagger UI's scripts and styles are files of our own origin; its top bar's logo alone is an SVG
    // with one inline <style>. That exact text, by its hash, is allowed on the docs' own answers only;
    // the rest of the app keeps style-src 'self'.
    transformStaticCSP: (header) =>
      header.replace("style-src 'self'", `style-src 'self' '${swaggerUiLogoStyleHash}'`),
  });
}
