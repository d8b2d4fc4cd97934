import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { themeScriptHash } from "./http/security-headers.ts";
import { createTestApp, request, type TestApp } from "./test/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("operations endpoints", () => {
  it("answers /healthz while the process is up", async () => {
    const response = await request(t.app, { method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("answers /readyz only when the database answers", async () => {
    const response = await request(t.app, { method: "GET", url: "/readyz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: "ok" });
  });
});

describe("HTTP contract", () => {
  it("answers an unknown /api route with a JSON 404", async () => {
    const response = await request(t.app, { method: "GET", url: "/api/no-such-thing" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: "not_found", message: "No API route GET /api/no-such-thing" });
  });

  it("sends a strict Content-Security-Policy: no inline scripts but the theme one, by its hash", async () => {
    const response = await request(t.app, { method: "GET", url: "/healthz" });
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain(`script-src 'self' ${themeScriptHash};`);
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("sends helmet's page headers on every answer, a 404 and a file too, and no Strict-Transport-Security over http", async () => {
    for (const url of ["/healthz", "/api/no-such-thing", "/sign-in"]) {
      const response = await request(t.app, { method: "GET", url });
      expect(response.headers, url).toMatchObject({
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-resource-policy": "same-origin",
        "origin-agent-cluster": "?1",
        // Never to another site; to our own, so that a form posted without code says its origin (decision 065).
        "referrer-policy": "same-origin",
        "x-content-type-options": "nosniff",
        "x-dns-prefetch-control": "off",
        "x-frame-options": "DENY",
        "x-permitted-cross-domain-policies": "none",
        "x-xss-protection": "0",
      });
      expect(String(response.headers["content-security-policy"]), url).toContain("default-src 'self'");
      expect(response.headers, url).not.toHaveProperty("strict-transport-security");
      expect(response.headers, url).not.toHaveProperty("x-powered-by");
    }
  });

  it("tags every answer with a request id", async () => {
    const response = await request(t.app, { method: "GET", url: "/healthz" });
    expect(response.headers["x-request-id"]).toMatch(/^[\w-]+$/);
  });

  it("answers malformed JSON with 400 and a readable message", async () => {
    const response = await request(t.app, {
      method: "POST",
      url: "/api/tickets",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: "validation_failed",
      message: "The request body is not valid JSON.",
    });
  });
});

describe("request logging (decision 039)", () => {
  async function linesLogged(options: { level: string; slowRequestMs?: number }) {
    const lines: Array<Record<string, unknown>> = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
    const logged = await createTestApp({
      logger: { level: options.level, stream },
      slowRequestMs: options.slowRequestMs,
    });
    try {
      for (let i = 0; i < 3; i++) await request(logged.app, { method: "GET", url: "/healthz" });
    } finally {
      await logged.close();
    }
    return lines.filter((line) => (line.req as { url?: string } | undefined)?.url === "/healthz");
  }

  it("logs no line per request at info", async () => {
    expect(await linesLogged({ level: "info" })).toEqual([]);
  });

  it("logs one line per request at debug", async () => {
    const lines = await linesLogged({ level: "debug" });
    expect(lines.map((line) => line.msg)).toEqual(Array(3).fill("request completed"));
    expect(lines[0]).toMatchObject({ res: { statusCode: 200 }, responseTime: expect.any(Number) });
  });

  it("logs a slow request at warn", async () => {
    const lines = await linesLogged({ level: "info", slowRequestMs: 0 });
    expect(lines.map((line) => [line.level, line.msg])).toEqual(Array(3).fill([40, "slow request"]));
  });
});
