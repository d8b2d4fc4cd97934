import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { accounts, mailOutbox, notifications, userChanges, users } from "#server/db/schema/index.ts";
import { insertUser, signedInAs, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { CreatedApiToken } from "#shared/api-tokens/api-token.schemas.ts";
import type { Ticket, TicketPage } from "#shared/tickets/ticket.schemas.ts";
import type { TicketActivity } from "#shared/tickets/ticket-activity.schemas.ts";
import { onlyStaffRaiseForOthers } from "./ticket-requester.service.ts";

// Decision 079: staff (a token or a session) raise a ticket for a requester, with another system's reference.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const db = () => t.database.db;

const newTicket = {
  title: "Disk almost full on fileserver",
  description: "Monitoring: /srv at 95 %.",
  category: "Hardware",
  priority: "High",
  department: "Finance",
  floor: "3",
  officeNumber: "301",
};

async function tokenOf(cookie: string): Promise<string> {
  const response = await request(t.app, {
    method: "POST",
    url: "/api/me/tokens",
    cookie,
    payload: { name: "Monitoring", scope: "write" },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedApiToken>().token;
}

/** POST /api/tickets with a token alone, as another system sends it. */
const raiseWithToken = (token: string, payload: Record<string, unknown>) =>
  t.app.inject({
    method: "POST",
    url: "/api/tickets",
    headers: { authorization: `Bearer ${token}` },
    payload,
  });

const raise = (cookie: string, payload: Record<string, unknown>) =>
  request(t.app, { method: "POST", url: "/api/tickets", cookie, payload });

const get = <T>(cookie: string, url: string) =>
  request(t.app, { method: "GET", url, cookie }).then((response) => {
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  });

const allowUnknownRequesters = async (isAllowed: boolean) => {
  const { cookie } = await signedInAs(t.app, db(), "admin");
  const saved = await request(t.app, {
    method: "PUT",
    url: "/api/admin/settings/ticket-intake",
    cookie,
    payload: { inviteUnknownRequesters: isAllowed },
  });
  expect(saved.statusCode, saved.body).toBe(200);
};

describe("POST /api/tickets for someone else (requesterEmail)", () => {
  it("makes the named person the requester of a technician's token's ticket: theirs to see, named by who raised it", async () => {
    const tech = await signedInAs(t.app, db(), "technician");
    const requester = await insertUser(db(), {
      role: "user",
      name: "Rita Requester",
      email: "rita@example.test",
    });
    const response = await raiseWithToken(await tokenOf(tech.cookie), {
      ...newTicket,
      requesterEmail: "Rita@Example.test",
      externalRef: "zabbix:event/4711",
    });
    expect(response.statusCode, response.body).toBe(201);
    const ticket = response.json<Ticket>();
    expect(ticket).toMatchObject({
      createdBy: requester.id,
      createdByName: "Rita Requester",
      externalRef: "zabbix:event/4711",
      status: "Open",
    });

    const ritaCookie = await signIn(t.app, requester.email);
    const hers = await get<TicketPage>(ritaCookie, "/api/tickets?scope=created");
    expect(hers.items.map((each) => each.ticketId)).toEqual([ticket.ticketId]);
    // The timeline's first entry names who raised it for her.
    const activity = await get<TicketActivity>(ritaCookie, `/api/tickets/${ticket.ticketId}/activity`);
    expect(activity.events[0]).toMatchObject({ type: "created", actorId: tech.user.id });

    // She hears of it as its creator: a status change tells her.
    const taken = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.ticketId}/assign`,
      cookie: tech.cookie,
    });
    expect(taken.statusCode, taken.body).toBe(200);
    const told = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, requester.id), eq(notifications.ticketId, ticket.ticketId)));
    expect(told).toHaveLength(1);
  });

  it("lets an administrator's session raise one for someone else too", async () => {
    const admin = await signedInAs(t.app, db(), "admin");
    const requester = await insertUser(db(), { role: "user" });
    const response = await raise(admin.cookie, { ...newTicket, requesterEmail: requester.email });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<Ticket>()).toMatchObject({ createdBy: requester.id, externalRef: null });
  });

  it("refuses a user naming someone else (403), whether or not the address has an account", async () => {
    const user = await signedInAs(t.app, db(), "user");
    const other = await insertUser(db(), { role: "user" });
    for (const requesterEmail of [other.email, "nobody@example.test"]) {
      const response = await raise(user.cookie, { ...newTicket, requesterEmail });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(onlyStaffRaiseForOthers);
    }
    // Their own address is the same as leaving it out.
    const own = await raise(user.cookie, { ...newTicket, requesterEmail: user.user.email.toUpperCase() });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json<Ticket>().createdBy).toBe(user.user.id);
  });

  it("still refuses a technician's ticket for themselves", async () => {
    const tech = await signedInAs(t.app, db(), "technician");
    expect((await raise(tech.cookie, newTicket)).statusCode).toBe(403);
    expect((await raise(tech.cookie, { ...newTicket, requesterEmail: tech.user.email })).statusCode).toBe(
      403,
    );
  });

  it("refuses a deactivated account and, unless the setting allows it, an unknown address (422)", async () => {
    const tech = await signedInAs(t.app, db(), "technician");
    const gone = await insertUser(db(), { role: "user", status: "Inactive", email: "gone@example.test" });
    const deactivated = await raise(tech.cookie, { ...newTicket, requesterEmail: gone.email });
    expect(deactivated.statusCode).toBe(422);
    expect(deactivated.json().message).toBe(
      "The account of gone@example.test is deactivated: an administrator can activate it in user management.",
    );
    const unknown = await raise(tech.cookie, { ...newTicket, requesterEmail: "new.person@example.test" });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe(
      "No account has the address new.person@example.test. Invite the person in user management first, or ask an administrator to allow new requesters in Admin settings › Ticket intake.",
    );
    expect(await db().select().from(users).where(eq(users.email, "new.person@example.test"))).toEqual([]);
  });

  it("invites an unknown address as a user when Ticket intake allows it, and nobody when the ticket is refused", async () => {
    await allowUnknownRequesters(true);
    const tech = await signedInAs(t.app, db(), "technician");
    // Refused inside its transaction (a file that is not an upload of theirs): the invitation goes with it.
    const refused = await raise(tech.cookie, {
      ...newTicket,
      requesterEmail: "new.person@example.test",
      attachmentIds: ["ATT0000000000000000"],
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(await db().select().from(users).where(eq(users.email, "new.person@example.test"))).toEqual([]);
    const response = await raise(tech.cookie, { ...newTicket, requesterEmail: "New.Person@example.test" });
    expect(response.statusCode, response.body).toBe(201);
    const [person] = await db().select().from(users).where(eq(users.email, "new.person@example.test"));
    expect(person).toMatchObject({
      role: "user",
      status: "Active",
      department: "Finance",
      name: "new.person",
    });
    expect(response.json<Ticket>().createdBy).toBe(person!.id);
    // Invited as Add user invites: no password yet, and the history names who invited them.
    expect(await db().select().from(accounts).where(eq(accounts.userId, person!.id))).toEqual([]);
    const history = await db().select().from(userChanges).where(eq(userChanges.userId, person!.id));
    expect(history).toMatchObject([{ action: "invited", actorId: tech.user.id }]);
    // The invitation's mail was queued with the ticket, signed by the technician.
    const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.userId, person!.id));
    expect(mail).toMatchObject({ kind: "invitation", toAddress: "new.person@example.test" });
    expect(mail!.text).toContain(`${tech.user.name} has created a Helpdesk account for you`);
  });

  it("refuses bad input with a sentence (400) before anyone is looked up", async () => {
    const tech = await signedInAs(t.app, db(), "technician");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ requesterEmail: "not an address" }, "requesterEmail: requesterEmail must be an e-mail address"],
      [{ externalRef: "x".repeat(201) }, "externalRef: externalRef must be at most 200 characters"],
      [{ externalRef: "   " }, "externalRef: externalRef must not be empty"],
    ];
    for (const [extra, message] of cases) {
      const response = await raise(tech.cookie, { ...newTicket, ...extra });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    }
  });
});

describe("GET /api/tickets?externalRef=", () => {
  it("lists the tickets raised with a reference (it need not be unique), within what the caller may see", async () => {
    const admin = await signedInAs(t.app, db(), "admin");
    const rita = await signedInAs(t.app, db(), "user");
    const otto = await insertUser(db(), { role: "user" });
    const raised: Ticket[] = [];
    for (const [requesterEmail, externalRef] of [
      [rita.user.email, "jira:OPS-1"],
      [otto.email, "jira:OPS-1"],
      [rita.user.email, "jira:OPS-2"],
    ] as const) {
      const response = await raise(admin.cookie, { ...newTicket, requesterEmail, externalRef });
      expect(response.statusCode, response.body).toBe(201);
      raised.push(response.json<Ticket>());
    }
    const all = await get<TicketPage>(admin.cookie, "/api/tickets?externalRef=jira%3AOPS-1");
    expect(all.items.map((each) => each.ticketId).sort()).toEqual(
      [raised[0]!.ticketId, raised[1]!.ticketId].sort(),
    );
    expect(all.total).toEqual({ count: 2, capped: false });
    const hers = await get<TicketPage>(rita.cookie, "/api/tickets?externalRef=jira%3AOPS-1");
    expect(hers.items.map((each) => each.ticketId)).toEqual([raised[0]!.ticketId]);
    const tooLong = await request(t.app, {
      method: "GET",
      url: `/api/tickets?externalRef=${"x".repeat(201)}`,
      cookie: admin.cookie,
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe(
      "querystring externalRef: externalRef must be at most 200 characters",
    );
  });
});
