import { afterEach, expect, test } from "vitest";
import { signedInAs } from "./factories.ts";
import { createTestApp, request, type TestApp, testAdminKey } from "./test-app.ts";

// The scan every server test runs (response-secrets.ts) must catch a leak, or it proves nothing. Each test
// here builds an app with one route that leaks one kind of secret, calls it, and expects close() to fail
// naming the route; the last one checks the legitimate cases pass.

let leaked: unknown = "not leaked";
let t: TestApp | undefined;
afterEach(async () => {
  leaked = "not leaked";
  await t?.database.destroy().catch(() => {});
  t = undefined;
});

async function appLeaking(body: () => unknown) {
  t = await createTestApp({}, {}, { beforeReady: (app) => app.get("/api/leak", async () => body()) });
  return t;
}

async function closeError(app: TestApp): Promise<string> {
  try {
    await app.close();
    return "";
  } catch (error) {
    return (error as Error).message;
  } finally {
    t = undefined;
  }
}

test("a password hash in a body fails the test file that saw it", async () => {
  const app = await appLeaking(() => ({
    user: { passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA" },
  }));
  expect((await request(app.app, { method: "GET", url: "/api/leak" })).statusCode).toBe(200);
  expect(await closeError(app)).toMatch(/GET \/api\/leak \(200\): a password hash/);
});

test("the admin sign-up key in a body is caught", async () => {
  const app = await appLeaking(() => ({ key: testAdminKey }));
  await request(app.app, { method: "GET", url: "/api/leak" });
  expect(await closeError(app)).toMatch(/a server secret/);
});

test("a session token issued in a cookie and later sent in a body is caught", async () => {
  const app = await appLeaking(() => ({ token: leaked }));
  const { cookie } = await signedInAs(app.app, app.database.db, "user");
  leaked = /session_token=([^.;]+)/.exec(cookie)?.[1];
  expect(leaked).toMatch(/^\w{20,}$/);
  await request(app.app, { method: "GET", url: "/api/leak" });
  expect(await closeError(app)).toMatch(/a session token/);
});

test("an API token is shown once when it is created, and anywhere else is a leak", async () => {
  const app = await appLeaking(() => ({ again: leaked }));
  const { cookie } = await signedInAs(app.app, app.database.db, "technician");
  const created = await request(app.app, {
    method: "POST",
    url: "/api/me/tokens",
    cookie,
    payload: { name: "script", scope: "read" },
  });
  expect(created.statusCode).toBe(201);
  leaked = created.json().token;
  // Listing tokens (prefix only) is fine.
  expect((await request(app.app, { method: "GET", url: "/api/me/tokens", cookie })).body).not.toContain(
    leaked,
  );
  await request(app.app, { method: "GET", url: "/api/leak" });
  expect(await closeError(app)).toMatch(/GET \/api\/leak \(200\): an API token/);
});

test("signing up, signing in, reading the session and creating a token leak nothing", async () => {
  const app = await appLeaking(() => ({ ok: true }));
  const { cookie } = await signedInAs(app.app, app.database.db, "technician");
  await request(app.app, { method: "GET", url: "/api/auth/get-session", cookie });
  await request(app.app, { method: "GET", url: "/api/me", cookie });
  const created = await request(app.app, {
    method: "POST",
    url: "/api/me/tokens",
    cookie,
    payload: { name: "ci", scope: "write" },
  });
  expect(created.statusCode).toBe(201);
  await request(app.app, { method: "GET", url: "/api/me/tokens", cookie });
  expect(await closeError(app)).toBe("");
});
