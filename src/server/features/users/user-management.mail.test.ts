import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, userChanges, users, verifications } from "#server/db/schema/index.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { insertUser, signedInAs, testPassword } from "#server/test/factories.ts";
import { decodeMail, startSmtpServer } from "#server/test/smtp.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { resetEmailSent } from "#shared/users/user-management.schemas.ts";

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let smtp: Smtp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    mailer: createMailer({
      smtpUrl: smtp.url,
      outboxDir: "/nonexistent",
      from: "Helpdesk <hd@test.local>",
      log: () => {},
    }),
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const db = () => t.database.db;

async function waitForMailTo(email: string) {
  return decodeMail((await smtp.waitForMailTo(email)).at(-1)!.raw);
}

/** Follows the mailed link as a browser would, to /reset-password?token=…, and returns the token. */
async function tokenFromMail(text: string) {
  const link = text.match(
    /http:\/\/localhost:3000\/api\/auth\/reset-password\/[\w-]+\?callbackURL=[^\s"<]+/,
  )?.[0];
  expect(link).toBeTruthy();
  const url = new URL(link!);
  const response = await request(t.app, { method: "GET", url: `${url.pathname}${url.search}` });
  expect(response.statusCode).toBe(302);
  const location = new URL(String(response.headers.location), "http://localhost:3000");
  expect(location.pathname).toBe("/reset-password");
  return location.searchParams.get("token")!;
}

const setPassword = (token: string, newPassword: string) =>
  request(t.app, { method: "POST", url: "/api/auth/reset-password", payload: { token, newPassword } });
const signInStatus = async (email: string, password: string) =>
  (await request(t.app, { method: "POST", url: "/api/auth/sign-in/email", payload: { email, password } }))
    .statusCode;
const invite = (cookie: string, payload: Record<string, unknown>) =>
  request(t.app, { method: "POST", url: "/api/admin/users", cookie, payload });

describe("Add user (invitation)", () => {
  it("creates the person without a password and mails an invitation from which they set one and sign in", async () => {
    const { user: admin, cookie } = await signedInAs(t.app, db(), "admin");
    const response = await invite(cookie, {
      name: "Nina New",
      email: "Nina.New@Example.test",
      role: "technician",
      department: "Network",
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      name: "Nina New",
      email: "nina.new@example.test",
      role: "technician",
      department: "Network",
      status: "Active",
    });
    const nina = response.json().id as string;
    // No password exists until she chooses one: no credential account at all.
    expect(await db().select().from(accounts).where(eq(accounts.userId, nina))).toEqual([]);
    expect(await signInStatus("nina.new@example.test", testPassword)).toBe(401);

    const mail = await waitForMailTo("nina.new@example.test");
    expect(mail).toContain("Subject: You are invited to Helpdesk");
    expect(mail).toContain(`${admin.name} has created a Helpdesk account for you.`);
    expect(mail).not.toContain("Someone asked to reset");
    const token = await tokenFromMail(mail);
    expect((await setPassword(token, "nina's own password")).statusCode).toBe(200);
    expect(await signInStatus("nina.new@example.test", "nina's own password")).toBe(200);
    // The link works once.
    expect((await setPassword(token, "another password")).statusCode).toBe(400);

    const [change] = await db().select().from(userChanges).where(eq(userChanges.userId, nina));
    expect(change).toMatchObject({ action: "invited", actorId: admin.id });
    expect(change!.changes).toContainEqual({ field: "role", from: null, to: "technician" });
  });

  it("refuses an address that already has an account, and changes nothing", async () => {
    const existing = await insertUser(db(), { name: "Already Here" });
    const { cookie } = await signedInAs(t.app, db(), "admin");
    const mailsBefore = smtp.received.length;
    const response = await invite(cookie, {
      name: "Impostor",
      email: existing.email.toUpperCase(),
      role: "admin",
      department: "IT",
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe("A person with this e-mail address already exists.");
    const [row] = await db().select().from(users).where(eq(users.id, existing.id));
    expect(row).toMatchObject({ name: "Already Here", role: "user" });
    expect(smtp.received.length).toBe(mailsBefore);
  });

  it("creates nobody when the invitation cannot be mailed", async () => {
    const broken = await createTestApp({
      mailer: createMailer({
        smtpUrl: "smtp://127.0.0.1:9",
        outboxDir: "/nonexistent",
        from: "Helpdesk <hd@test.local>",
        log: () => {},
      }),
    });
    try {
      const { cookie } = await signedInAs(broken.app, broken.database.db, "admin");
      const response = await request(broken.app, {
        method: "POST",
        url: "/api/admin/users",
        cookie,
        payload: { name: "Lost Letter", email: "lost@example.test", role: "user", department: "IT" },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json().message).toBe(
        "The invitation e-mail could not be sent, so no account was created. Please try again later.",
      );
      const bdb = broken.database.db;
      expect(await bdb.select().from(users).where(eq(users.email, "lost@example.test"))).toEqual([]);
      expect(await bdb.select().from(verifications)).toEqual([]);
      expect(await bdb.select().from(userChanges)).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});

describe("Reset password", () => {
  it("mails the person a reset link, says so with the spec's text, and records it", async () => {
    const { user: admin, cookie } = await signedInAs(t.app, db(), "admin");
    const person = await insertUser(db(), { name: "Rob Reset" });
    const response = await request(t.app, {
      method: "POST",
      url: `/api/admin/users/${person.id}/password-reset`,
      cookie,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: resetEmailSent });
    expect(resetEmailSent).toBe("Reset email was sent successfully");

    const mail = await waitForMailTo(person.email);
    expect(mail).toContain("Subject: Reset your Helpdesk password");
    expect(mail).toContain("An administrator asked for a password reset");
    // Until the link is used, the old password still works.
    expect(await signInStatus(person.email, testPassword)).toBe(200);
    const token = await tokenFromMail(mail);
    expect((await setPassword(token, "rob's new password")).statusCode).toBe(200);
    expect(await signInStatus(person.email, testPassword)).toBe(401);
    expect(await signInStatus(person.email, "rob's new password")).toBe(200);

    const history = await request(t.app, {
      method: "GET",
      url: `/api/admin/users/${person.id}/history`,
      cookie,
    });
    expect(history.json().items).toEqual([
      expect.objectContaining({ action: "password_reset_sent", actorName: admin.name, changes: [] }),
    ]);
  });
});
