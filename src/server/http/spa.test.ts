import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gzipSync } from "node:zlib";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { oidcLabelPlaceholder, type ServerConfig } from "#shared/page-rendering/server-config.ts";
import type { AuthProviders } from "#shared/users/user.schemas.ts";
import { registerSpa } from "./spa.ts";

let t: TestApp;

/** The configuration a page carries for main.tsx. */
function serverConfigOf(html: string): ServerConfig {
  const json = /<script type="application\/json" id="server-config">(.*?)<\/script>/s.exec(html)?.[1];
  if (!json) throw new Error("no server configuration in the page");
  return JSON.parse(json);
}
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
    for (const url of ["/", "/sign-up", "/no-such-page", "/Knowledge-base"]) {
      const response = await request(t.app, { method: "GET", url, headers: { accept: "text/html" } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"]).toMatch(/text\/html/);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers["cache-control"]).toBe("no-cache");
      // What this server offers to sign in with, for the page's first render (decision 061).
      expect(serverConfigOf(response.body)).toEqual({ authProviders: { google: false, oidc: null } });
    }
  });

  it("redirects a signed-out request for a page that needs a session to sign in, remembering the page (303)", async () => {
    for (const url of ["/user-home", "/tickets/TKTMWPZ19CDDW1QOG5J", "/tickets", "/profile", "/admin-home"]) {
      for (const method of ["GET", "HEAD"] as const) {
        const response = await request(t.app, { method, url, headers: { accept: "text/html" } });
        expect(response.statusCode, `${method} ${url}`).toBe(303);
        expect(response.headers.location, url).toBe(`/sign-in?next=${encodeURIComponent(url)}`);
        expect(response.headers["cache-control"], url).toBe("no-store");
      }
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
    for (const url of ["/", "/forgot-password"]) {
      const response = await request(t.app, { method: "GET", url, headers: { accept: "text/html" } });
      expect(response.body, url).toMatch(/^<!doctype html><div id="root"><\/div><script /);
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

describe("the sign-in page for the sign-in methods this server offers", () => {
  // The build draws /sign-in once per set of methods (vite.config.ts); each file says which it is.
  const clientDir = mkdtempSync(path.join(os.tmpdir(), "helpdesk-spa-providers-"));
  mkdirSync(path.join(clientDir, "prerendered"));
  writeFileSync(path.join(clientDir, "index.html"), '<!doctype html><body><div id="root"></div></body>');
  const drawn = (buttons: string) =>
    `<!doctype html><body><div id="root" data-prerendered="/sign-in"><h1>Sign In</h1>${buttons}</div></body>`;
  const google = "<button>Continue with Google</button>";
  const organisation = `<button>${oidcLabelPlaceholder}</button>`;
  for (const [file, buttons] of [
    ["sign-in", ""],
    ["sign-in.google", google],
    ["sign-in.oidc", organisation],
    ["sign-in.google.oidc", google + organisation],
  ]) {
    writeFileSync(path.join(clientDir, "prerendered", `${file}.html`), drawn(buttons!));
  }

  async function signInPageFor(authProviders: AuthProviders, headers: Record<string, string> = {}) {
    const app = Fastify();
    await registerSpa(app, { clientDir, authProviders });
    try {
      return await app.inject({
        method: "GET",
        url: "/sign-in",
        headers: { accept: "text/html", ...headers },
      });
    } finally {
      await app.close();
    }
  }

  it("sends the page drawn without Google when Google is not configured, and says so", async () => {
    const page = await signInPageFor({ google: false, oidc: null });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("<h1>Sign In</h1>");
    expect(page.body).not.toContain("Google");
    expect(serverConfigOf(page.body).authProviders).toEqual({ google: false, oidc: null });
  });

  it("sends the page drawn with Continue with Google when Google is configured", async () => {
    const page = await signInPageFor({ google: true, oidc: null });
    expect(page.body).toContain(google);
    expect(page.body).not.toContain(oidcLabelPlaceholder);
  });

  it("writes the organisation sign-in's label in, as text", async () => {
    const label = 'Sign in with <Contoso & "Partners">';
    const page = await signInPageFor({ google: false, oidc: { label } });
    expect(page.body).toContain("<button>Sign in with &lt;Contoso &amp; &quot;Partners&quot;&gt;</button>");
    expect(page.body).not.toContain("Google");
    expect(serverConfigOf(page.body).authProviders.oidc?.label).toBe(label);
  });

  it("answers 304 to a browser that has this page already, and the page again after a change", async () => {
    const first = await signInPageFor({ google: true, oidc: null });
    const etag = String(first.headers.etag);
    const again = await signInPageFor({ google: true, oidc: null }, { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    const changed = await signInPageFor({ google: false, oidc: null }, { "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
  });
});
