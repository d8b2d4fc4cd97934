import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mailOutbox, notificationSettings } from "#server/db/schema/index.ts";
import { createMailDispatcher } from "#server/mail/mail-dispatcher.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { insertTicket, insertUser, signIn } from "#server/test/factories.ts";
import { decodeMail, startSmtpServer } from "#server/test/smtp.ts";
import { createTestApp, request, type TestApp, testBaseURL } from "#server/test/test-app.ts";
import type { NotificationType } from "#shared/notifications/notification.schemas.ts";
import { queueNotificationMails } from "./notification-mail.service.ts";

const secret = "test-secret-test-secret-test-secret-0123";
const config = { baseURL: testBaseURL, secret };
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let smtpMailer: ReturnType<typeof createMailer>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  smtpMailer = createMailer({
    smtpUrl: smtp.url,
    outboxDir: path.join(mkdtempSync(path.join(os.tmpdir(), "helpdesk-outbox-")), "outbox"),
    from: "Helpdesk <helpdesk@test.local>",
    log: () => {},
  });
  // The app signs unsubscribe links with its auth secret; the queue must use the same one. It gets the
  // same SMTP server, so that its own dispatcher's timer sending a mail first changes nothing here.
  t = await createTestApp({ authSecret: secret, mailer: smtpMailer });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  await t.database.reset();
  smtp.received.length = 0;
});

let nextId = 1;
const notification = (userId: string, type: NotificationType, ticketId: string | null = null) => ({
  id: BigInt(nextId++),
  userId,
  type,
  message: `Something happened (${type})`,
  ticketId,
});

const queued = () => t.database.db.select().from(mailOutbox).orderBy(mailOutbox.id);

describe("queueNotificationMails", () => {
  it("queues a mail for each Active person who chose the type, with the defaults for people with no choice", async () => {
    const db = t.database.db;
    const byDefault = await insertUser(db, { name: "Dee Fault" });
    const optedOut = await insertUser(db);
    await db.insert(notificationSettings).values({ userId: optedOut.id, emailTypes: ["ticket_status"] });
    const technician = await insertUser(db, { role: "technician" });
    const optedIn = await insertUser(db, { role: "technician" });
    await db.insert(notificationSettings).values({ userId: optedIn.id, emailTypes: ["new_ticket"] });
    const inactive = await insertUser(db, { status: "Inactive" });
    const ticket = await insertTicket(db, { createdBy: byDefault.id, title: "Printer jams" });

    const count = await db.transaction((tx) =>
      queueNotificationMails(
        tx,
        [
          notification(byDefault.id, "ticket_comment", ticket.id),
          notification(optedOut.id, "ticket_comment", ticket.id),
          notification(optedOut.id, "ticket_status", ticket.id),
          // new_ticket is off by default, on only for whoever chose it.
          notification(technician.id, "new_ticket", ticket.id),
          notification(optedIn.id, "new_ticket", ticket.id),
          notification(inactive.id, "ticket_comment", ticket.id),
          notification(byDefault.id, "test"),
        ],
        config,
      ),
    );

    const rows = await queued();
    expect(count).toBe(3);
    expect(rows.map((r) => [r.toAddress, r.subject])).toEqual([
      [byDefault.email, `[Helpdesk] New comment on [${ticket.id}]: Printer jams`],
      [optedOut.email, `[Helpdesk] Status changed on [${ticket.id}]: Printer jams`],
      [optedIn.email, `[Helpdesk] New ticket [${ticket.id}]: Printer jams`],
    ]);
    expect(rows.every((r) => r.status === "pending" && r.attempts === 0 && r.kind === "notification")).toBe(
      true,
    );
    expect(rows[0]!.text).toContain("Hello Dee Fault,");
    expect(rows[0]!.text).toContain("Something happened (ticket_comment)");
    expect(rows[0]!.link).toBe(`${testBaseURL}/tickets/${ticket.id}`);
  });

  it("escapes the message in the HTML part", async () => {
    const db = t.database.db;
    const person = await insertUser(db, { name: "<b>Bold</b>" });
    await db.transaction((tx) =>
      queueNotificationMails(
        tx,
        [{ ...notification(person.id, "ticket_status"), message: `Status is <script>alert(1)</script>` }],
        config,
      ),
    );
    const [row] = await queued();
    expect(row!.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(row!.html).toContain("&lt;b&gt;Bold&lt;/b&gt;");
    expect(row!.html).not.toContain("<script>");
    // Without a ticket the mail points to the notifications page.
    expect(row!.link).toBe(`${testBaseURL}/notifications`);
  });

  it("writes nothing when the transaction rolls back", async () => {
    const db = t.database.db;
    const person = await insertUser(db);
    await expect(
      db.transaction(async (tx) => {
        await queueNotificationMails(tx, [notification(person.id, "ticket_status")], config);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await queued()).toHaveLength(0);
  });
});

describe("notification mail, end to end", () => {
  it("delivers over SMTP with the ticket link and an unsubscribe link that turns exactly that type off", async () => {
    const db = t.database.db;
    const rita = await insertUser(db, { name: "Rita" });
    const other = await insertUser(db);
    const ticket = await insertTicket(db, { createdBy: rita.id });
    await db.transaction((tx) =>
      queueNotificationMails(
        tx,
        [
          notification(rita.id, "ticket_comment", ticket.id),
          notification(other.id, "ticket_comment", ticket.id),
        ],
        config,
      ),
    );
    const dispatcher = createMailDispatcher({ db, mailer: smtpMailer, log: quiet });
    await dispatcher.drain();

    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual([rita.email, other.email].sort());
    const mail = decodeMail(smtp.received.find((m) => m.to[0] === rita.email)!.raw);
    expect(mail).toContain(`${testBaseURL}/tickets/${ticket.id}`);
    expect(mail).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const header = mail.replace(/\r?\n[ \t]+/g, " ").match(/^List-Unsubscribe: <([^>]+)>$/m)?.[1];
    expect(header).toMatch(new RegExp(`^${testBaseURL}/api/notifications/unsubscribe\\?token=`));
    const pageLink = mail.match(/http:\/\/localhost:3000\/unsubscribe\?token=([^\s"<]+)/)?.[1];
    expect(pageLink).toBeDefined();
    expect(await db.select().from(mailOutbox).where(eq(mailOutbox.status, "sent"))).toHaveLength(2);

    // The /unsubscribe page posts the token from its link; nobody is signed in.
    const response = await request(t.app, {
      method: "POST",
      url: "/api/notifications/unsubscribe",
      payload: { token: decodeURIComponent(pageLink!) },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ email: rita.email, type: "ticket_comment" });
    const settings = await db.select().from(notificationSettings);
    expect(settings).toEqual([
      expect.objectContaining({
        userId: rita.id,
        emailTypes: [
          "ticket_status",
          "ticket_assigned",
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
        ],
      }),
    ]);

    // The next comment is no longer mailed to Rita; the other person still gets theirs.
    await db.transaction((tx) =>
      queueNotificationMails(
        tx,
        [
          notification(rita.id, "ticket_comment", ticket.id),
          notification(other.id, "ticket_comment", ticket.id),
        ],
        config,
      ),
    );
    expect((await queued()).slice(2).map((r) => r.toAddress)).toEqual([other.email]);
    await dispatcher.stop();
  });

  it("mails a ticket's creator when a technician comments, through the one write path, and not the author", async () => {
    const db = t.database.db;
    const rita = await insertUser(db, { name: "Rita" });
    const tech = await insertUser(db, { role: "technician", name: "Tom Tech" });
    const ticket = await insertTicket(db, { createdBy: rita.id, assignedTo: tech.id, status: "In Progress" });
    const response = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.id}/comments`,
      cookie: await signIn(t.app, tech.email),
      payload: { message: "Please restart the printer and try again." },
    });
    expect(response.statusCode).toBe(201);

    // The commit wakes the app's own dispatcher, which sends at once.
    for (let i = 0; i < 50 && smtp.received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(smtp.received.map((m) => m.to[0])).toEqual([rita.email]);
    const mail = decodeMail(smtp.received[0]!.raw);
    // The subject keeps the id (people and mail programs thread by it) beside the title; the text names the
    // ticket by its title.
    expect(mail).toMatch(
      new RegExp(
        `Subject: \\[Helpdesk\\] New comment on \\[${ticket.id}\\]: Printer on\\s+floor\\s+2\\s+jams`,
      ),
    );
    expect(mail).toContain(
      'Tom Tech commented on ticket "Printer on floor 2 jams": Please restart the printer and try again.',
    );
    expect(mail).toContain(`${testBaseURL}/tickets/${ticket.id}`);
  });
});
