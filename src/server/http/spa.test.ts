import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, request, type TestApp } from "../test/test-app.ts";

let t: TestApp;
const bigScript = `export const words = ${JSON.stringify("helpdesk ".repeat(2000))};\n`;
beforeAll(async () => {
  const clientDir = mkdtempSync(path.join(os.tmpdir(), "helpdesk-spa-"));
  mkdirSync(path.join(clientDir, "assets"));
  writeFileSync(path.join(clientDir, "index.html"), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(clientDir, "assets", "app-abc123.js"), "console.log('app')");
  mkdirSync(path.join(clientDir, "prerendered"));
  writeFileSync(
    path.join(clientDir, "prerendered", "sign-in.html"),
    '<!doctype html><div id="root" data-prerendered="/sign-in"><h1>Sign In</h1></div>',
  );
  writeFileSync(path.join(clientDir, "assets", "big-def456.js"), bigScript);
  writeFileSync(path.join(clientDir, "assets", "big-def456.js.br"), brotliCompressSync(bigScript));
  writeFileSync(path.join(clientDir, "assets", "big-def456.js.gz"), gzipSync(bigScript));
  t = await createTestApp({ clientDir });
});
afterAll(() => t.close());

describe("the built client", () => {
  it("answers every app route with index.html so the client router can draw it", async () => {
    for (const url of ["/", "/user-home", "/tickets/TKTMWPZ19CDDW1QOG5J", "/Knowledge-base"]) {
      const response = await request(t.app, { method: "GET", url, headers: { accept: "text/html" } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"]).toMatch(/text\/html/);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("answers /sign-in with the page the build drew, while routes it did not draw still get index.html", async () => {
    const signIn = await request(t.app, {
      method: "GET",
      url: "/sign-in?next=%2Ftickets",
      headers: { accept: "text/html" },
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.headers["content-type"]).toMatch(/text\/html/);
    expect(signIn.headers["cache-control"]).toBe("no-cache");
    expect(signIn.body).toContain("<h1>Sign In</h1>");
    // "/" draws the sign-in page too, but its file was not built here: index.html, not another path's file.
    for (const url of ["/", "/user-home"]) {
      const response = await request(t.app, { method: "GET", url, headers: { accept: "text/html" } });
      expect(response.body, url).toBe('<!doctype html><div id="root"></div>');
    }
  });

  it("serves hashed assets as immutable and a missing asset as 404", async () => {
    const asset = await request(t.app, { method: "GET", url: "/assets/app-abc123.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toContain("immutable");
    const missing = await request(t.app, { method: "GET", url: "/assets/gone-000.js" });
    expect(missing.statusCode).toBe(404);
  });

  it("keeps unknown /api routes JSON, never the app's HTML", async () => {
    const response = await request(t.app, {
      method: "GET",
      url: "/api/nothing-here",
      headers: { accept: "text/html" },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: "not_found", message: "No API route GET /api/nothing-here" });
  });

  it("sends the build's pre-compressed brotli copy to a browser that accepts it, the plain file otherwise", async () => {
    const br = await request(t.app, {
      method: "GET",
      url: "/assets/big-def456.js",
      headers: { "accept-encoding": "gzip, deflate, br, zstd" },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers["cache-control"]).toContain("immutable");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bigScript);
    // The very bytes the build wrote, not a copy compressed again on each request.
    expect(br.rawPayload.equals(brotliCompressSync(bigScript))).toBe(true);

    const gzip = await request(t.app, {
      method: "GET",
      url: "/assets/big-def456.js",
      headers: { "accept-encoding": "gzip" },
    });
    expect(gzip.headers["content-encoding"]).toBe("gzip");

    const plain = await request(t.app, { method: "GET", url: "/assets/big-def456.js" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(bigScript);
  });
});
