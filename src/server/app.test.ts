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
