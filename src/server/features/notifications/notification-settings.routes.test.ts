import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notificationSettings } from "#server/db/schema/index.ts";
import { insertUser, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { createUnsubscribeToken } from "./unsubscribe-token.ts";

const secret = "test-secret-test-secret-test-secret-0123";
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ authSecret: secret });
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const url = "/api/me/notification-settings";
const storedSettings = () => t.database.db.select().from(notificationSettings);

describe("GET/PUT /api/me/notification-settings", () => {
  it("answers the defaults for someone who never chose: a user's without what only staff receive", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const response = await request(t.app, { method: "GET", url, cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      emailTypes: [
        "ticket_comment",
        "ticket_status",
        "ticket_assigned",
        "ticket_feedback",
        "ticket_edited",
        "ticket_auto_closed",
        "ticket_auto_resolved",
      ],
      soundsMuted: false,
    });
  });

  it("saves the choices and answers them back", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "technician");
    const payload = { emailTypes: ["ticket_comment", "new_ticket"], soundsMuted: true };
    const response = await request(t.app, { method: "PUT", url, cookie, payload });
    expect(response.statusCode).toBe(200);
    // Answered in the one canonical order, whatever order was sent.
    expect(response.json()).toEqual({ emailTypes: ["new_ticket", "ticket_comment"], soundsMuted: true });
    expect(await storedSettings()).toEqual([
      expect.objectContaining({
        userId: user.id,
        emailTypes: ["new_ticket", "ticket_comment"],
        soundsMuted: true,
      }),
    ]);
    const again = await request(t.app, { method: "GET", url, cookie });
    expect(again.json()).toEqual({ emailTypes: ["new_ticket", "ticket_comment"], soundsMuted: true });
  });

  it("saves an empty choice: no e-mail at all", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const response = await request(t.app, {
      method: "PUT",
      url,
      cookie,
      payload: { emailTypes: [], soundsMuted: false },
    });
    expect(response.statusCode).toBe(200);
    expect((await request(t.app, { method: "GET", url, cookie })).json()).toEqual({
      emailTypes: [],
      soundsMuted: false,
    });
  });

  it("refuses an unknown type with 400 and stores nothing", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    for (const emailTypes of [["ticket_comment", "spam"], ["test"]]) {
      const response = await request(t.app, {
        method: "PUT",
        url,
        cookie,
        payload: { emailTypes, soundsMuted: false },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed" });
    }
    expect(await storedSettings()).toHaveLength(0);
  });

  it("refuses new-ticket e-mails for someone who is not a technician", async () => {
    for (const role of ["user", "admin"] as const) {
      const { cookie } = await signedInAs(t.app, t.database.db, role);
      const response = await request(t.app, {
        method: "PUT",
        url,
        cookie,
        payload: { emailTypes: ["new_ticket"], soundsMuted: false },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        code: "rule_violation",
        message: "New tickets (technicians): only technicians receive these notifications.",
      });
    }
    expect(await storedSettings()).toHaveLength(0);
  });

  it("does not show a former technician's new-ticket choice, so that the form stays saveable", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    await t.database.db
      .insert(notificationSettings)
      .values({ userId: user.id, emailTypes: ["new_ticket", "ticket_status"] });
    const response = await request(t.app, { method: "GET", url, cookie });
    expect(response.json()).toEqual({ emailTypes: ["ticket_status"], soundsMuted: false });
    const saved = await request(t.app, { method: "PUT", url, cookie, payload: response.json() });
    expect(saved.statusCode).toBe(200);
  });

  it("answers 401 when nobody is signed in", async () => {
    expect((await request(t.app, { method: "GET", url })).statusCode).toBe(401);
    const put = await request(t.app, { method: "PUT", url, payload: { emailTypes: [], soundsMuted: false } });
    expect(put.statusCode).toBe(401);
    expect(put.json()).toMatchObject({ code: "unauthenticated" });
  });
});

describe("POST /api/notifications/unsubscribe", () => {
  const unsubscribe = "/api/notifications/unsubscribe";

  it("turns exactly that type off for exactly that person, signed out, and keeps other choices", async () => {
    const db = t.database.db;
    const rita = await insertUser(db);
    const sam = await insertUser(db);
    await db
      .insert(notificationSettings)
      .values({ userId: rita.id, emailTypes: ["ticket_status", "ticket_comment"], soundsMuted: true });
    const response = await request(t.app, {
      method: "POST",
      url: unsubscribe,
      payload: { token: createUnsubscribeToken(secret, rita.id, "ticket_status") },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ email: rita.email, type: "ticket_status" });
    const rows = await storedSettings();
    expect(rows).toEqual([
      expect.objectContaining({ userId: rita.id, emailTypes: ["ticket_comment"], soundsMuted: true }),
    ]);
    expect(rows.find((r) => r.userId === sam.id)).toBeUndefined();

    // Following the link again is harmless.
    const again = await request(t.app, {
      method: "POST",
      url: unsubscribe,
      payload: { token: createUnsubscribeToken(secret, rita.id, "ticket_status") },
    });
    expect(again.statusCode).toBe(200);
    expect((await storedSettings())[0]!.emailTypes).toEqual(["ticket_comment"]);
  });

  it("refuses a tampered, foreign or malformed token with 400 and changes nothing", async () => {
    const db = t.database.db;
    const rita = await insertUser(db);
    const sam = await insertUser(db);
    const good = createUnsubscribeToken(secret, rita.id, "ticket_status");
    const [v, , type, signature] = good.split(".");
    const bad = [
      // Someone else's id with Rita's signature.
      `${v}.${Buffer.from(sam.id).toString("base64url")}.${type}.${signature}`,
      // Another type with the status signature.
      good.replace(".ticket_status.", ".ticket_comment."),
      // One character of the signature changed (the first: the last one carries ignored padding bits).
      `${v}.${Buffer.from(rita.id).toString("base64url")}.${type}.${signature!.startsWith("A") ? "B" : "A"}${signature!.slice(1)}`,
      createUnsubscribeToken("another-secret-another-secret-another-0", rita.id, "ticket_status"),
      "not-a-token",
      `${v}.${Buffer.from(rita.id).toString("base64url")}.${type}`,
    ];
    for (const token of bad) {
      const response = await request(t.app, { method: "POST", url: unsubscribe, payload: { token } });
      expect(response.statusCode, token).toBe(400);
      expect(response.json()).toEqual({
        code: "validation_failed",
        message: "This unsubscribe link is not valid.",
      });
    }
    const empty = await request(t.app, { method: "POST", url: unsubscribe, payload: { token: "" } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain("The unsubscribe link is incomplete");
    expect(await storedSettings()).toHaveLength(0);
  });

  it("refuses the link of a deleted account", async () => {
    const token = createUnsubscribeToken(secret, "usr_gone", "ticket_status");
    const response = await request(t.app, { method: "POST", url: unsubscribe, payload: { token } });
    expect(response.statusCode).toBe(400);
    expect(await storedSettings()).toHaveLength(0);
  });

  it("accepts the RFC 8058 one-click POST from a mail provider: form body, no Origin, no cookie", async () => {
    const rita = await insertUser(t.database.db);
    const token = createUnsubscribeToken(secret, rita.id, "ticket_assigned");
    const response = await t.app.inject({
      method: "POST",
      url: `${unsubscribe}?token=${encodeURIComponent(token)}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ email: rita.email, type: "ticket_assigned" });
    expect((await storedSettings())[0]!.emailTypes).toEqual([
      "ticket_comment",
      "ticket_status",
      "ticket_feedback",
      "internal_note",
      "mentioned",
      "ticket_edited",
      "sla_warning",
      "sla_breached",
      "ticket_auto_closed",
      "ticket_hold_lifted",
      "ticket_auto_resolved",
      "rule_notice",
      "webhook_disabled",
    ]);
  });

  it("refuses a form POST that is not a one-click unsubscribe", async () => {
    const rita = await insertUser(t.database.db);
    const token = createUnsubscribeToken(secret, rita.id, "ticket_assigned");
    const response = await t.app.inject({
      method: "POST",
      url: `${unsubscribe}?token=${encodeURIComponent(token)}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "something=else",
    });
    expect(response.statusCode).toBe(400);
    expect(await storedSettings()).toHaveLength(0);
  });

  it("sends someone who opens the header's address in a browser to the /unsubscribe page, changing nothing", async () => {
    const rita = await insertUser(t.database.db);
    const token = createUnsubscribeToken(secret, rita.id, "ticket_assigned");
    const response = await t.app.inject({
      method: "GET",
      url: `${unsubscribe}?token=${encodeURIComponent(token)}`,
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(await storedSettings()).toHaveLength(0);
  });
});
