import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, sessionCookieOf, signedInAs, testPassword } from "#server/test/factories.ts";
import { createDrawingTestApp, drawnStateOf, postFormAs } from "#server/test/page-renderer.ts";
import { createTestApp, request, type TestApp, testBaseURL } from "#server/test/test-app.ts";
import { secretOf, totpCode } from "#server/test/totp.ts";

// Forms posted as plain HTML, without the app's code (decision 065), against the real page renderer.
let drawing: Awaited<ReturnType<typeof createDrawingTestApp>>;
let t: TestApp;
let renderer: Awaited<ReturnType<typeof createDrawingTestApp>>["renderer"];
beforeAll(async () => {
  drawing = await createDrawingTestApp();
  ({ t, renderer } = drawing);
}, 120_000);
afterAll(() => drawing?.close());

const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  postFormAs(t.app, url, fields, { headers });
const drawnState = (html: string) => drawnStateOf<{ formAnswer?: unknown; timeZone?: string }>(html);

describe("signing in without the app's code", () => {
  it("signs in and goes where the app would: the page asked for, or home", async () => {
    const una = await insertUser(t.database.db, { role: "user" });
    const home = await postForm("/sign-in", { email: una.email, password: testPassword });
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe("/user-home");
    const cookie = sessionCookieOf(home.headers["set-cookie"]);
    const me = await request(t.app, { method: "GET", url: "/api/me", cookie });
    expect(me.json()).toMatchObject({ id: una.id, role: "user" });

    const tina = await insertUser(t.database.db, { role: "technician" });
    const back = await postForm("/sign-in?next=%2Ftickets%2FTKT-42", {
      email: tina.email,
      password: testPassword,
    });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe("/tickets/TKT-42");
    // The sign-in page's root is a sign-in page too.
    const fromRoot = await postForm("/", { email: tina.email, password: testPassword });
    expect(fromRoot.headers.location).toBe("/technician-home");
  });

  it("sends someone without a role to choose one, as the app does", async () => {
    const nobody = await insertUser(t.database.db, { role: null });
    const answer = await postForm("/sign-in?next=%2Ftickets", {
      email: nobody.email,
      password: testPassword,
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/role-selection");
  });

  it("draws the sign-in page again with the spec's message for a wrong password, keeping the e-mail, never the password", async () => {
    const una = await insertUser(t.database.db, { role: "user" });
    const page = await postForm("/sign-in?next=%2Ftickets", {
      email: una.email,
      password: "not the password",
    });
    expect(page.statusCode).toBe(401);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.headers["set-cookie"]).toBeUndefined();
    expect(page.body).toMatch(/<p role="alert"[^>]*>Wrong user credentials<\/p>/);
    expect(page.body).toContain(`value="${una.email}"`);
    expect(page.body).not.toContain("not the password");
    const form = /<form[^>]*name="sign-in"[^>]*>/.exec(page.body)?.[0];
    expect(form).toContain('method="post"');
    // No action: the browser posts to the page's own address, ?next= included.
    expect(form).not.toContain("action=");
    // The app's code, once it arrives, starts from the same answer (hydration finds what was drawn).
    expect(drawnState(page.body).formAnswer).toEqual({
      form: "sign-in",
      status: 401,
      message: expect.any(String),
      values: { email: una.email },
    });
  });

  it("shows the API's own message for input it refuses", async () => {
    const page = await postForm("/sign-in", { email: "not an address", password: "x" });
    expect(page.statusCode).toBe(400);
    expect(page.body).toMatch(/<p role="alert"[^>]*>[^<]*mail[^<]*<\/p>/i);
  });

  it("counts a form's wrong passwords in the same allowance as the app's", async () => {
    const limited = await createTestApp({
      clientDir: renderer.clientDir,
      pageRendering: { renderPage: renderer.renderPage, timeoutMs: 120_000 },
      credentialRateLimit: { window: 60, max: 3 },
    });
    try {
      const una = await insertUser(limited.database.db, { role: "user" });
      const post = (password: string) =>
        request(limited.app, {
          method: "POST",
          url: "/sign-in",
          payload: new URLSearchParams({ email: una.email, password }).toString(),
          headers: { "content-type": "application/x-www-form-urlencoded" },
        });
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++) statuses.push((await post("wrong")).statusCode);
      expect(statuses).toEqual([401, 401, 401]);
      // The app's own sign-in from the same address is refused now, and the form's too, with the API's message.
      const api = await request(limited.app, {
        method: "POST",
        url: "/api/auth/sign-in/email",
        payload: { email: una.email, password: testPassword },
      });
      expect(api.statusCode).toBe(429);
      const page = await post(testPassword);
      expect(page.statusCode).toBe(429);
      expect(page.headers["set-cookie"]).toBeUndefined();
      expect(page.body).toContain(api.json<{ message: string }>().message.slice(0, 20));
    } finally {
      await limited.close();
    }
  });

  it("asks a person with two-factor sign-in for the code on the page drawn, and signs in with it", async () => {
    const tina = await signedInAs(t.app, t.database.db, "technician");
    const enabled = await request(t.app, {
      method: "POST",
      url: "/api/auth/two-factor/enable",
      cookie: tina.cookie,
      payload: { password: testPassword },
    });
    const secret = secretOf(enabled.json<{ totpURI: string }>().totpURI);
    const confirmed = await request(t.app, {
      method: "POST",
      url: "/api/auth/two-factor/verify-totp",
      cookie: tina.cookie,
      payload: { code: totpCode(secret) },
    });
    expect(confirmed.statusCode).toBe(200);

    const step = await postForm("/sign-in?next=%2Ftickets", {
      email: tina.user.email,
      password: testPassword,
    });
    // No session yet: the code step, drawn, with the short-lived challenge cookie the API set.
    expect(step.statusCode).toBe(200);
    expect(step.body).toContain('name="code"');
    expect(drawnState(step.body).formAnswer).toMatchObject({ form: "sign-in", step: "code" });
    const setCookies = [step.headers["set-cookie"] ?? []].flat();
    expect(setCookies.some((cookie) => /^better-auth\.session_token=[^;]/.test(cookie))).toBe(false);
    const challenge = setCookies
      .find((cookie) => cookie.startsWith("better-auth.two_factor="))
      ?.split(";")[0];
    expect(challenge).toBeTruthy();

    const wrong = await postForm(
      "/sign-in?next=%2Ftickets",
      { code: "000000", kind: "app" },
      { cookie: challenge! },
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers["set-cookie"] ?? []).not.toContainEqual(
      expect.stringMatching(/^better-auth\.session_token=[^;]/),
    );

    const signedIn = await postForm(
      "/sign-in?next=%2Ftickets",
      { code: totpCode(secret), kind: "app" },
      { cookie: challenge! },
    );
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe("/tickets");
    const me = await request(t.app, {
      method: "GET",
      url: "/api/me",
      cookie: sessionCookieOf(signedIn.headers["set-cookie"]),
    });
    expect(me.json()).toMatchObject({ id: tina.user.id });
  });

  it("refuses a form posted from another site, and signs nobody in", async () => {
    const una = await insertUser(t.database.db, { role: "user" });
    const answer = await postForm(
      "/sign-in",
      { email: una.email, password: testPassword },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(answer.statusCode).toBe(403);
    expect(answer.headers["set-cookie"]).toBeUndefined();
  });

  it("answers a page that has no form with 404, as before", async () => {
    const answer = await postForm("/tickets", { title: "x" }, { origin: testBaseURL });
    expect(answer.statusCode).toBe(404);
  });
});
