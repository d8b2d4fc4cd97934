import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { inboundMessages } from "#server/db/schema/index.ts";
import { insertUser, signIn } from "#server/test/factories.ts";
import { startInboundMailApp } from "#server/test/inbound-mail-app.ts";
import { startSmtpServer } from "#server/test/smtp.ts";
import { request } from "#server/test/test-app.ts";
import type { InboundMessagePage } from "#shared/inbound-mail/inbound-message.schemas.ts";

// Decision 083: administrators read what became of each received message, accepted or refused, and why.

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: Awaited<ReturnType<typeof startInboundMailApp>>;
const db = () => app.t.database.db;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startInboundMailApp(smtp);
});
afterAll(async () => {
  await app.t.close();
  await smtp.close();
});
beforeEach(() => app.t.database.reset());

async function page(cookie: string, query = "") {
  const response = await request(app.t.app, {
    method: "GET",
    url: `/api/admin/inbound-mail${query}`,
    cookie,
  });
  return { status: response.statusCode, body: response.json() as InboundMessagePage };
}

describe("received e-mail, for administrators", () => {
  it("lists each message newest first with its outcome and why, filtered by accepted, refused or ignored", async () => {
    const user = await insertUser(db());
    const admin = await insertUser(db(), { role: "admin" });
    await app.send({ from: user.email, subject: "Printer jams", text: "Since Monday." });
    await app.send({ from: "stranger@elsewhere.test", subject: "Hello", text: "Hi" }).catch(() => {});
    await app.send({
      from: user.email,
      subject: "Out of office",
      headers: { "Auto-Submitted": "auto-replied" },
    });
    const cookie = await signIn(app.t.app, admin.email);

    const all = await page(cookie);
    expect(all.status).toBe(200);
    expect(all.body.items.map((m) => [m.subject, m.outcome, m.refusedInAnswer])).toEqual([
      ["Out of office", "ignored_auto_reply", false],
      ["Hello", "refused", true],
      ["Printer jams", "ticket_created", false],
    ]);
    expect(all.body.items[1]!.detail).toContain("has no Helpdesk account");
    expect(all.body.items[2]!.ticketId).toMatch(/^TKT/);

    expect((await page(cookie, "?outcome=accepted")).body.items.map((m) => m.subject)).toEqual([
      "Printer jams",
    ]);
    expect((await page(cookie, "?outcome=refused")).body.items.map((m) => m.subject)).toEqual(["Hello"]);
    expect((await page(cookie, "?outcome=ignored")).body.items.map((m) => m.subject)).toEqual([
      "Out of office",
    ]);
    expect((await page(cookie, "?outcome=lost")).status).toBe(400);
    expect((await page(cookie, "?cursor=nonsense")).status).toBe(400);
  });

  it("pages through many messages without repeating or skipping one", async () => {
    const user = await insertUser(db());
    const admin = await insertUser(db(), { role: "admin" });
    // Many arrive within the same millisecond: the id breaks the tie.
    const receivedAt = new Date();
    await db()
      .insert(inboundMessages)
      .values(
        Array.from({ length: 53 }, (_, i) => ({
          messageId: `<auto.${i}@elsewhere.test>`,
          fromAddress: user.email,
          toAddress: "helpdesk@help.test",
          subject: `Auto ${i}`,
          outcome: "ignored_auto_reply" as const,
          receivedAt: i % 2 === 0 ? receivedAt : new Date(receivedAt.getTime() - i),
        })),
      );
    const cookie = await signIn(app.t.app, admin.email);
    const first = await page(cookie);
    expect(first.body.items).toHaveLength(50);
    const second = await page(cookie, `?cursor=${encodeURIComponent(first.body.nextCursor!)}`);
    expect(second.body.nextCursor).toBeNull();
    const subjects = [...first.body.items, ...second.body.items].map((m) => m.subject);
    expect(new Set(subjects).size).toBe(53);
  });

  it("refuses everyone but administrators", async () => {
    const technician = await insertUser(db(), { role: "technician" });
    const { status, body } = await page(await signIn(app.t.app, technician.email));
    expect(status).toBe(403);
    expect(body).toMatchObject({ message: "Only administrators see the received e-mail" });
  });
});
