import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "#server/db/schema/index.ts";
import { insertTicket, insertUser, signedInAs, testPassword } from "#server/test/factories.ts";
import { registeredRoutes } from "#server/test/route-table.ts";
import { createTestApp, request, type TestApp, testBaseURL } from "#server/test/test-app.ts";
import { allowedOrigins } from "./origins.ts";

let t: TestApp;
// A built client of one page, so that opening the app answers with it, as in production.
const appPage = '<!doctype html><div id="root"></div>';
beforeAll(async () => {
  const clientDir = mkdtempSync(path.join(os.tmpdir(), "helpdesk-origins-"));
  writeFileSync(path.join(clientDir, "index.html"), appPage);
  t = await createTestApp({ clientDir });
});
afterAll(() => t.close());

const unsafeMethods = ["POST", "PUT", "PATCH", "DELETE"];

/** Every route that changes state, from Fastify's own route table (routes added later are covered too). */
const mutatingRoutes = (app: FastifyInstance) =>
  registeredRoutes(app).filter((route) => unsafeMethods.includes(route.method));

// A wildcard route stands for many endpoints; these are the state-changing ones behind /api/auth/*.
const wildcardExamples: Record<string, string[]> = {
  "/api/auth/*": [
    "/api/auth/sign-up/email",
    "/api/auth/sign-in/email",
    "/api/auth/sign-out",
    "/api/auth/request-password-reset",
    "/api/auth/reset-password",
  ],
};

/** Every row of every table, so that "nothing changed" covers tables added later too. */
async function snapshot() {
  const tables = Object.values(schema).filter((value) => is(value, PgTable));
  return Promise.all(tables.map((table) => t.database.db.select().from(table)));
}

describe("requests from other sites", () => {
  it("refuses every state-changing route from another origin with 403 and changes nothing", async () => {
    const technician = await signedInAs(t.app, t.database.db, "technician");
    const admin = await signedInAs(t.app, t.database.db, "admin");
    const creator = await insertUser(t.database.db);
    const ticket = await insertTicket(t.database.db, { createdBy: creator.id });
    const routes = mutatingRoutes(t.app);
    expect(routes).toContainEqual({ method: "POST", url: "/api/tickets/:ticketId/assign" });
    expect(routes).toContainEqual({ method: "POST", url: "/api/auth/*" });

    const before = await snapshot();
    for (const { method, url } of routes) {
      const concrete = url.includes("*")
        ? wildcardExamples[url]
        : [url.replace(":ticketId", ticket.id).replace(/:\w+/g, creator.id)];
      expect(concrete, `give examples for ${url}`).toBeDefined();
      for (const target of concrete ?? []) {
        for (const [label, headers] of [
          ["foreign Origin", { origin: "https://evil.example" }],
          ["cross-site fetch", { "sec-fetch-site": "cross-site" }],
          ["same-site fetch", { "sec-fetch-site": "same-site" }],
          ["opaque Origin", { origin: "null" }],
        ] as const) {
          for (const cookie of [technician.cookie, admin.cookie]) {
            const response = await t.app.inject({
              method: method as "POST",
              url: target,
              headers: { ...headers, cookie, "content-type": "text/plain" },
              payload: JSON.stringify({
                email: technician.user.email,
                password: testPassword,
                name: "Mallory",
                status: "Closed",
                role: "admin",
              }),
            });
            expect(response.statusCode, `${label}: ${method} ${target}`).toBe(403);
            // SCIM's routes answer in SCIM's error shape (decision 081).
            expect(response.json()).toMatchObject(
              url.startsWith("/scim/")
                ? { status: "403", detail: expect.any(String) }
                : { code: "forbidden", message: expect.any(String) },
            );
          }
        }
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it("lets the app's own pages assign a ticket, but not another site with a bodiless text/plain POST", async () => {
    const technician = await signedInAs(t.app, t.database.db, "technician");
    const creator = await insertUser(t.database.db);
    const ticket = await insertTicket(t.database.db, { createdBy: creator.id });
    const forged = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.id}/assign`,
      cookie: technician.cookie,
      headers: { origin: "https://evil.example", "content-type": "text/plain" },
    });
    expect(forged.statusCode).toBe(403);
    const ours = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.id}/assign`,
      cookie: technician.cookie,
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(ours.statusCode, ours.body).toBe(200);
    expect(ours.json()).toMatchObject({ assignedTo: technician.user.id });
  });

  it("tells someone on the wrong address which address to open", async () => {
    const response = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { origin: "http://192.168.1.20:3000" },
      payload: { email: "nobody@example.test", password: "whatever1" },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: "forbidden",
      message: `This Helpdesk is configured for ${testBaseURL}. Open ${testBaseURL}, or set BASE_URL=http://192.168.1.20:3000 and restart.`,
    });
  });

  it("accepts a client that sends neither Origin nor Sec-Fetch-Site (curl, scripts): it cannot ride a browser's cookie", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      payload: { name: "Curl", email: "curl@example.test", password: "password123" },
    });
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe("loopback aliases", () => {
  it("treats localhost, 127.0.0.1 and [::1] on the same port as one app when BASE_URL is on loopback", () => {
    expect(allowedOrigins("http://localhost:3000")).toEqual([
      "http://localhost:3000",
      "http://127.0.0.1:3000",
      "http://[::1]:3000",
    ]);
    expect(allowedOrigins("https://helpdesk.example.com")).toEqual(["https://helpdesk.example.com"]);
  });

  it.each(["http://127.0.0.1:3000", "http://[::1]:3000"])(
    "signs in, raises a ticket and signs out from %s while BASE_URL says localhost",
    async (origin) => {
      const user = await insertUser(t.database.db);
      // better-auth checks Origin only when the browser already holds a cookie, as one that visited before does.
      const signIn = await request(t.app, {
        method: "POST",
        url: "/api/auth/sign-in/email",
        cookie: "visited=1",
        headers: { origin, host: new URL(origin).host },
        payload: { email: user.email, password: testPassword },
      });
      expect(signIn.statusCode, signIn.body).toBe(200);
      const cookie = String(signIn.headers["set-cookie"]).split(";")[0];
      const created = await request(t.app, {
        method: "POST",
        url: "/api/tickets",
        cookie,
        headers: { origin },
        payload: {
          title: "Monitor flickers",
          description: "Since this morning.",
          category: "Hardware",
          priority: "Low",
          department: "General",
          floor: "1",
          officeNumber: "101",
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const signOut = await request(t.app, {
        method: "POST",
        url: "/api/auth/sign-out",
        cookie,
        headers: { origin },
      });
      expect(signOut.statusCode, signOut.body).toBe(200);
    },
  );

  it("still refuses another port on loopback", async () => {
    const response = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { origin: "http://127.0.0.1:5173" },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe("opening the app on an address it is not configured for", () => {
  const openPage = (host: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "GET",
      url: "/Knowledge-base",
      headers: { host, accept: "text/html", ...headers },
    });

  it("shows a page naming the configured address and the variable to set", async () => {
    const response = await openPage("192.168.1.20:3000");
    expect(response.statusCode).toBe(421);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.body).toContain(`This Helpdesk is configured for ${testBaseURL}.`);
    expect(response.body).toContain(
      `<a href="${testBaseURL}/Knowledge-base">${testBaseURL}/Knowledge-base</a>`,
    );
    expect(response.body).toContain("set BASE_URL=http://192.168.1.20:3000 and restart");
    expect(response.body).not.toMatch(/<script|<style|style=/);
  });

  it("never repeats a Host header that is not a plain address", async () => {
    // Not an address anyone typed: the app itself answers, as for a proxied request.
    const response = await openPage('a"b<i>:3000');
    expect(response.statusCode).toBe(200);
    expect(response.body.startsWith(appPage)).toBe(true);
    expect(response.body).not.toContain('a"b<i>');
  });

  it.each(["localhost:3000", "127.0.0.1:3000", "[::1]:3000"])("serves the app on %s", async (host) => {
    const response = await openPage(host);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    // The page itself; the server adds its configuration after it (decision 061).
    expect(response.body.startsWith(appPage)).toBe(true);
  });

  it("leaves requests through a reverse proxy alone (the proxy may rewrite Host)", async () => {
    const response = await openPage("helpdesk-upstream:3000", { "x-forwarded-for": "10.0.0.8" });
    expect(response.statusCode).toBe(200);
    // The page itself; the server adds its configuration after it (decision 061).
    expect(response.body.startsWith(appPage)).toBe(true);
  });
});

describe("API caching", () => {
  it("sends Cache-Control: no-store on every /api answer, signed in or not, success or failure", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    for (const [url, who] of [
      ["/api/me", cookie],
      ["/api/me", null],
      ["/api/tickets", cookie],
      ["/api/auth/get-session", cookie],
      ["/api/auth/providers", null],
      ["/api/no-such-thing", null],
    ] as const) {
      const response = await request(t.app, { method: "GET", url, cookie: who });
      expect(response.headers["cache-control"], url).toBe("no-store");
    }
  });
});
