import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../db/schema/index.ts";
import { sessionCookieOf } from "../test/factories.ts";
import { startOidcProvider } from "../test/oidc.ts";
import { createTestApp, request, type TestApp, testBaseURL } from "../test/test-app.ts";

type Provider = Awaited<ReturnType<typeof startOidcProvider>>;
let provider: Provider;
let t: TestApp;

beforeAll(async () => {
  provider = await startOidcProvider();
  t = await createTestApp({
    oidc: {
      discoveryUrl: provider.discoveryUrl,
      clientId: "helpdesk-test",
      clientSecret: "helpdesk-test-secret",
      label: "Sign in with Contoso",
    },
  });
});
afterAll(async () => {
  await t.close();
  await provider.stop();
});

const cookieHeader = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [])
    .map((c) => c.split(";")[0])
    .join("; ");

/** The whole authorization-code flow: our app → the provider's /authorize → back to our callback. */
async function signInWithOidc() {
  const start = await request(t.app, {
    method: "POST",
    url: "/api/auth/sign-in/social",
    payload: { provider: "oidc", callbackURL: "/", newUserCallbackURL: "/role-selection" },
  });
  expect(start.statusCode).toBe(200);
  const authorizeUrl = new URL(start.json().url);
  expect(authorizeUrl.origin).toBe(provider.issuer);
  expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");

  // The provider authenticates the person and redirects to our callback with a code.
  const authorize = await fetch(authorizeUrl, { redirect: "manual" });
  expect(authorize.status).toBe(302);
  const callback = new URL(authorize.headers.get("location")!);
  expect(`${callback.origin}${callback.pathname}`).toBe(`${testBaseURL}/api/auth/callback/oidc`);

  const done = await request(t.app, {
    method: "GET",
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: cookieHeader(start.headers["set-cookie"]) },
  });
  expect(done.statusCode).toBe(302);
  return done;
}

async function signInWithOidcAndGetSession() {
  const done = await signInWithOidc();
  return { location: String(done.headers.location), cookie: sessionCookieOf(done.headers["set-cookie"]) };
}

describe("organisation single sign-on (OpenID Connect)", () => {
  it("refuses a deactivated person and sends them back to /sign-in saying why", async () => {
    provider.signInAs({ sub: "emp-1003", email: "dora@contoso.test", name: "Dora Deactivated" });
    const first = await signInWithOidcAndGetSession();
    await t.database.db.update(users).set({ status: "Inactive" }).where(eq(users.email, "dora@contoso.test"));
    const after = await request(t.app, { method: "GET", url: "/api/me", cookie: first.cookie });
    expect([after.statusCode, after.json()]).toEqual([200, null]);

    const refused = await signInWithOidc();
    const location = new URL(String(refused.headers.location), testBaseURL);
    expect(location.pathname).toBe("/sign-in");
    expect(location.searchParams.get("error")).toBe("account_inactive");
    expect(refused.headers["set-cookie"] ?? []).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^better-auth\.session_token=[^;]+;/)]),
    );
  });

  it("advertises the configured provider to the client", async () => {
    const response = await request(t.app, { method: "GET", url: "/api/auth/providers" });
    expect(response.json()).toEqual({ google: false, oidc: { label: "Sign in with Contoso" } });
  });

  it("creates a person with no role on first sign-in and sends them to role selection", async () => {
    provider.signInAs({ sub: "emp-1001", email: "olive@contoso.test", name: "Olive Okafor" });
    const { location, cookie } = await signInWithOidcAndGetSession();
    expect(location).toContain("/role-selection");
    const me = await request(t.app, { method: "GET", url: "/api/me", cookie });
    expect(me.json()).toMatchObject({ name: "Olive Okafor", email: "olive@contoso.test", role: null });

    const chosen = await request(t.app, {
      method: "POST",
      url: "/api/me/role",
      cookie,
      payload: { role: "technician" },
    });
    expect(chosen.json().role).toBe("technician");
  });

  it("signs a returning person in with the role they chose", async () => {
    provider.signInAs({ sub: "emp-1002", email: "rex@contoso.test", name: "Rex Returning" });
    const first = await signInWithOidcAndGetSession();
    await request(t.app, {
      method: "POST",
      url: "/api/me/role",
      cookie: first.cookie,
      payload: { role: "user" },
    });

    const again = await signInWithOidcAndGetSession();
    expect(new URL(again.location, testBaseURL).pathname).toBe("/");
    const me = await request(t.app, { method: "GET", url: "/api/me", cookie: again.cookie });
    expect(me.json()).toMatchObject({ email: "rex@contoso.test", role: "user" });
  });
});
