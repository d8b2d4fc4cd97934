import { desc, eq } from "drizzle-orm";
import { simpleParser } from "mailparser";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import {
  attachments,
  automationRules,
  inboundMessages,
  mailOutbox,
  notifications,
  routingRules,
  teamAudience,
  ticketComments,
  tickets,
  users,
} from "#server/db/schema/index.ts";
import { insertTeam, insertTicket, insertUser, signIn } from "#server/test/factories.ts";
import { makePng } from "#server/test/files.ts";
import {
  helpdeskAddress,
  inboundMaxMessageBytes,
  inboundSecret,
  startInboundMailApp,
} from "#server/test/inbound-mail-app.ts";
import { startSmtpServer } from "#server/test/smtp.ts";
import { request } from "#server/test/test-app.ts";
import type { TestDatabaseOptions } from "#server/test/test-database.ts";
import type { InboundMailSettings } from "./inbound-mail.service.ts";
import { replyAddress } from "./reply-address.ts";

const secret = inboundSecret;
const helpdesk = helpdeskAddress;
const maxMessageBytes = inboundMaxMessageBytes;

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

const startApp = (settings: Partial<InboundMailSettings> = {}, databaseOptions: TestDatabaseOptions = {}) =>
  startInboundMailApp(smtp, settings, databaseOptions);

async function waitForMailTo(address: string, count = 1) {
  const mails = await smtp.waitForMailTo(address, count);
  return simpleParser(mails[count - 1]!.raw);
}

let app: Awaited<ReturnType<typeof startApp>>;
const db = () => app.t.database.db;
const ticketsBy = (userId: string) => db().select().from(tickets).where(eq(tickets.createdBy, userId));
const outcomes = () => db().select().from(inboundMessages).orderBy(desc(inboundMessages.id));
/** Mail the app queued to send (answers included): written before the SMTP answer, so no waiting. */
const queuedMail = () => db().select().from(mailOutbox);

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startApp();
});
afterAll(async () => {
  await app.t.close();
  await smtp.close();
});
beforeEach(async () => {
  await app.t.database.reset();
  smtp.received.length = 0;
});

describe("e-mail to ticket", () => {
  it("raises a ticket from an active user's e-mail: subject, text and allowed attachments kept", async () => {
    const user = await insertUser(db(), { department: "Finance" });
    await app.send({
      from: `Ann User <${user.email}>`,
      subject: "Re:  Printer on floor 3\n jams",
      text: "It jams on every page.\nSince this morning.",
      attachments: [
        { filename: "jam.png", content: makePng(8, 8) },
        { filename: "fix.exe", content: Buffer.from("MZ not really a program") },
      ],
    });

    const [ticket] = await ticketsBy(user.id);
    expect(ticket).toMatchObject({
      title: "Printer on floor 3 jams",
      category: "Other",
      priority: "Low",
      department: "Finance",
      status: "Open",
    });
    expect(ticket!.description).toContain("It jams on every page.\nSince this morning.");
    expect(ticket!.description).toMatch(/Not attached from the e-mail: fix\.exe/);
    const files = await db().select().from(attachments).where(eq(attachments.ticketId, ticket!.id));
    expect(files.map((f) => [f.fileName, f.status])).toEqual([["jam.png", "linked"]]);
    const [record] = await outcomes();
    expect(record).toMatchObject({
      outcome: "ticket_created",
      ticketId: ticket!.id,
      fromAddress: user.email,
    });
  });

  it("puts an e-mailed ticket in the team a routing rule names, and tells that team (decision 069)", async () => {
    const user = await insertUser(db(), { department: "Finance" });
    const member = await insertUser(db(), { role: "technician" });
    const team = await insertTeam(db(), { name: "Network", memberIds: [member.id] });
    await db()
      .insert(routingRules)
      .values({ id: "rr_00000000000000e1", position: 0, titleWords: ["vpn"], teamId: team.id });
    await app.send({ from: user.email, subject: "VPN drops every hour", text: "Since Monday." });
    const [ticket] = await ticketsBy(user.id);
    expect(ticket?.teamId).toBe(team.id);
    const rows = await db().select().from(notifications).where(eq(notifications.ticketId, ticket!.id));
    expect(rows.map((row) => [row.type, row.audience])).toEqual([["new_ticket", teamAudience(team.id)]]);
  });

  it("runs the automation rules on an e-mailed ticket, as on one raised in the app (decision 076)", async () => {
    const user = await insertUser(db(), { department: "Finance" });
    await db()
      .insert(automationRules)
      .values({
        id: "ar_00000000000000e1",
        name: "VPN is urgent",
        position: 0,
        enabled: true,
        trigger: "created",
        conditions: [{ field: "words", in: "title", value: ["vpn"] }],
        actions: { priority: "High", addTags: ["vpn"] },
      });
    await app.send({ from: user.email, subject: "VPN drops every hour", text: "Since Monday." });
    const [ticket] = await ticketsBy(user.id);
    expect(ticket).toMatchObject({ priority: "High", tags: ["vpn"] });
  });

  it("turns an HTML-only e-mail into a plain-text description", async () => {
    const user = await insertUser(db());
    await app.send({
      from: user.email,
      subject: "VPN",
      html: "<p>The <b>VPN</b> drops</p><ul><li>every hour</li></ul><script>alert(1)</script>",
    });
    const [ticket] = await ticketsBy(user.id);
    expect(ticket!.description).toContain("The VPN drops");
    expect(ticket!.description).toContain("every hour");
    expect(ticket!.description).not.toContain("<");
  });

  it("adds a reply to a notification's Reply-To address as a comment, without the quoted mail", async () => {
    const user = await insertUser(db());
    const technician = await insertUser(db(), { role: "technician" });
    const ticket = await insertTicket(db(), {
      createdBy: user.id,
      assignedTo: technician.id,
      status: "In Progress",
    });
    const cookie = await signIn(app.t.app, technician.email);
    const commented = await request(app.t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.id}/comments`,
      cookie,
      payload: { message: "Did you try turning it off and on?" },
    });
    expect(commented.statusCode).toBe(201);

    const notification = await waitForMailTo(user.email);
    const replyTo = notification.replyTo?.value[0]?.address;
    expect(replyTo).toMatch(new RegExp(`^reply\\+${ticket.id}\\.${user.id}\\.[0-9a-f]{24}@help\\.test$`));
    expect(notification.headers.get("auto-submitted")).toBe("auto-generated");
    expect(notification.references).toBe(`<ticket.${ticket.id}@help.test>`);

    await app.send({
      from: user.email,
      to: replyTo,
      subject: `Re: ${notification.subject}`,
      inReplyTo: notification.messageId,
      text: `Yes, twice. Still broken.\n\nOn Mon, 23 Nov 2026 at 10:00, Helpdesk <helpdesk@test.local> wrote:\n> ${notification.text?.split("\n").join("\n> ")}`,
    });

    const comments = await db().select().from(ticketComments).where(eq(ticketComments.ticketId, ticket.id));
    expect(comments.map((c) => [c.authorId, c.message, c.isInternal])).toEqual([
      [technician.id, "Did you try turning it off and on?", false],
      [user.id, "Yes, twice. Still broken.", false],
    ]);
    // Through the one write path: the technician hears of it like of any comment.
    await waitForMailTo(technician.email);
    expect((await outcomes())[0]).toMatchObject({ outcome: "comment_added", ticketId: ticket.id });
  });

  it("lifts a hold when the requester answers its comment by e-mail, and tells the assignee (decision 070)", async () => {
    const user = await insertUser(db());
    const technician = await insertUser(db(), { role: "technician" });
    const ticket = await insertTicket(db(), {
      createdBy: user.id,
      assignedTo: technician.id,
      status: "In Progress",
    });
    const cookie = await signIn(app.t.app, technician.email);
    const held = await request(app.t.app, {
      method: "PUT",
      url: `/api/tickets/${ticket.id}/hold`,
      cookie,
      payload: { comment: "Which printer is it? The number is on its front." },
    });
    expect(held.statusCode).toBe(200);

    // The hold's comment reaches the requester as any comment does, with a reply address.
    const asked = await waitForMailTo(user.email);
    expect(asked.text).toContain("Which printer is it?");
    const replyTo = asked.replyTo?.value[0]?.address;
    await app.send({ from: user.email, to: replyTo, subject: `Re: ${asked.subject}`, text: "It is P-204." });

    const [after] = await db().select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(after).toMatchObject({ onHoldSince: null, holdUntil: null, status: "In Progress" });
    const toAssignee = await db().select().from(mailOutbox).where(eq(mailOutbox.userId, technician.id));
    expect(toAssignee.map((mail) => mail.subject)).toEqual(
      expect.arrayContaining([expect.stringContaining("No longer on hold:")]),
    );
  });

  it("adds only the reply text of an Outlook reply, HTML-only or with its plain-text part", async () => {
    const user = await insertUser(db(), { name: "Ann User" });
    const ticket = await insertTicket(db(), { createdBy: user.id });
    const address = replyAddress(secret, "help.test", {
      ticketId: ticket.id,
      userId: user.id,
      isInternal: false,
    })!;
    // The shape Outlook on the web gives a reply: the answer, an <hr>, the "From: … Sent: …" block in
    // #divRplyFwdMsg, then the notification it answers (with our footer's unsubscribe link).
    const outlookHtml = (answer: string) =>
      `<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><style type="text/css" style="display:none;"> P {margin-top:0;margin-bottom:0;} </style></head><body dir="ltr">` +
      `<div class="elementToProof" style="font-family: Aptos, Calibri, Helvetica, sans-serif; font-size: 12pt; color: rgb(0, 0, 0);">${answer}</div>` +
      `<div class="elementToProof" style="font-family: Aptos; font-size: 12pt;"><br></div>` +
      `<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">` +
      `<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" color="#000000"><b>From:</b> Helpdesk &lt;helpdesk@test.local&gt;<br><b>Sent:</b> Monday, November 23, 2026 10:00 AM<br><b>To:</b> Ann User &lt;${user.email}&gt;<br><b>Subject:</b> [Helpdesk] New comment on ${ticket.id}</font><div>&nbsp;</div></div>` +
      `<div><p>Did you try turning it off and on?</p><p><a href="https://helpdesk.test/unsubscribe">Unsubscribe</a></p></div></body></html>`;
    await app.send({
      from: `Ann User <${user.email}>`,
      to: address,
      subject: `RE: [Helpdesk] New comment on ${ticket.id}`,
      html: outlookHtml("Yes, twice. Still broken."),
    });
    await app.send({
      from: `Ann User <${user.email}>`,
      to: address,
      subject: `RE: [Helpdesk] New comment on ${ticket.id}`,
      text: [
        "It works again after the update.",
        "",
        "________________________________",
        "From: Helpdesk <helpdesk@test.local>",
        "Sent: Monday, November 23, 2026 11:00 AM",
        `To: Ann User <${user.email}>`,
        `Subject: [Helpdesk] New comment on ${ticket.id}`,
        "",
        "Please try the update.",
        "Unsubscribe: https://helpdesk.test/unsubscribe",
      ].join("\r\n"),
      html: outlookHtml("It works again after the update."),
    });

    const comments = await db()
      .select()
      .from(ticketComments)
      .where(eq(ticketComments.ticketId, ticket.id))
      .orderBy(ticketComments.createdAt);
    expect(comments.map((c) => c.message)).toEqual([
      "Yes, twice. Still broken.",
      "It works again after the update.",
    ]);
  });

  it("counts a technician's e-mailed reply as the first response, and tells the requester", async () => {
    const user = await insertUser(db());
    const technician = await insertUser(db(), { role: "technician" });
    await app.send({ from: user.email, subject: "No network", text: "Cable is plugged in." });
    const [raised] = await ticketsBy(user.id);
    expect(raised!.firstRespondedAt).toBeNull();
    const address = replyAddress(secret, "help.test", {
      ticketId: raised!.id,
      userId: technician.id,
      isInternal: false,
    });
    await app.send({ from: technician.email, to: address!, subject: "Re: No network", text: "On my way." });

    const [answered] = await ticketsBy(user.id);
    expect(answered!.firstRespondedAt).not.toBeNull();
    const told = await waitForMailTo(user.email);
    expect(told.text).toContain("On my way.");
  });

  it("makes a reply to mail about an internal note an internal note", async () => {
    const user = await insertUser(db());
    const technician = await insertUser(db(), { role: "technician" });
    const ticket = await insertTicket(db(), {
      createdBy: user.id,
      assignedTo: technician.id,
      status: "In Progress",
    });
    const address = replyAddress(secret, "help.test", {
      ticketId: ticket.id,
      userId: technician.id,
      isInternal: true,
    });
    await app.send({
      from: technician.email,
      to: address!,
      subject: "Re: note",
      text: "Staff only: it is the fuser.",
    });
    const [note] = await db().select().from(ticketComments).where(eq(ticketComments.ticketId, ticket.id));
    expect(note).toMatchObject({
      authorId: technician.id,
      isInternal: true,
      message: "Staff only: it is the fuser.",
    });
  });

  it("refuses a forged reply address at the envelope, writing nothing", async () => {
    const user = await insertUser(db());
    const ticket = await insertTicket(db(), { createdBy: user.id });
    const genuine = replyAddress(secret, "help.test", {
      ticketId: ticket.id,
      userId: user.id,
      isInternal: false,
    })!;
    const forged = genuine.replace(
      /\.([0-9a-f]{24})@/,
      (_m, sig: string) => `.${sig.slice(0, -1)}${sig.endsWith("0") ? "1" : "0"}@`,
    );
    await expect(app.send({ from: user.email, to: forged, subject: "Re", text: "Hi" })).rejects.toMatchObject(
      {
        responseCode: 550,
      },
    );
    const signedForSomeoneElse = replyAddress("another-secret-another-secret-0000", "help.test", {
      ticketId: ticket.id,
      userId: user.id,
      isInternal: false,
    })!;
    await expect(app.send({ from: user.email, to: signedForSomeoneElse, text: "Hi" })).rejects.toMatchObject({
      responseCode: 550,
    });
    await expect(app.send({ from: user.email, to: "someone@help.test", text: "Hi" })).rejects.toMatchObject({
      responseCode: 550,
    });
    expect(await db().select().from(ticketComments)).toEqual([]);
    expect(await outcomes()).toEqual([]);
  });

  it("refuses a reply from someone who may not see the ticket now, and tells them politely", async () => {
    const user = await insertUser(db());
    const before = await insertUser(db(), { role: "technician" });
    const now = await insertUser(db(), { role: "technician" });
    // The first technician's mail was signed while the ticket was theirs; it went to someone else since.
    const ticket = await insertTicket(db(), {
      createdBy: user.id,
      assignedTo: now.id,
      status: "In Progress",
    });
    const address = replyAddress(secret, "help.test", {
      ticketId: ticket.id,
      userId: before.id,
      isInternal: false,
    });
    await app.send({ from: before.email, to: address!, subject: "Re: printer", text: "I can take it back." });

    expect(await db().select().from(ticketComments)).toEqual([]);
    expect((await outcomes())[0]).toMatchObject({ outcome: "refused", userId: before.id });
    const bounce = await waitForMailTo(before.email);
    expect(bounce.text).toContain(`could not be added to ticket ${ticket.id}`);
    expect(bounce.headers.get("auto-submitted")).toBe("auto-replied");
  });

  it("refuses a reply address from another envelope sender at RCPT with 550, and mails nobody", async () => {
    const user = await insertUser(db());
    const colleague = await insertUser(db());
    const ticket = await insertTicket(db(), { createdBy: user.id });
    const address = replyAddress(secret, "help.test", {
      ticketId: ticket.id,
      userId: user.id,
      isInternal: false,
    })!;
    // A colleague replying to a forwarded notification, and a forger who puts the person's From on it.
    for (const message of [
      { from: colleague.email },
      { from: user.email, envelope: { from: "forger@elsewhere.test", to: address } },
    ]) {
      const refused = await app
        .send({ ...message, to: address, subject: "Re", text: "Me too!" })
        .catch((error: { responseCode?: number; command?: string; response?: string }) => error);
      expect(refused).toMatchObject({ responseCode: 550, command: "RCPT TO" });
      expect((refused as { response: string }).response).toContain(
        `This reply address belongs to another person's mailbox: reply from the mailbox the notification was sent to, or comment on ticket ${ticket.id} in Helpdesk`,
      );
    }
    expect(await db().select().from(ticketComments)).toEqual([]);
    expect(await outcomes()).toEqual([]);
    expect(await queuedMail()).toEqual([]);
  });

  it("refuses a reply whose From is not the reply address's person with 550 after DATA, and mails nobody", async () => {
    const user = await insertUser(db());
    const colleague = await insertUser(db());
    const ticket = await insertTicket(db(), { createdBy: user.id });
    const address = replyAddress(secret, "help.test", {
      ticketId: ticket.id,
      userId: user.id,
      isInternal: false,
    })!;
    for (const from of [colleague.email, "stranger@elsewhere.test"]) {
      const refused = await app
        .send({ from, envelope: { from: user.email, to: address }, subject: "Re", text: "Me too!" })
        .catch((error: { responseCode?: number; command?: string; response?: string }) => error);
      expect(refused).toMatchObject({ responseCode: 550, command: "DATA" });
      expect((refused as { response: string }).response).toContain(
        "The From address is not the one this reply address was made for",
      );
    }
    expect(await db().select().from(ticketComments)).toEqual([]);
    // Recorded for the admins' page, marked as told in the answer (a redelivery is judged again).
    expect(await outcomes()).toMatchObject([
      { fromAddress: "stranger@elsewhere.test", outcome: "refused", refusedInAnswer: true },
      { fromAddress: colleague.email, outcome: "refused", refusedInAnswer: true },
    ]);
    expect(await queuedMail()).toEqual([]);
  });

  it("adds nothing for a reply that is only the quoted mail, and says so", async () => {
    const user = await insertUser(db());
    const ticket = await insertTicket(db(), { createdBy: user.id });
    const address = replyAddress(secret, "help.test", {
      ticketId: ticket.id,
      userId: user.id,
      isInternal: false,
    });
    await app.send({ from: user.email, to: address!, subject: "Re", text: "> Did it work?\n> Helpdesk" });
    expect(await db().select().from(ticketComments)).toEqual([]);
    expect((await waitForMailTo(user.email)).text).toContain("no text of its own");
  });

  it("ignores auto-replies and mail from the helpdesk itself: no ticket, no answer", async () => {
    const user = await insertUser(db());
    await app.send({
      from: user.email,
      subject: "Out of office",
      text: "I am away until Monday.",
      headers: { "Auto-Submitted": "auto-replied" },
    });
    await app.send({
      from: user.email,
      subject: "Newsletter",
      text: "News",
      headers: { Precedence: "bulk" },
    });
    await app.send({ from: user.email, subject: "OOF", text: "Away", headers: { "X-Autoreply": "yes" } });
    await app.send({ from: "helpdesk@test.local", subject: "[Helpdesk] New comment", text: "loop?" });
    // A person's own mail saying Auto-Submitted: no is a person's mail.
    await app.send({
      from: user.email,
      subject: "Real",
      text: "Real problem",
      headers: { "Auto-Submitted": "no" },
    });

    expect((await ticketsBy(user.id)).map((t) => t.title)).toEqual(["Real"]);
    const ignored = (await outcomes()).filter((o) => o.outcome === "ignored_auto_reply");
    expect(ignored.map((o) => o.detail)).toEqual([
      "sent by the helpdesk itself",
      "x-autoreply: yes",
      "Precedence: bulk",
      "Auto-Submitted: auto-replied",
    ]);
    expect(smtp.received.filter((m) => m.raw.includes("was not accepted"))).toEqual([]);
  });

  it("refuses an unknown sender in the SMTP answer, saying what to do, and mails nobody", async () => {
    const message = {
      from: "stranger@elsewhere.test",
      subject: "Help",
      text: "Please help.",
      messageId: "<help.1@elsewhere.test>",
    };
    const refused = await app
      .send(message)
      .catch((error: { responseCode?: number; command?: string; response?: string }) => error);
    expect(refused).toMatchObject({ responseCode: 550, command: "DATA" });
    expect((refused as { response: string }).response).toContain(
      "The address stranger@elsewhere.test has no Helpdesk account",
    );
    expect((refused as { response: string }).response).toContain("/sign-up");
    expect(await db().select().from(tickets)).toEqual([]);
    expect(await outcomes()).toMatchObject([
      { messageId: "<help.1@elsewhere.test>", outcome: "refused", refusedInAnswer: true },
    ]);
    expect(await queuedMail()).toEqual([]);

    // Refused in the answer means not accepted: the sending server's next try is judged again.
    const stranger = await insertUser(db(), { email: "stranger@elsewhere.test" });
    await app.send(message);
    expect(await ticketsBy(stranger.id)).toHaveLength(1);
    expect(await outcomes()).toMatchObject([
      { messageId: "<help.1@elsewhere.test>", outcome: "ticket_created", refusedInAnswer: false },
    ]);
  });

  it("answers an account holder's own mailbox by mail, a few times an hour at most", async () => {
    const user = await insertUser(db(), { status: "Inactive" });
    for (let i = 0; i < 4; i++) await app.send({ from: user.email, subject: `Help ${i}`, text: "Hello" });
    const answer = await waitForMailTo(user.email, 3);
    expect(answer.subject).toBe("[Helpdesk] Your e-mail was not accepted: Help 2");
    const refused = await outcomes();
    expect(refused.map((o) => o.outcome)).toEqual(["refused", "refused", "refused", "refused"]);
    expect(refused[0]!.detail).toContain("answer limit reached");
    expect(await queuedMail()).toHaveLength(3);
  });

  it("refuses in the SMTP answer, never by mail, when the envelope sender is not the From address", async () => {
    const technician = await insertUser(db(), { role: "technician" });
    const refused = await app
      .send({
        from: technician.email,
        envelope: { from: "forger@elsewhere.test", to: helpdesk },
        subject: "Mine",
        text: "A ticket of mine",
      })
      .catch((error: { responseCode?: number; command?: string; response?: string }) => error);
    expect(refused).toMatchObject({ responseCode: 550, command: "DATA" });
    expect((refused as { response: string }).response).toContain("Technicians do not raise tickets");
    expect(await ticketsBy(technician.id)).toEqual([]);
    expect(await queuedMail()).toEqual([]);
  });

  it("refuses a deactivated user's e-mail", async () => {
    const user = await insertUser(db(), { status: "Inactive" });
    await app.send({ from: user.email, subject: "Still here?", text: "Hello" });
    expect(await ticketsBy(user.id)).toEqual([]);
    expect((await outcomes())[0]).toMatchObject({ outcome: "refused", userId: user.id });
    expect((await waitForMailTo(user.email)).text).toContain("deactivated");
  });

  it("refuses a technician's new e-mail: technicians do not raise tickets", async () => {
    const technician = await insertUser(db(), { role: "technician" });
    await app.send({ from: technician.email, subject: "Mine", text: "A ticket of mine" });
    expect(await ticketsBy(technician.id)).toEqual([]);
    expect((await waitForMailTo(technician.email)).text).toContain("Technicians do not raise tickets");
  });

  it("raises one ticket when the same message is delivered twice", async () => {
    const user = await insertUser(db());
    const message = {
      from: user.email,
      subject: "Twice",
      text: "Delivered twice",
      messageId: "<same.1@client.test>",
    };
    await app.send(message);
    await app.send(message);
    // And twice at the same moment (two connections), as two mail servers retrying at once would.
    const racing = { ...message, messageId: "<same.2@client.test>" };
    await Promise.all([app.send(racing), app.send(racing)]);
    expect(await ticketsBy(user.id)).toHaveLength(2);
    expect(await outcomes()).toHaveLength(2);
  });

  it("refuses a message over the size limit at SMTP level, writing nothing", async () => {
    const user = await insertUser(db());
    await expect(
      app.send({
        from: user.email,
        subject: "Huge",
        text: "See attached",
        attachments: [{ filename: "big.pdf", content: Buffer.alloc(maxMessageBytes, 1) }],
      }),
    ).rejects.toMatchObject({ responseCode: 552 });
    expect(await ticketsBy(user.id)).toEqual([]);
    expect(await outcomes()).toEqual([]);
  });
});

describe("e-mail to ticket with INBOUND_UNKNOWN_SENDERS=create-account", () => {
  let open: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    open = await startApp({ unknownSenders: "create-account" });
  });
  afterAll(() => open.t.close());

  it("creates an account for an unknown sender, raises the ticket and mails a link to choose a password", async () => {
    await open.send({
      from: "Nora New <nora@elsewhere.test>",
      subject: "Laptop",
      text: "My laptop is slow.",
    });
    const [ticket] = await open.t.database.db.select().from(tickets);
    expect(ticket).toMatchObject({ title: "Laptop", description: "My laptop is slow." });
    const welcome = await waitForMailTo("nora@elsewhere.test");
    expect(welcome.subject).toBe(`[Helpdesk] Your request [${ticket!.id}] was received`);
    expect(welcome.text).toMatch(/\/api\/auth\/reset-password\/[\w-]+/);
    expect(welcome.text).toContain("Hello Nora New");
  });

  it("makes no account, and mails no invitation, when the envelope sender is not the From address", async () => {
    const db = open.t.database.db;
    // Ids only: the earlier test's welcome mail may be sent meanwhile (its row changes).
    const ticketIds = () => db.select({ id: tickets.id }).from(tickets);
    const mailIds = () => db.select({ id: mailOutbox.id }).from(mailOutbox);
    const before = { tickets: await ticketIds(), mail: await mailIds() };
    const refused = await open
      .send({
        from: "Olga Other <olga@elsewhere.test>",
        envelope: { from: "forger@elsewhere.test", to: helpdesk },
        subject: "Laptop",
        text: "My laptop is slow.",
      })
      .catch((error: { responseCode?: number; command?: string }) => error);
    expect(refused).toMatchObject({ responseCode: 550, command: "DATA" });
    expect(await db.select().from(users).where(eq(users.email, "olga@elsewhere.test"))).toEqual([]);
    expect(await ticketIds()).toEqual(before.tickets);
    expect(await mailIds()).toEqual(before.mail);
  });
});

// Another transaction holding the ticket's row: only PostgreSQL has a second connection.
describe.skipIf(!inject("pgTemplateUrl"))("a reply while the ticket is busy (PostgreSQL)", () => {
  let busy: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    // A short statement timeout, so that the lock timeout (half of it) passes quickly.
    busy = await startApp({}, { pool: { statementTimeoutMs: 1_000 } });
  });
  afterAll(() => busy.t.close());

  it("asks the sender's server to try again later, and adds the reply once when it does", async () => {
    const { db } = busy.t.database;
    const user = await insertUser(db);
    const technician = await insertUser(db, { role: "technician" });
    const ticket = await insertTicket(db, {
      createdBy: user.id,
      assignedTo: technician.id,
      status: "In Progress",
    });
    const reply = {
      from: user.email,
      to: replyAddress(secret, "help.test", { ticketId: ticket.id, userId: user.id, isInternal: false })!,
      subject: "Re: your ticket",
      text: "It works again, thank you.",
    };
    const holder = new pg.Client({ connectionString: busy.t.database.url });
    await holder.connect();
    try {
      await holder.query("begin");
      await holder.query("select id from tickets where id = $1 for no key update", [ticket.id]);
      await expect(busy.send(reply)).rejects.toMatchObject({ responseCode: 451 });
    } finally {
      await holder.query("rollback");
      await holder.end();
    }
    // Not refused: no bounce, no record of a decision, nothing written.
    expect(await db.select().from(inboundMessages)).toEqual([]);
    expect(await db.select().from(ticketComments).where(eq(ticketComments.ticketId, ticket.id))).toEqual([]);

    await busy.send(reply);
    const comments = await db.select().from(ticketComments).where(eq(ticketComments.ticketId, ticket.id));
    expect(comments.map((comment) => [comment.authorId, comment.message])).toEqual([
      [user.id, "It works again, thank you."],
    ]);
    expect(await db.select().from(inboundMessages)).toMatchObject([{ outcome: "comment_added" }]);
  });
});
