import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import {
  mailOutbox,
  notifications,
  ticketComments,
  ticketFollowers,
  tickets,
  users,
} from "#server/db/schema/index.ts";
import { insertTicket, insertUser, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { mentionToken } from "#shared/mentions/mentions.ts";
import type { Role } from "#shared/users/roles.ts";

// Decision 014: followers hear what the creator and assignee hear, through the one
// write path; staff mention staff. Nobody hears about their own act, nobody twice, nobody who may not see.

let t: TestApp;
type Person = { user: UserRow; cookie: string };
const people = {} as Record<
  "creator" | "otherUser" | "technician" | "assignee" | "otherTechnician" | "admin",
  Person
>;

beforeAll(async () => {
  t = await createTestApp();
  const roles: Record<keyof typeof people, Role> = {
    creator: "user",
    otherUser: "user",
    technician: "technician",
    assignee: "technician",
    otherTechnician: "technician",
    admin: "admin",
  };
  for (const [kind, role] of Object.entries(roles)) {
    people[kind as keyof typeof people] = await signedInAs(t.app, t.database.db, role);
  }
});
afterAll(() => t.close());

beforeEach(async () => {
  const { db } = t.database;
  await db.delete(mailOutbox);
  await db.delete(notifications);
  await db.delete(tickets);
  await db.update(users).set({ status: "Active" });
});

const follow = (ticketId: string, who: Person) =>
  request(t.app, { method: "PUT", url: `/api/tickets/${ticketId}/follow`, cookie: who.cookie });
const unfollow = (ticketId: string, who: Person) =>
  request(t.app, { method: "DELETE", url: `/api/tickets/${ticketId}/follow`, cookie: who.cookie });
const comment = (ticketId: string, who: Person, message: string, isInternal = false) =>
  request(t.app, {
    method: "POST",
    url: `/api/tickets/${ticketId}/comments`,
    cookie: who.cookie,
    payload: isInternal ? { message, isInternal } : { message },
  });
const setStatus = (ticketId: string, who: Person, status: string) =>
  request(t.app, {
    method: "PATCH",
    url: `/api/tickets/${ticketId}/status`,
    cookie: who.cookie,
    payload: { status },
  });

const notificationsOf = (who: Person) =>
  t.database.db.select().from(notifications).where(eq(notifications.userId, who.user.id));

/** Unassigned: creator, technician, otherTechnician and admin may see it. Assigned: creator, assignee, admin. */
const ticketOf = (assigned: boolean) =>
  insertTicket(t.database.db, {
    createdBy: people.creator.user.id,
    assignedTo: assigned ? people.assignee.user.id : null,
    status: assigned ? "In Progress" : "Open",
  });

describe("following a ticket", () => {
  it("is idempotent both ways and tells the caller whether they follow and how many do", async () => {
    const ticket = await ticketOf(true);
    const first = await follow(ticket.id, people.admin);
    const again = await follow(ticket.id, people.admin);
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual({
      following: true,
      implicit: null,
      followerCount: 1,
      followers: [{ id: people.admin.user.id, name: people.admin.user.name }],
    });
    expect(await t.database.db.select().from(ticketFollowers)).toHaveLength(1);

    expect((await unfollow(ticket.id, people.admin)).json()).toMatchObject({
      following: false,
      followerCount: 0,
    });
    expect((await unfollow(ticket.id, people.admin)).statusCode).toBe(200);
    expect(await t.database.db.select().from(ticketFollowers)).toHaveLength(0);
  });

  it("shows a user how many follow but not who, and that they hear about it as its creator", async () => {
    const ticket = await ticketOf(true);
    await follow(ticket.id, people.admin);
    const state = await request(t.app, {
      method: "GET",
      url: `/api/tickets/${ticket.id}/follow`,
      cookie: people.creator.cookie,
    });
    expect(state.json()).toEqual({
      following: false,
      implicit: "creator",
      followerCount: 1,
      followers: null,
    });
  });

  it("brings a follower the ticket's comments and status changes, in the app and by e-mail", async () => {
    const ticket = await ticketOf(true);
    await follow(ticket.id, people.admin);
    await comment(ticket.id, people.assignee, "Replacing the toner");
    await setStatus(ticket.id, people.assignee, "Resolved");
    const received = await notificationsOf(people.admin);
    expect(received.map((n) => [n.type, n.message])).toEqual([
      [
        "ticket_comment",
        `${people.assignee.user.name} commented on ticket "Printer on floor 2 jams": Replacing the toner`,
      ],
      [
        "ticket_status",
        `${people.assignee.user.name} changed the status of ticket "Printer on floor 2 jams" from In Progress to Resolved`,
      ],
    ]);
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.userId, people.admin.user.id));
    expect(mails).toHaveLength(2);
  });

  it("never tells a follower about their own comment, nor twice when they are also the assignee", async () => {
    const ticket = await ticketOf(true);
    await follow(ticket.id, people.admin);
    await follow(ticket.id, people.assignee);
    await comment(ticket.id, people.admin, "Checked the cable");
    expect(await notificationsOf(people.admin)).toEqual([]);
    expect(await notificationsOf(people.assignee)).toHaveLength(1);
    expect(await notificationsOf(people.creator)).toHaveLength(1);
  });

  it("never brings a user internal notes, even the creator who follows explicitly", async () => {
    const ticket = await ticketOf(true);
    await follow(ticket.id, people.creator);
    await follow(ticket.id, people.admin);
    // A stale row (say a technician since made a user) is filtered at notification time too.
    await t.database.db
      .insert(ticketFollowers)
      .values({ ticketId: ticket.id, userId: people.otherUser.user.id });
    await comment(ticket.id, people.assignee, "Vendor owes us a part", true);
    expect(await notificationsOf(people.creator)).toEqual([]);
    expect(await notificationsOf(people.otherUser)).toEqual([]);
    expect((await notificationsOf(people.admin)).map((n) => n.type)).toEqual(["internal_note"]);
  });

  it("stops notifying a technician who can no longer see the ticket, and resumes if they can again", async () => {
    const ticket = await ticketOf(false);
    expect((await follow(ticket.id, people.technician)).statusCode).toBe(200);
    await request(t.app, {
      method: "PUT",
      url: `/api/tickets/${ticket.id}/assignee`,
      cookie: people.admin.cookie,
      payload: { assigneeId: people.assignee.user.id },
    });
    await comment(ticket.id, people.creator, "Any news?");
    expect(await notificationsOf(people.technician)).toEqual([]);
    expect(await notificationsOf(people.assignee)).toHaveLength(2);

    await request(t.app, {
      method: "PUT",
      url: `/api/tickets/${ticket.id}/assignee`,
      cookie: people.admin.cookie,
      payload: { assigneeId: null },
    });
    await comment(ticket.id, people.creator, "Hello?");
    expect((await notificationsOf(people.technician)).map((n) => n.type)).toEqual([
      "ticket_assigned",
      "ticket_comment",
    ]);
  });

  it("sends nothing to a deactivated follower", async () => {
    const ticket = await ticketOf(true);
    await follow(ticket.id, people.admin);
    await t.database.db.update(users).set({ status: "Inactive" }).where(eq(users.id, people.admin.user.id));
    await comment(ticket.id, people.assignee, "Done");
    expect(await notificationsOf(people.admin)).toEqual([]);
  });

  it("answers 404 for a ticket the caller may not see, and follows nothing", async () => {
    const ticket = await ticketOf(true);
    expect((await follow(ticket.id, people.otherTechnician)).statusCode).toBe(404);
    expect((await follow(ticket.id, people.otherUser)).statusCode).toBe(404);
    expect(await t.database.db.select().from(ticketFollowers)).toEqual([]);
  });
});

describe("mentions", () => {
  const tokenOf = (who: Person) => mentionToken({ userId: who.user.id, name: who.user.name });

  it("notify a mentioned technician once, with the mentioned type, in an internal note", async () => {
    const ticket = await ticketOf(false);
    const other = people.otherTechnician;
    await follow(ticket.id, other);
    const response = await comment(
      ticket.id,
      people.technician,
      `${tokenOf(other)} can you take this? ${tokenOf(other)}`,
      true,
    );
    expect(response.statusCode).toBe(201);
    expect(response.json().mentions).toEqual({
      notified: [{ userId: other.user.id, name: other.user.name }],
      notNotified: [],
    });
    const received = await notificationsOf(other);
    const preview = `@${other.user.name} can you take this? @${other.user.name}`;
    expect(received.map((n) => [n.type, n.message, n.params])).toEqual([
      [
        "mentioned",
        `${people.technician.user.name} mentioned you in an internal note on ticket "Printer on floor 2 jams": ${preview}`,
        {
          kind: "mentioned",
          title: "Printer on floor 2 jams",
          actor: people.technician.user.name,
          preview,
          isInternal: true,
        },
      ],
    ]);
    const [mail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.userId, other.user.id));
    expect(mail?.subject).toContain("You were mentioned on");
  });

  it("do not notify whoever cannot see the ticket, is deactivated or is not staff, and say so", async () => {
    const ticket = await ticketOf(true);
    const inactiveAdmin = await insertUser(t.database.db, { role: "admin", status: "Inactive" });
    const message = [
      tokenOf(people.otherTechnician),
      tokenOf(people.creator),
      mentionToken({ userId: inactiveAdmin.id, name: inactiveAdmin.name }),
      mentionToken({ userId: "usr_nobody", name: "Ghost" }),
      tokenOf(people.admin),
    ].join(" ");
    const response = await comment(ticket.id, people.assignee, message);
    expect(response.json().mentions).toEqual({
      notified: [{ userId: people.admin.user.id, name: people.admin.user.name }],
      notNotified: [
        {
          userId: people.otherTechnician.user.id,
          name: people.otherTechnician.user.name,
          reason: "cannot_see_ticket",
        },
        { userId: people.creator.user.id, name: people.creator.user.name, reason: "not_staff" },
        { userId: inactiveAdmin.id, name: inactiveAdmin.name, reason: "inactive" },
        { userId: "usr_nobody", name: "Ghost", reason: "unknown" },
      ],
    });
    expect(await notificationsOf(people.otherTechnician)).toEqual([]);
    expect((await notificationsOf(people.admin)).map((n) => n.type)).toEqual(["mentioned"]);
    // The creator hears of the comment as always, as a comment.
    expect((await notificationsOf(people.creator)).map((n) => n.type)).toEqual(["ticket_comment"]);
  });

  it("give a mentioned assignee one notification, not a comment and a mention", async () => {
    const ticket = await ticketOf(true);
    await follow(ticket.id, people.assignee);
    await comment(ticket.id, people.admin, `${tokenOf(people.assignee)} please call them`);
    expect((await notificationsOf(people.assignee)).map((n) => n.type)).toEqual(["mentioned"]);
  });

  it("are plain text from a user: nobody is notified beyond the usual, and the token is not stored", async () => {
    const ticket = await ticketOf(true);
    const response = await comment(ticket.id, people.creator, `${tokenOf(people.admin)} help`);
    expect(response.json()).toMatchObject({
      message: `@${people.admin.user.name} help`,
      mentions: { notified: [], notNotified: [] },
    });
    expect(await notificationsOf(people.admin)).toEqual([]);
    expect((await notificationsOf(people.assignee)).map((n) => n.type)).toEqual(["ticket_comment"]);
    const [stored] = await t.database.db
      .select()
      .from(ticketComments)
      .where(and(eq(ticketComments.ticketId, ticket.id)));
    expect(stored?.message).toBe(`@${people.admin.user.name} help`);
  });

  it("of oneself notify nobody", async () => {
    const ticket = await ticketOf(true);
    const response = await comment(ticket.id, people.assignee, `note to ${tokenOf(people.assignee)}`);
    expect(response.json().mentions).toEqual({ notified: [], notNotified: [] });
    expect(await notificationsOf(people.assignee)).toEqual([]);
  });
});

describe("the staff directory", () => {
  const staff = (q: string, who: Person) =>
    request(t.app, { method: "GET", url: `/api/staff?q=${encodeURIComponent(q)}`, cookie: who.cookie });

  it("lists active technicians and admins matching the search, never users or deactivated staff", async () => {
    const zed = await insertUser(t.database.db, { role: "technician", name: "Zedekiah Quill" });
    await insertUser(t.database.db, { role: "technician", name: "Zedekiah Gone", status: "Inactive" });
    await insertUser(t.database.db, { role: "user", name: "Zedekiah User" });
    const response = await staff("zedek", people.technician);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([{ id: zed.id, name: "Zedekiah Quill", role: "technician" }]);
    expect((await staff("%", people.admin)).json()).toEqual([]);
  });

  it("is refused to users", async () => {
    expect((await staff("", people.creator)).statusCode).toBe(403);
  });
});
