import { copyFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "#server/db/schema/index.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { projectRoot } from "#server/project-root.ts";
import { insertUser, sessionCookieOf, signedInAs, testPassword } from "#server/test/factories.ts";
import { createDrawingTestApp, formTagOf, openPageAs, postFormAs } from "#server/test/page-renderer.ts";
import { decodeMail, startSmtpServer } from "#server/test/smtp.ts";
import { createTestApp, request, type TestApp, testAdminKey } from "#server/test/test-app.ts";
import { intoTemplate } from "./server-rendered-pages.ts";

// The account forms around sign-in posted as plain HTML, without the app's code (decision 065), against
// the real page renderer and the real index.html.
let drawing: Awaited<ReturnType<typeof createDrawingTestApp>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  drawing = await createDrawingTestApp({
    mailer: createMailer({
      smtpUrl: smtp.url,
      outboxDir: "/nonexistent",
      from: "Helpdesk <hd@test.local>",
      log: () => {},
    }),
  });
  ({ t } = drawing);
  // The real index.html, with its noscript; read by the app at its first page.
  copyFileSync(
    path.join(projectRoot, "src/client/index.html"),
    path.join(drawing.renderer.clientDir, "index.html"),
  );
}, 120_000);
afterAll(async () => {
  await drawing?.close();
  await smtp?.close();
});

/** A form as a browser without the app's code posts it: urlencoded, from this site's own page. */
const postForm = (url: string, fields: Record<string, string>, cookie?: string) =>
  postFormAs(t.app, url, fields, { cookie: cookie ?? null });
const getPage = (url: string, cookie?: string) => openPageAs(t.app, url, cookie ?? null);
const formTag = formTagOf;

/** The text of the page's elements with `role`, tags removed. */
const textsWithRole = (html: string, role: string) =>
  [...html.matchAll(new RegExp(`<(\\w+)[^>]*role="${role}"[^>]*>([\\s\\S]*?)</\\1>`, "g"))].map((match) =>
    match[2]!.replace(/<[^>]+>/g, "").trim(),
  );

const usersWithEmail = async (email: string) =>
  t.database.db.select().from(users).where(eq(users.email, email.toLowerCase()));

let sequence = 0;
const newEmail = (who: string) => `${who}-${Date.now().toString(36)}-${sequence++}@example.test`;

describe("the account pages are drawn with their forms, for a browser without the app's code", () => {
  it.each([
    ["/sign-up", "sign-up", ["name", "email", "password", "role"]],
    ["/forgot-password", "forgot-password", ["email"]],
    ["/reset-password?token=abc", "reset-password", ["newPassword", "confirmPassword"]],
    ["/admin-signup", "admin-signup", ["name", "email", "password", "adminKey"]],
  ])("%s: a real form posting to its own address, its fields named", async (url, name, fields) => {
    const page = await getPage(url);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.body).toContain('<div id="root" data-drawn');
    const form = formTag(page.body, name);
    expect(form).toContain('method="post"');
    expect(form).not.toContain("action=");
    for (const field of fields) expect(page.body).toMatch(new RegExp(`<(input|select)[^>]*name="${field}"`));
    // Drawn: no word about needing JavaScript.
    expect(page.body).not.toContain("<noscript>");
  });

  it("lets the browser say the form comes from this site: a real browser sends Origin: null under no-referrer", async () => {
    const page = await getPage("/sign-up");
    // No address of ours goes to another site, but our own forms carry their origin (origins.ts refuses null).
    expect(page.headers["referrer-policy"]).toBe("same-origin");
    const fromNowhere = await request(t.app, {
      method: "POST",
      url: "/forgot-password",
      payload: "email=someone%40example.test",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" },
    });
    expect(fromNowhere.statusCode).toBe(403);
  });

  it("draws role selection for a person without a role, and sends anyone with one home", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, null);
    const page = await getPage("/role-selection", cookie);
    expect(page.statusCode).toBe(200);
    expect(formTag(page.body, "role-selection")).toContain('method="post"');
    // User is chosen unless the person chooses otherwise: the browser sends it as it is.
    const radios = page.body.match(/<input[^>]*name="role"[^>]*>/g) ?? [];
    expect(radios.map((radio) => [/value="(\w+)"/.exec(radio)?.[1], radio.includes('checked=""')])).toEqual([
      ["user", true],
      ["technician", false],
    ]);

    const { cookie: technician } = await signedInAs(t.app, t.database.db, "technician");
    const home = await getPage("/role-selection", technician);
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe("/technician-home");
  });
});

describe("signing up without the app's code", () => {
  it("creates the account and goes home by role, signed in, where the app's toast is said", async () => {
    const email = newEmail("grace");
    const answer = await postForm("/sign-up", {
      name: "  Grace Hopper ",
      email,
      password: "cobol-rules",
      role: "technician",
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/technician-home?done=registered");
    const me = await request(t.app, {
      method: "GET",
      url: "/api/me",
      cookie: sessionCookieOf(answer.headers["set-cookie"]),
    });
    expect(me.json()).toMatchObject({ email, name: "Grace Hopper", role: "technician" });
    // The home it lands on says what the app's toast says.
    const home = await getPage(answer.headers.location!, sessionCookieOf(answer.headers["set-cookie"]));
    expect(home.statusCode).toBe(200);
    expect(home.body).toMatch(/<p role="status"[^>]*>.*Registration was a success/s);
  });

  it("shows the API's message for an address already registered, keeps what was typed but the password, and creates nothing", async () => {
    const existing = await insertUser(t.database.db, { role: "user" });
    const page = await postForm("/sign-up", {
      name: "Someone Else",
      email: existing.email,
      password: "another password",
      role: "user",
    });
    expect(page.statusCode).toBe(400);
    expect(page.headers["set-cookie"]).toBeUndefined();
    expect(textsWithRole(page.body, "alert")).toEqual(["Something went wrong with the registration"]);
    expect(page.body).toContain('value="Someone Else"');
    expect(page.body).toContain(`value="${existing.email}"`);
    expect(page.body).not.toContain("another password");
    expect(await usersWithEmail(existing.email)).toHaveLength(1);
  });

  it("says what is wrong under each field, in the app's words, and sends nothing", async () => {
    const email = "not-an-email";
    const page = await postForm("/sign-up", { name: "", email, password: "short", role: "user" });
    expect(page.statusCode).toBe(400);
    // The messages the app shows for the same input (sign-up-form.test.tsx), under the fields.
    for (const message of [
      "Name is required",
      "Enter a valid e-mail address",
      "Password must be at least 8 characters",
    ])
      expect(page.body).toMatch(new RegExp(`<p id="[^"]*-error"[^>]*>${message}</p>`));
    expect(page.body).toMatch(/<input[^>]*aria-invalid="true"[^>]*name="email"/);
    expect(textsWithRole(page.body, "alert")).toEqual([]);
    expect(await usersWithEmail(email)).toHaveLength(0);
  });
});

describe("a forgotten password without the app's code", () => {
  it("mails the link and says so on the page", async () => {
    const rita = await insertUser(t.database.db, { name: "Rita Reset" });
    const page = await postForm("/forgot-password", { email: rita.email });
    expect(page.statusCode).toBe(200);
    expect(textsWithRole(page.body, "status")).toContain("Reset email was sent successfully.");
    expect(page.body).toContain(`value="${rita.email}"`);
    const [mail] = await smtp.waitForMailTo(rita.email);
    expect(decodeMail(mail!.raw)).toContain("Subject: Reset your Helpdesk password");
  });

  it("says the same for an address without an account", async () => {
    const page = await postForm("/forgot-password", { email: newEmail("nobody") });
    expect(page.statusCode).toBe(200);
    expect(textsWithRole(page.body, "status")).toContain("Reset email was sent successfully.");
  });

  it("refuses an address that is not one, in the app's words", async () => {
    const page = await postForm("/forgot-password", { email: "nope" });
    expect(page.statusCode).toBe(400);
    expect(page.body).toMatch(/<p id="[^"]*-error"[^>]*>Enter a valid e-mail address<\/p>/);
    expect(textsWithRole(page.body, "status")).toEqual([]);
  });
});

describe("setting a new password without the app's code", () => {
  /** The token of the link mailed to `email`, as the link's redirect to /reset-password carries it. */
  async function mailedToken(email: string) {
    await postForm("/forgot-password", { email });
    const [mail] = await smtp.waitForMailTo(email);
    const link = decodeMail(mail!.raw).match(
      /http:\/\/localhost:3000(\/api\/auth\/reset-password\/[^\s"<]+)/,
    )?.[1];
    const followed = await request(t.app, { method: "GET", url: link! });
    return new URL(String(followed.headers.location), "http://localhost").searchParams.get("token")!;
  }

  it("sets it and goes to the sign-in page, where the new password works", async () => {
    const nina = await insertUser(t.database.db);
    const token = await mailedToken(nina.email);
    const answer = await postForm(`/reset-password?token=${encodeURIComponent(token)}`, {
      newPassword: "a brand new password",
      confirmPassword: "a brand new password",
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/sign-in");
    const signIn = await postForm("/sign-in", { email: nina.email, password: "a brand new password" });
    expect(signIn.headers.location).toBe("/user-home");
  });

  it("shows what the app shows for a link that does not work, and never the passwords", async () => {
    const page = await postForm("/reset-password?token=not-a-token", {
      newPassword: "a brand new password",
      confirmPassword: "a brand new password",
    });
    expect(page.statusCode).toBe(400);
    expect(textsWithRole(page.body, "alert")).toEqual(["This reset link is invalid or has expired."]);
    expect(page.body).toContain('href="/forgot-password"');
    expect(page.body).not.toContain("a brand new password");
  });

  it("says the passwords differ, in the app's words, and changes nothing", async () => {
    const olga = await insertUser(t.database.db);
    const token = await mailedToken(olga.email);
    const page = await postForm(`/reset-password?token=${encodeURIComponent(token)}`, {
      newPassword: "a brand new password",
      confirmPassword: "a brand new passwort",
    });
    expect(page.statusCode).toBe(400);
    expect(page.body).toMatch(/<p id="[^"]*-error"[^>]*>Passwords do not match<\/p>/);
    expect((await postForm("/sign-in", { email: olga.email, password: testPassword })).statusCode).toBe(303);
  });
});

describe("registering an administrator without the app's code", () => {
  it("refuses a wrong key with the app's words, creates nothing, and never writes a key back", async () => {
    const email = newEmail("mallory");
    const page = await postForm("/admin-signup", {
      name: "Mallory",
      email,
      password: "admin password",
      adminKey: "a-guessed-key",
    });
    expect(page.statusCode).toBe(403);
    expect(textsWithRole(page.body, "alert")).toEqual(["Invalid admin key. Access denied."]);
    expect(page.body).toContain('value="Mallory"');
    expect(page.body).not.toContain("a-guessed-key");
    expect(page.body).not.toContain("admin password");
    expect(page.headers["set-cookie"]).toBeUndefined();
    expect(await usersWithEmail(email)).toHaveLength(0);
  });

  it("creates the administrator with the right key and opens the admin home, signed in", async () => {
    const email = newEmail("ada");
    const answer = await postForm("/admin-signup", {
      name: "Ada Admin",
      email,
      password: "admin password",
      adminKey: testAdminKey,
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/admin-home");
    const me = await request(t.app, {
      method: "GET",
      url: "/api/me",
      cookie: sessionCookieOf(answer.headers["set-cookie"]),
    });
    expect(me.json()).toMatchObject({ email, role: "admin" });
  });
});

describe("choosing a role without the app's code", () => {
  it("sets the role and goes home", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, null);
    const answer = await postForm("/role-selection", { role: "technician" }, cookie);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/technician-home");
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.role).toBe("technician");
  });

  it("sends a signed-out browser to sign in first, and changes nothing", async () => {
    const answer = await postForm("/role-selection", { role: "technician" });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/sign-in?notice=sign-in-first");
  });

  it("sends a person whose role was set meanwhile home, the role unchanged", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const answer = await postForm("/role-selection", { role: "technician" }, cookie);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/user-home");
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.role).toBe("user");
  });
});

describe("without the page renderer (not built)", () => {
  it("answers with a plain page that says what is wrong, never a white page", async () => {
    const plain = await createTestApp({ clientDir: drawing.renderer.clientDir });
    try {
      const post = (url: string, fields: Record<string, string>) =>
        request(plain.app, {
          method: "POST",
          url,
          payload: new URLSearchParams(fields).toString(),
          headers: { "content-type": "application/x-www-form-urlencoded" },
        });
      const refused = await post("/forgot-password", { email: "nope" });
      expect(refused.statusCode).toBe(400);
      expect(textsWithRole(refused.body, "alert")).toEqual(["Enter a valid e-mail address"]);
      const sent = await post("/forgot-password", { email: newEmail("plain") });
      expect(sent.statusCode).toBe(200);
      expect(textsWithRole(sent.body, "status")).toEqual(["Reset email was sent successfully."]);
    } finally {
      await plain.close();
    }
  });
});

describe("a page the server does not draw says what it needs", () => {
  it("carries a noscript in its root linking to what works without code; a drawn page does not", async () => {
    const page = await getPage("/Knowledge-base");
    expect(page.statusCode).toBe(200);
    const root = /<div id="root">\s*<noscript>([\s\S]*?)<\/noscript>\s*<\/div>/.exec(page.body)?.[1];
    expect(root).toContain("This page needs JavaScript");
    for (const href of ["/sign-in", "/", "/tickets"]) expect(root).toContain(`href="${href}"`);

    // A form's answer drawn into the same index.html replaces it.
    const answer = await postForm("/forgot-password", { email: "nope" });
    expect(answer.body).toContain('<div id="root" data-drawn>');
    expect(answer.body).not.toContain("<noscript>");
  });

  it("draws into a root that holds only that noscript, and into an empty one", () => {
    const page = { title: null, markup: "<main>Drawn</main>", state: "{}", locale: "de" };
    for (const root of [
      '<div id="root" data-entry="/a.js"><noscript>\n  <p>This page needs JavaScript</p>\n</noscript></div>',
      '<div id="root" data-entry="/a.js"></div>',
    ]) {
      const html = intoTemplate(
        `<html lang="en"><body>${root}<script src="/b.js"></script></body></html>`,
        page,
      );
      expect(html).toContain('<div id="root" data-drawn data-entry="/a.js"><main>Drawn</main></div>');
      expect(html).not.toContain("noscript");
      expect(html).toContain('<html lang="de"');
    }
  });
});
