import { desc, eq } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  inboundMessages,
  mailOutbox,
  ticketComments,
  ticketFollowers,
  tickets,
} from "#server/db/schema/index.ts";
import { insertTicket, insertUser, signIn } from "#server/test/factories.ts";
import { inboundSecret, startInboundMailApp } from "#server/test/inbound-mail-app.ts";
import { startSmtpServer } from "#server/test/smtp.ts";
import { request } from "#server/test/test-app.ts";
import { replyAddress } from "./reply-address.ts";

// Decision 083: a reply sent to the helpdesk's own address (Reply All, a mail program that ignores
// Reply-To) is placed by the message it answers or by the subject's [TKT…] tag, under the same rules.

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: Awaited<ReturnType<typeof startInboundMailApp>>;
const db = () => app.t.database.db;
const outcomes = () => db().select().from(inboundMessages).orderBy(desc(inboundMessages.id));
const commentsOn = (ticketId: string) =>
  db().select().from(ticketComments).where(eq(ticketComments.ticketId, ticketId));

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startInboundMailApp(smtp);
});
afterAll(async () => {
  await app.t.close();
  await smtp.close();
});
beforeEach(async () => {
  await app.t.database.reset();
  smtp.received.length = 0;
});

/** A ticket of a user's, assigned to a technician, and the notification mail a comment of theirs sent her. */
async function ticketWithNotification(options: { internal?: boolean } = {}) {
  const user = await insertUser(db());
  const technician = await insertUser(db(), { role: "technician" });
  const admin = await insertUser(db(), { role: "admin" });
  const ticket = await insertTicket(db(), {
    createdBy: user.id,
    assignedTo: technician.id,
    status: "In Progress",
  });
  // A comment mails the requester; an admin's internal note mails the assignee.
  const author = options.internal ? admin : technician;
  const response = await request(app.t.app, {
    method: "POST",
    url: `/api/tickets/${ticket.id}/comments`,
    cookie: await signIn(app.t.app, author.email),
    payload: { message: "Did you try turning it off and on?", isInternal: options.internal ?? false },
  });
  expect(response.statusCode).toBe(201);
  const reader = options.internal ? technician : user;
  const mails = await smtp.waitForMailTo(reader.email, 1);
  const mail = await simpleParser(mails[0]!.raw);
  return { user, technician, admin, ticket, mail };
}

describe("mail threading", () => {
  it("stores the Message-ID of each mail it sends about a ticket, and tags the subject with the ticket", async () => {
    const { ticket, mail, user } = await ticketWithNotification();
    expect(mail.messageId).toMatch(/^<notification\.\d+@help\.test>$/);
    expect(mail.subject).toContain(`[${ticket.id}]`);
    const [sent] = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(sent).toMatchObject({ messageId: mail.messageId, ticketId: ticket.id, isInternal: false });
  });

  it("adds a reply sent to the helpdesk's address as a comment when In-Reply-To names a mail it sent", async () => {
    const { user, ticket, mail } = await ticketWithNotification();
    await app.send({
      from: user.email,
      subject: "Re: printer",
      inReplyTo: mail.messageId,
      references: [mail.messageId!],
      text: "Yes, twice. Still broken.\n\nOn Monday Helpdesk wrote:\n> Did you try turning it off and on?",
    });
    const comments = await commentsOn(ticket.id);
    expect(comments.map((c) => [c.authorId, c.message, c.isInternal])).toEqual([
      [expect.any(String), "Did you try turning it off and on?", false],
      [user.id, "Yes, twice. Still broken.", false],
    ]);
    expect(await db().select().from(tickets)).toHaveLength(1);
    expect((await outcomes())[0]).toMatchObject({
      outcome: "comment_added",
      ticketId: ticket.id,
      detail: "placed by In-Reply-To",
    });
  });

  it("follows References from the newest back when In-Reply-To names a message it never saw", async () => {
    const { user, ticket, mail } = await ticketWithNotification();
    await app.send({
      from: user.email,
      subject: "Fwd: printer",
      inReplyTo: "<unknown.1@elsewhere.test>",
      references: [mail.messageId!, "<unknown.1@elsewhere.test>"],
      text: "Adding a photo later.",
    });
    expect((await commentsOn(ticket.id)).map((c) => c.message)).toContain("Adding a photo later.");
    expect((await outcomes())[0]!.detail).toBe("placed by References");
  });

  it("makes a reply to mail about an internal note an internal note", async () => {
    const { technician, ticket, mail } = await ticketWithNotification({ internal: true });
    await app.send({
      from: technician.email,
      subject: "Re: note",
      inReplyTo: mail.messageId,
      text: "On it.",
    });
    const reply = (await commentsOn(ticket.id)).find((c) => c.authorId === technician.id);
    expect(reply).toMatchObject({ message: "On it.", isInternal: true });
  });

  it("places a reply by the subject's [TKT…] tag last: public for the requester, a note for staff", async () => {
    const user = await insertUser(db());
    const admin = await insertUser(db(), { role: "admin" });
    const ticket = await insertTicket(db(), { createdBy: user.id });
    await app.send({
      from: user.email,
      subject: `AW: [Helpdesk] New comment on [${ticket.id.toLowerCase()}]: Printer`,
      text: "It works now, thanks.",
    });
    await app.send({ from: admin.email, subject: `Re: [${ticket.id}]`, text: "Vendor says: firmware 2.1." });
    const comments = await commentsOn(ticket.id);
    expect(comments.map((c) => [c.authorId, c.isInternal])).toEqual([
      [user.id, false],
      [admin.id, true],
    ]);
    expect((await outcomes()).map((o) => o.detail)).toEqual([
      "placed by subject tag; internal note",
      "placed by subject tag",
    ]);
  });

  it("takes the signed reply address first, the message it answers next, the subject's tag last", async () => {
    const { user, ticket, mail } = await ticketWithNotification();
    const other = await insertTicket(db(), { createdBy: user.id, title: "Other ticket" });
    const third = await insertTicket(db(), { createdBy: user.id, title: "Third ticket" });
    const signed = replyAddress(inboundSecret, "help.test", {
      ticketId: other.id,
      userId: user.id,
      isInternal: false,
    })!;
    await app.send({ from: user.email, to: signed, inReplyTo: mail.messageId, subject: "One", text: "One." });
    await app.send({ from: user.email, inReplyTo: mail.messageId, subject: `[${third.id}]`, text: "Two." });
    expect((await commentsOn(other.id)).map((c) => c.message)).toEqual(["One."]);
    expect((await commentsOn(ticket.id)).map((c) => c.message)).toContain("Two.");
    expect(await commentsOn(third.id)).toEqual([]);
  });

  it("places nothing by an id anyone could write, and nothing for someone who may not see the ticket", async () => {
    const { ticket, mail } = await ticketWithNotification();
    const stranger = await insertUser(db());
    // The thread's own id is in every mail about the ticket, and easy to guess: it raises a new ticket.
    await app.send({
      from: stranger.email,
      subject: "My own problem",
      inReplyTo: `<ticket.${ticket.id}@help.test>`,
      text: "My screen flickers.",
    });
    const own = await db().select().from(tickets).where(eq(tickets.createdBy, stranger.id));
    expect(own.map((t) => t.title)).toEqual(["My own problem"]);
    // Answering someone else's mail, or naming their ticket, does not let anyone write on it.
    await app.send({ from: stranger.email, subject: "Re", inReplyTo: mail.messageId, text: "Me too" });
    await app.send({ from: stranger.email, subject: `Re: [${ticket.id}]`, text: "Me too" });
    expect((await commentsOn(ticket.id)).map((c) => c.authorId)).not.toContain(stranger.id);
    const [tagged, answered] = await outcomes();
    for (const outcome of [tagged, answered]) {
      expect(outcome).toMatchObject({ outcome: "refused", ticketId: null });
      expect(outcome!.detail).toContain(`Your reply could not be added to ticket ${ticket.id}`);
    }
  });

  it("puts a reply to a merged ticket's mail on the ticket it was merged into", async () => {
    const { user, ticket, mail } = await ticketWithNotification();
    const target = await insertTicket(db(), { createdBy: user.id, title: "The same printer" });
    await db().update(tickets).set({ mergedIntoId: target.id }).where(eq(tickets.id, ticket.id));
    await app.send({ from: user.email, subject: "Re", inReplyTo: mail.messageId, text: "Any news?" });
    expect((await commentsOn(target.id)).map((c) => c.message)).toEqual(["Any news?"]);
  });

  it("makes known people in Cc followers when they may see the ticket, and counts their Reply All", async () => {
    const user = await insertUser(db());
    const technician = await insertUser(db(), { role: "technician" });
    const colleague = await insertUser(db());
    await app.send({
      from: user.email,
      cc: [technician.email, colleague.email, "outsider@elsewhere.test"],
      subject: "Projector in room 4",
      messageId: "<projector.1@org.test>",
      text: "It shows no picture.",
    });
    const [ticket] = await db().select().from(tickets).where(eq(tickets.createdBy, user.id));
    const followers = await db()
      .select()
      .from(ticketFollowers)
      .where(eq(ticketFollowers.ticketId, ticket!.id));
    // An unassigned ticket is every technician's to see; a colleague sees only their own tickets.
    expect(followers.map((f) => f.userId)).toEqual([technician.id]);
    expect((await outcomes())[0]!.detail).toBe(
      `copied people who follow it now: ${technician.email}; copied people who may not see it, not made followers: ${colleague.email}; copied addresses without an account: outsider@elsewhere.test`,
    );

    // Reply All to the requester's own message: it names her message, which raised the ticket.
    await app.send({
      from: technician.email,
      to: ["helpdesk@help.test", user.email],
      subject: "Re: Projector in room 4",
      inReplyTo: "<projector.1@org.test>",
      references: ["<projector.1@org.test>"],
      text: "Is the cable in?",
    });
    const reply = (await commentsOn(ticket!.id)).find((c) => c.authorId === technician.id);
    expect(reply).toMatchObject({ message: "Is the cable in?", isInternal: false });
  });
});
