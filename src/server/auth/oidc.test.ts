import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, users } from "#server/db/schema/index.ts";
import { insertUser, sessionCookieOf, signIn, testPassword } from "#server/test/factories.ts";
import { startOidcProvider } from "#server/test/oidc.ts";
import { createTestApp, request, type TestApp, testBaseURL } from "#server/test/test-app.ts";

type Provider = Awaited<ReturnType<typeof startOidcProvider>>;
let provider: Provider;
let t: TestApp;

const oidcConfig = () => ({
  discoveryUrl: provider.discoveryUrl,
  clientId: "helpdesk-test",
  clientSecret: "helpdesk-test-secret",
  label: "Sign in with Contoso",
});

beforeAll(async () => {
  provider = await startOidcProvider();
  t = await createTestApp({ oidc: oidcConfig() });
});
afterAll(async () => {
  await t.close();
  await provider.stop();
});

const cookieHeader = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [])
    .map((c) => c.split(";")[0])
    .join("; ");

/**
 * The whole authorization-code flow: our app → the provider's /authorize → back to our callback. `asTheClient`
 * starts it as the sign-in page does, which names where a failure lands.
 */
async function signInWithOidc(app: TestApp = t, { asTheClient = false } = {}) {
  const start = await request(app.app, {
    method: "POST",
    url: "/api/auth/sign-in/social",
    payload: {
      provider: "oidc",
      callbackURL: "/",
      newUserCallbackURL: "/role-selection",
      ...(asTheClient ? { errorCallbackURL: "/sign-in?error=oauth&provider=oidc" } : {}),
    },
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

  const done = await request(app.app, {
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

describe("single sign-on for someone who signed up with a password first", () => {
  const get = (url: string, headers: Record<string, string>) =>
    request(t.app, { method: "GET", url, headers });
  const sessionCookies = (response: { headers: { "set-cookie"?: string | string[] } }) =>
    [response.headers["set-cookie"] ?? []].flat().filter((c) => /^better-auth\.session_token=[^;]+;/.test(c));
  const providersOf = async (userId: string) =>
    (await t.database.db.select().from(accounts).where(eq(accounts.userId, userId)))
      .map((account) => account.providerId)
      .sort();
  /** Where a refused sign-in lands: /sign-in with every error the callback named. */
  const landing = (response: { headers: { location?: string | string[] } }) => {
    const location = new URL(String(response.headers.location), testBaseURL);
    return { path: location.pathname, errors: location.searchParams.getAll("error") };
  };

  it("links the account when the provider verified the e-mail, and signs them in as themselves with their role", async () => {
    const pat = await insertUser(t.database.db, {
      email: "pat@contoso.test",
      name: "Pat Password",
      role: "technician",
    });
    const passwordSession = await signIn(t.app, pat.email);
    const token = await request(t.app, {
      method: "POST",
      url: "/api/me/tokens",
      cookie: passwordSession,
      payload: { name: "my script", scope: "read" },
    });
    expect(token.statusCode, token.body).toBe(201);

    provider.signInAs({
      sub: "emp-2001",
      email: "pat@contoso.test",
      name: "Pat at Contoso",
      emailVerified: true,
    });
    const linked = await signInWithOidc(t, { asTheClient: true });
    expect(new URL(String(linked.headers.location), testBaseURL).pathname).toBe("/");
    const cookie = sessionCookieOf(linked.headers["set-cookie"]);
    const me = await request(t.app, { method: "GET", url: "/api/me", cookie });
    expect(me.json()).toMatchObject({
      id: pat.id,
      email: "pat@contoso.test",
      name: "Pat Password",
      role: "technician",
    });
    expect(await providersOf(pat.id)).toEqual(["oidc"]);

    // The next time, the link is simply used.
    const again = await signInWithOidcAndGetSession();
    const meAgain = await request(t.app, { method: "GET", url: "/api/me", cookie: again.cookie });
    expect(meAgain.json()).toMatchObject({ id: pat.id, role: "technician" });

    // What the account had before anyone proved the address no longer gets in: whoever signed up first with
    // it might not have been Pat. Pat sets a password again through "Forgot password?" if they want one.
    const password = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email: pat.email, password: testPassword },
    });
    expect(password.statusCode).toBe(401);
    expect(
      (await request(t.app, { method: "GET", url: "/api/me", cookie: passwordSession })).json(),
    ).toBeNull();
    const byToken = await get("/api/me", { authorization: `Bearer ${token.json().token}` });
    expect(byToken.statusCode).toBe(401);
  });

  it("refuses to link an e-mail the provider has not verified, says so, and changes nothing", async () => {
    const una = await insertUser(t.database.db, { email: "una@contoso.test", role: "user" });
    provider.signInAs({
      sub: "emp-2002",
      email: "una@contoso.test",
      name: "Una Unverified",
      emailVerified: false,
    });
    const refused = await signInWithOidc(t, { asTheClient: true });
    expect(landing(refused)).toEqual({ path: "/sign-in", errors: ["oauth", "email_not_verified"] });
    expect(sessionCookies(refused)).toEqual([]);
    expect(await providersOf(una.id)).toEqual(["credential"]);
    expect((await signIn(t.app, una.email)).length).toBeGreaterThan(0);
  });

  it("refuses a deactivated person and links nothing", async () => {
    const dee = await insertUser(t.database.db, {
      email: "dee@contoso.test",
      role: "user",
      status: "Inactive",
    });
    provider.signInAs({
      sub: "emp-2003",
      email: "dee@contoso.test",
      name: "Dee Deactivated",
      emailVerified: true,
    });
    const refused = await signInWithOidc(t, { asTheClient: true });
    expect(landing(refused)).toEqual({ path: "/sign-in", errors: ["oauth", "account_inactive"] });
    expect(sessionCookies(refused)).toEqual([]);
    expect(await providersOf(dee.id)).toEqual(["credential"]);
  });

  it("links nothing when SSO_ACCOUNT_LINKING is off: the person signs in with their password", async () => {
    const unlinked = await createTestApp({ oidc: oidcConfig(), ssoAccountLinking: false });
    try {
      const liv = await insertUser(unlinked.database.db, { email: "liv@contoso.test", role: "user" });
      provider.signInAs({
        sub: "emp-2004",
        email: "liv@contoso.test",
        name: "Liv Linked-Off",
        emailVerified: true,
      });
      const refused = await signInWithOidc(unlinked, { asTheClient: true });
      expect(landing(refused)).toEqual({ path: "/sign-in", errors: ["oauth", "account_not_linked"] });
      expect(sessionCookies(refused)).toEqual([]);
      expect(
        (await unlinked.database.db.select().from(accounts).where(eq(accounts.userId, liv.id))).length,
      ).toBe(1);
      expect((await signIn(unlinked.app, liv.email)).length).toBeGreaterThan(0);
    } finally {
      await unlinked.close();
    }
  });
});
