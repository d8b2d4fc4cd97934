import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ServiceContext } from "#server/context.ts";
import { mailOutbox, notificationSettings, notifications, tickets } from "#server/db/schema/index.ts";
import type { Announcement } from "#server/events/dispatcher.ts";
import { verifyReplyLocalPart } from "#server/features/inbound-mail/reply-address.ts";
import { listNotificationsFor } from "#server/features/notifications/notification.service.ts";
import { verifyUnsubscribeToken } from "#server/features/notifications/unsubscribe-token.ts";
import { assignTicketToMe } from "#server/features/tickets/assign-ticket.service.ts";
import { createTicket } from "#server/features/tickets/ticket.service.ts";
import { addComment, giveFeedback } from "#server/features/tickets/ticket-activity.service.ts";
import { changeTicketStatus } from "#server/features/tickets/ticket-status.service.ts";
import { notificationMail } from "#server/mail/templates.ts";
import { contextAs, insertCast, insertTicket, insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { isTechnicianAlert } from "#shared/notifications/notification-alerts.ts";
import { inTransaction } from "./ticket-transaction.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

let announced: Announcement[];
let logged: string[];
beforeEach(async () => {
  await database.reset();
  announced = [];
  logged = [];
});

const as = (person: { id: string; role: string | null }) =>
  contextAs(database.db, person, {
    dispatcher: {
      dispatch: (announcements) => announced.push(...announcements),
      logError: (_error, message) => logged.push(message),
    },
  });

const cast = () => insertCast(database.db, ["user", "otherUser", "tech", "tech2", "admin"]);

const allNotifications = () =>
  database.db.select().from(notifications).orderBy(asc(notifications.userId), asc(notifications.id));
const recipientsOf = async () => (await allNotifications()).map((n) => n.userId).sort();
/** What the person's notification list shows them (decision 068: a broadcast is one row to an audience). */
const seenBy = async (person: { id: string; role: string | null }) =>
  (await listNotificationsFor(as(person), { filter: "all", limit: 100 })).items;

const newTicketInput = {
  title: "Printer jams",
  description: "On every page",
  category: "Hardware",
  priority: "Low",
  department: "Finance",
  floor: "3",
  officeNumber: "301",
} as const;

describe("ticket created", () => {
  it("broadcasts NEW TICKET CREATED with title, department and floor to every active technician only", async () => {
    const { user, tech, tech2, admin } = await cast();
    const inactive = await insertUser(database.db, { role: "technician", status: "Inactive" });
    const ticket = await createTicket(as(user), newTicketInput);
    // One row, addressed to the technicians, whatever their number.
    const rows = await allNotifications();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: null, audience: "technicians", exceptUserId: user.id });
    for (const technician of [tech, tech2]) {
      expect(await seenBy(technician)).toEqual([
        {
          notificationId: String(rows[0]!.id),
          uid: technician.id,
          type: "new_ticket",
          message: "NEW TICKET CREATED: Printer jams | Department: Finance | Floor: 3",
          params: { kind: "ticket_created", title: "Printer jams", department: "Finance", floor: "3" },
          ticketId: ticket.ticketId,
          broadcast: true,
          read: false,
          timestamp: rows[0]!.createdAt.toISOString(),
        },
      ]);
    }
    for (const other of [user, admin, inactive]) expect(await seenBy(other)).toEqual([]);
    expect(announced).toEqual([
      {
        kind: "ticket-event",
        eventId: rows[0]!.eventId,
        ticketId: ticket.ticketId,
        ticket: { createdBy: user.id, assignedTo: null, status: "Open" },
      },
    ]);
  });

  it("gives a technician who joins later none of the earlier broadcasts", async () => {
    const { user } = await cast();
    await createTicket(as(user), newTicketInput);
    const late = await insertUser(database.db, { role: "technician" });
    await createTicket(as(user), { ...newTicketInput, title: "Second" });
    expect((await seenBy(late)).map((n) => n.message)).toEqual([
      "NEW TICKET CREATED: Second | Department: Finance | Floor: 3",
    ]);
  });

  it("still creates the ticket when the broadcast fails, and logs the failure", async () => {
    const { user } = await cast();
    // Any broadcast insert now fails inside the database.
    await database.db.execute(
      sql`alter table notifications add constraint no_broadcasts_in_this_test check (not broadcast)`,
    );
    try {
      const ticket = await createTicket(as(user), newTicketInput);
      const [stored] = await database.db.select().from(tickets).where(eq(tickets.id, ticket.ticketId));
      expect(stored?.title).toBe("Printer jams");
      expect(await allNotifications()).toEqual([]);
      expect(logged).toEqual([`could not broadcast the new ticket ${ticket.ticketId} to technicians`]);
    } finally {
      await database.db.execute(sql`alter table notifications drop constraint no_broadcasts_in_this_test`);
    }
  });
});

describe("ticket created, its e-mail copies", () => {
  const secret = "test-secret-test-secret-test-secret-0123";
  const mail = { baseURL: "https://help.example.test", secret, replyDomain: "in.example.test", wake() {} };
  const mailing = (actor: { id: string; role: string | null }): ServiceContext => {
    const ctx = as(actor);
    return { ...ctx, dispatcher: { ...ctx.dispatcher!, mail } };
  };

  it("mails exactly the active technicians who chose new-ticket e-mails, each their own copy", async () => {
    const { db } = database;
    const chose = async (values: Parameters<typeof insertUser>[1], emailTypes: string[]) => {
      const person = await insertUser(db, values);
      await db.insert(notificationSettings).values({ userId: person.id, emailTypes });
      return person;
    };
    const creator = await chose({ role: "user", name: "Cleo" }, ["new_ticket"]);
    const wants = await chose({ role: "technician", name: `O'Neil <Ops> & "Co"` }, ["new_ticket"]);
    const wantsToo = await chose({ role: "technician", name: "Wim" }, ["ticket_comment", "new_ticket"]);
    // New-ticket e-mail is off by default; an unsubscribe link removed it for the next one.
    const byDefault = await insertUser(db, { role: "technician", name: "Dora" });
    const unsubscribed = await chose({ role: "technician", name: "Una" }, ["ticket_comment"]);
    // Not technicians now, or not active: no notification, so no e-mail, whatever is stored.
    await chose({ role: "technician", status: "Inactive" }, ["new_ticket"]);
    await chose({ role: "admin" }, ["new_ticket"]);
    const options: unknown[] = [];
    const ctx = mailing(creator);
    const ticket = await createTicket(
      {
        ...ctx,
        dispatcher: {
          ...ctx.dispatcher!,
          dispatch: (announcements, more) => {
            announced.push(...announcements);
            options.push(more);
          },
        },
      },
      newTicketInput,
    );

    for (const technician of [wants, wantsToo, byDefault, unsubscribed])
      expect(await seenBy(technician)).toHaveLength(1);
    const queued = await db.select().from(mailOutbox).orderBy(mailOutbox.id);
    expect(queued.map((row) => row.userId).sort()).toEqual([wants.id, wantsToo.id].sort());
    expect(options).toEqual([{ mailQueued: true, webhookQueued: false }]);
    const [notification] = await allNotifications();
    // One notification, many mails: each its own Message-ID.
    expect(new Set(queued.map((row) => row.headers["Message-ID"])).size).toBe(2);
    for (const row of queued) {
      const person = row.userId === wants.id ? wants : wantsToo;
      expect(row.notificationId).toBe(BigInt(notification!.id));
      const token = /token=([^\s"<>]+)/.exec(row.text)![1]!;
      expect(verifyUnsubscribeToken(secret, token)).toEqual({ userId: person.id, type: "new_ticket" });
      // Word for word what the template says for this person.
      const expected = notificationMail(person.email, {
        name: person.name,
        subject: `[Helpdesk] New ticket [${ticket.ticketId}]: Printer jams`,
        message: "NEW TICKET CREATED: Printer jams | Department: Finance | Floor: 3",
        link: `${mail.baseURL}/tickets/${ticket.ticketId}`,
        linkLabel: `Open ticket ${ticket.ticketId}`,
        typeLabel: "New tickets (technicians)",
        unsubscribeUrl: `${mail.baseURL}/unsubscribe?token=${token}`,
        settingsUrl: `${mail.baseURL}/profile`,
      });
      expect(row).toMatchObject({
        toAddress: person.email,
        subject: expected.subject,
        text: expected.text,
        html: expected.html,
        link: expected.link,
        kind: "notification",
        notificationId: BigInt(notification!.id),
        status: "pending",
      });
      const thread = `<ticket.${ticket.ticketId}@in.example.test>`;
      expect(row.headers).toEqual({
        "List-Unsubscribe": `<${mail.baseURL}/api/notifications/unsubscribe?token=${token}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "All",
        "Message-ID": expect.stringMatching(
          new RegExp(`^<notification\\.${notification!.id}\\.[0-9a-f]{16}@in\\.example\\.test>$`),
        ),
        "In-Reply-To": thread,
        References: thread,
        "Reply-To": expect.stringMatching(/@in\.example\.test$/),
      });
      // A reply comes back as a comment by this person on this ticket.
      const local = row.headers["Reply-To"]!.split("@")[0]!;
      expect(verifyReplyLocalPart(secret, local)).toEqual({
        ticketId: ticket.ticketId,
        userId: person.id,
        isInternal: false,
      });
    }
    expect(queued.find((row) => row.userId === wants.id)?.html).toContain(
      "Hello O&#39;Neil &lt;Ops&gt; &amp; &quot;Co&quot;,",
    );
  });

  it("never tells a technician who raised the ticket (by e-mail, say) about it", async () => {
    const { user, tech, tech2 } = await cast();
    for (const id of [tech.id, tech2.id])
      await database.db.insert(notificationSettings).values({ userId: id, emailTypes: ["new_ticket"] });
    const ticket = await insertTicket(database.db, { createdBy: user.id });
    await inTransaction(mailing(tech), (_tx, recordEvent) =>
      recordEvent({ ticketId: ticket.id, type: "created", actorId: tech.id }),
    );
    expect(await seenBy(tech)).toEqual([]);
    expect(await seenBy(tech2)).toHaveLength(1);
    expect((await database.db.select().from(mailOutbox)).map((row) => row.userId)).toEqual([tech2.id]);
  });

  it("queues no e-mail when nobody chose new-ticket e-mails, and none with mail off", async () => {
    const { user } = await cast();
    await createTicket(mailing(user), newTicketInput);
    const withMailOff = await insertUser(database.db, { role: "technician" });
    await database.db
      .insert(notificationSettings)
      .values({ userId: withMailOff.id, emailTypes: ["new_ticket"] });
    await createTicket(as(user), newTicketInput);
    expect(await seenBy(withMailOff)).toHaveLength(1);
    expect(await database.db.select().from(mailOutbox)).toEqual([]);
  });

  it("undoes the broadcast's e-mails with its notifications when the broadcast fails", async () => {
    const { user, tech } = await cast();
    await database.db.insert(notificationSettings).values({ userId: tech.id, emailTypes: ["new_ticket"] });
    await database.db.execute(
      sql`alter table mail_outbox add constraint no_mail_in_this_test check (kind <> 'notification')`,
    );
    try {
      const ticket = await createTicket(mailing(user), newTicketInput);
      const [stored] = await database.db.select().from(tickets).where(eq(tickets.id, ticket.ticketId));
      expect(stored?.title).toBe("Printer jams");
      expect(await allNotifications()).toEqual([]);
      expect(logged).toEqual([`could not broadcast the new ticket ${ticket.ticketId} to technicians`]);
    } finally {
      await database.db.execute(sql`alter table mail_outbox drop constraint no_mail_in_this_test`);
    }
  });
});

describe("status change", () => {
  it("notifies the creator and the assignee, never the person who made it", async () => {
    const { user, tech, tech2, admin } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await changeTicketStatus(as(admin), ticket.id, { status: "Resolved" });
    expect(await recipientsOf()).toEqual([tech.id, user.id].sort());
    const rows = await allNotifications();
    const message = `Ada changed the status of ticket "Printer on floor 2 jams" from In Progress to Resolved`;
    const params = {
      kind: "status_changed",
      title: "Printer on floor 2 jams",
      actor: "Ada",
      from: "In Progress",
      to: "Resolved",
    };
    const forTech = rows.find((r) => r.userId === tech.id);
    expect(forTech).toMatchObject({ type: "ticket_status", ticketId: ticket.id, broadcast: false, message });
    expect(forTech?.params).toEqual(params);
    // The creator also learns when the Resolved ticket closes by itself (decision 021): in the message
    // in the help desk's zone, in the params as an instant for the reader's own format (7 days by default).
    const forCreator = rows.find((r) => r.userId === user.id);
    expect(forCreator?.message).toMatch(
      new RegExp(`^${message}\\. It will close automatically on .+ unless you reply or rate it\\.$`),
    );
    expect(forCreator?.params).toEqual({
      ...params,
      autoCloseAt: new Date(forCreator!.createdAt.getTime() + 7 * 24 * 3_600_000).toISOString(),
    });
    expect(rows.some((r) => r.userId === tech2.id || r.userId === admin.id)).toBe(false);
  });

  it("announces whom it notified and who may see the ticket, so that an instance reads only what it must", async () => {
    const { user, tech, admin } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await changeTicketStatus(as(admin), ticket.id, { status: "Resolved" });
    const [row] = await allNotifications();
    // With who may see the ticket as the change left it: no instance reads the ticket to know whom to wake.
    expect(announced).toEqual([
      {
        kind: "ticket-event",
        eventId: row!.eventId,
        ticketId: ticket.id,
        recipients: [user.id, tech.id],
        ticket: { createdBy: user.id, assignedTo: tech.id, status: "Resolved" },
      },
    ]);
    // A comment by the creator on an unassigned ticket notifies nobody.
    const quiet = await insertTicket(database.db, { createdBy: user.id });
    await addComment(as(user), quiet.id, { message: "Any news?" });
    expect(announced[1]).toMatchObject({ ticketId: quiet.id, recipients: [] });
  });

  it("does not notify the assignee who made the change", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await changeTicketStatus(as(tech), ticket.id, { status: "Resolved" });
    expect(await recipientsOf()).toEqual([user.id]);
  });

  it("writes no notification when the change is refused on the locked row", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "Closed",
    });
    await expect(changeTicketStatus(as(tech), ticket.id, { status: "Resolved" })).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await allNotifications()).toEqual([]);
    expect(announced).toEqual([]);
  });
});

describe("comment", () => {
  it("notifies the creator and the assignee but not its author, with the comment's start", async () => {
    const { user, tech, tech2, admin, otherUser } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    const long = `${"x".repeat(100)}TAIL`;
    await addComment(as(tech), ticket.id, { message: long });
    const rows = await allNotifications();
    expect(rows.map((r) => r.userId)).toEqual([user.id]);
    expect(rows[0]).toMatchObject({
      type: "ticket_comment",
      ticketId: ticket.id,
      message: `Theo commented on ticket "Printer on floor 2 jams": ${"x".repeat(100)}…`,
      params: {
        kind: "commented",
        title: "Printer on floor 2 jams",
        actor: "Theo",
        preview: `${"x".repeat(100)}…`,
      },
    });
    await addComment(as(admin), ticket.id, { message: "Looking" });
    const byAdmin = (await allNotifications()).filter((r) => r.message.startsWith("Ada"));
    expect(byAdmin.map((r) => r.userId).sort()).toEqual([tech.id, user.id].sort());
    expect((await recipientsOf()).includes(tech2.id) || (await recipientsOf()).includes(otherUser.id)).toBe(
      false,
    );
  });

  it("on an unassigned ticket, notifies only the creator", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id });
    await addComment(as(tech), ticket.id, { message: "Which printer?" });
    expect(await recipientsOf()).toEqual([user.id]);
    await addComment(as(user), ticket.id, { message: "The big one" });
    expect(await recipientsOf()).toEqual([user.id]);
  });
});

describe("feedback", () => {
  it("notifies the assignee only, with the star rating", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "Resolved",
    });
    await giveFeedback(as(user), ticket.id, { rating: 4, comment: "Quick, thanks" });
    const rows = await allNotifications();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: tech.id,
      type: "ticket_feedback",
      message: `Uma rated ticket "Printer on floor 2 jams" ★★★★☆ 4/5: Quick, thanks`,
      params: {
        kind: "feedback",
        title: "Printer on floor 2 jams",
        actor: "Uma",
        rating: 4,
        comment: "Quick, thanks",
      },
    });
  });
});

describe("assignment", () => {
  it("notifies the creator only", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id });
    await assignTicketToMe(as(tech), ticket.id);
    const rows = await allNotifications();
    expect(rows.map((r) => r.userId)).toEqual([user.id]);
    expect(rows[0]).toMatchObject({
      type: "ticket_assigned",
      ticketId: ticket.id,
      message: `Theo assigned ticket "Printer on floor 2 jams" to themselves; it is now In Progress`,
      params: { kind: "assigned_to_self", title: "Printer on floor 2 jams", actor: "Theo" },
    });
  });
});

describe("how a notification names its ticket", () => {
  it("shortens a long title in the message and keeps it whole in the params", async () => {
    const { user, tech } = await cast();
    const title =
      "The colour printer on the third floor prints every page twice and then jams on the last one";
    const ticket = await insertTicket(database.db, { createdBy: user.id, assignedTo: tech.id, title });
    await addComment(as(tech), ticket.id, { message: "On my way" });
    const [row] = await allNotifications();
    expect(row?.message).toBe(
      'Theo commented on ticket "The colour printer on the third floor prints every page…": On my way',
    );
    expect(row?.params).toMatchObject({ kind: "commented", title });
  });

  it("names it by its id when its title would sound the technicians' alert, the params keeping the title", async () => {
    const { user, tech, admin } = await cast();
    const title = "Ticket created twice by the form";
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
      title,
    });
    await changeTicketStatus(as(admin), ticket.id, { status: "Closed" });
    const forTech = (await allNotifications()).find((r) => r.userId === tech.id)!;
    // A status change must not raise the new-ticket alarm (the alert listens to "ticket created").
    expect(isTechnicianAlert(forTech)).toBe(false);
    expect(forTech.message).toBe(`Ada changed the status of ticket ${ticket.id} from In Progress to Closed`);
    expect(forTech.params).toMatchObject({ kind: "status_changed", title });
  });
});

describe("one transaction", () => {
  it("keeps no notification and announces nothing when the change rolls back afterwards", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await expect(
      inTransaction(as(tech), async (_tx, recordEvent) => {
        await recordEvent({ ticketId: ticket.id, type: "commented", actorId: tech.id });
        throw new Error("the change failed after recording its event");
      }),
    ).rejects.toThrow("the change failed");
    expect(await allNotifications()).toEqual([]);
    expect(announced).toEqual([]);
  });

  it("makes no change when its notification cannot be written", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await database.db.execute(
      sql`alter table notifications add constraint no_direct_in_this_test check (broadcast)`,
    );
    try {
      await expect(changeTicketStatus(as(tech), ticket.id, { status: "Resolved" })).rejects.toThrow();
      const [stored] = await database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
      expect(stored?.status).toBe("In Progress");
    } finally {
      await database.db.execute(sql`alter table notifications drop constraint no_direct_in_this_test`);
    }
  });
});
