import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ticketComments, ticketEvents, tickets, users } from "#server/db/schema/index.ts";
import { insertTeam, insertUser, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { AutomationRule } from "#shared/automation/automation-rule.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { TicketActivity } from "#shared/tickets/ticket-activity.schemas.ts";

// Decision 076: the rules run in the change's transaction, in order, each once per change, on the ticket
// as the rules before them left it; their own changes run no rules; a rule refused undoes only itself.

let t: TestApp;
type Person = Awaited<ReturnType<typeof signedInAs>>;
let user: Person;
let technician: Person;
let admin: Person;
let network: { id: string };

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.reset();
  user = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
  network = await insertTeam(t.database.db, { name: "Network", memberIds: [technician.user.id] });
});

async function addRule(payload: object): Promise<AutomationRule> {
  const response = await request(t.app, {
    method: "POST",
    url: "/api/automation/rules",
    cookie: admin.cookie,
    payload: { enabled: true, ...payload },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function raise(title: string, as: Person = user) {
  const response = await request(t.app, {
    method: "POST",
    url: "/api/tickets",
    cookie: as.cookie,
    payload: {
      title,
      description: "Since this morning",
      category: "Network",
      priority: "Low",
      department: "Sales",
      floor: "2",
      officeNumber: "201",
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Ticket>().ticketId;
}

const rowOf = async (id: string) =>
  (await t.database.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
const eventsOf = (id: string) =>
  t.database.db
    .select()
    .from(ticketEvents)
    .where(eq(ticketEvents.ticketId, id))
    .orderBy(asc(ticketEvents.createdAt), asc(ticketEvents.id));
const notesOf = async (id: string) =>
  (await t.database.db.select().from(ticketComments).where(eq(ticketComments.ticketId, id))).map((c) => [
    c.message,
    c.isInternal,
  ]);

const vpnToNetwork = () => ({
  name: "VPN to Network",
  trigger: "created",
  conditions: [{ field: "words", in: "title", value: ["vpn"] }],
  actions: {
    teamId: network.id,
    addTags: ["vpn"],
    priority: "High",
    note: "Known VPN outage: see the incident.",
  },
});

describe("rules run when a ticket is created", () => {
  it("give a matching new ticket the rule's team, tags, priority and note, as the rule's own changes", async () => {
    await addRule(vpnToNetwork());
    const vpn = await raise("VPN drops every ten minutes");
    const printer = await raise("Printer jams");

    expect(await rowOf(vpn)).toMatchObject({ teamId: network.id, tags: ["vpn"], priority: "High" });
    expect(await notesOf(vpn)).toEqual([["Known VPN outage: see the incident.", true]]);
    // The note is the rule's author's, not the requester's whose ticket set it off.
    const [note] = await t.database.db.select().from(ticketComments).where(eq(ticketComments.ticketId, vpn));
    expect(note!.authorId).toBe(admin.user.id);
    const ruleEvents = (await eventsOf(vpn)).filter((event) => event.viaKind === "rule");
    expect(ruleEvents.map((event) => event.type).sort()).toEqual(
      ["edited", "internal_note", "tags_changed", "team_changed"].sort(),
    );
    // One application: one batch, named after the rule, made by nobody.
    expect(new Set(ruleEvents.map((event) => event.batchId)).size).toBe(1);
    expect(ruleEvents.every((event) => event.viaName === "VPN to Network" && event.actorId === null)).toBe(
      true,
    );

    expect(await rowOf(printer)).toMatchObject({ teamId: null, tags: [], priority: "Low" });
    expect((await eventsOf(printer)).map((event) => event.type)).toEqual(["created"]);

    // Staff read the rule's entry; the requester does not see the team, the tags or the internal note.
    const staffView = await request(t.app, {
      method: "GET",
      url: `/api/tickets/${vpn}/activity`,
      cookie: admin.cookie,
    });
    expect(JSON.stringify(staffView.json())).toContain("VPN to Network");
    const requesterView = await request(t.app, {
      method: "GET",
      url: `/api/tickets/${vpn}/activity`,
      cookie: user.cookie,
    });
    const seen = JSON.stringify(requesterView.json());
    expect(seen).not.toContain("VPN to Network");
    expect(seen).not.toContain("Known VPN outage");
  });

  it("answer the requester with a shared canned response, its placeholders filled", async () => {
    const response = await request(t.app, {
      method: "POST",
      url: "/api/canned-responses",
      cookie: admin.cookie,
      payload: {
        title: "VPN outage",
        body: "Hello {{creator.firstName}}, the VPN is down for everyone; we are on it.",
        scope: "shared",
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    await addRule({ ...vpnToNetwork(), actions: { replyCannedResponseId: response.json().id } });
    const firstName = user.user.name.split(" ")[0];
    const vpn = await raise("VPN down again");
    expect(await notesOf(vpn)).toEqual([
      [`Hello ${firstName}, the VPN is down for everyone; we are on it.`, false],
    ]);
    const requesterView = await request(t.app, {
      method: "GET",
      url: `/api/tickets/${vpn}/activity`,
      cookie: user.cookie,
    });
    expect(JSON.stringify(requesterView.json())).toContain("the VPN is down for everyone");
  });

  it("leave tickets alone while switched off", async () => {
    const rule = await addRule(vpnToNetwork());
    await request(t.app, {
      method: "PUT",
      url: `/api/automation/rules/${rule.id}/enabled`,
      cookie: admin.cookie,
      payload: { enabled: false },
    });
    const vpn = await raise("VPN is down");
    expect(await rowOf(vpn)).toMatchObject({ teamId: null, tags: [], priority: "Low" });
  });
});

describe("rules run when a ticket changes", () => {
  const comment = (ticketId: string, as: Person, message: string) =>
    request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticketId}/comments`,
      cookie: as.cookie,
      payload: { message },
    });

  it("run in order on the ticket the rules before left, each once, and never again for their own changes", async () => {
    await addRule({
      name: "Requester replied",
      trigger: "changed",
      conditions: [{ field: "changed_by", value: "requester" }],
      actions: { priority: "Medium" },
    });
    await addRule({
      name: "Medium is watched",
      trigger: "changed",
      conditions: [{ field: "priority", op: "is", value: "Medium" }],
      actions: { addTags: ["watched"], note: "Watching this one." },
    });
    const ticketId = await raise("Monitor flickers");
    expect((await comment(ticketId, user, "Still flickering")).statusCode).toBe(201);

    expect(await rowOf(ticketId)).toMatchObject({ priority: "Medium", tags: ["watched"] });
    // The note is itself a change; had it run the rules again, "Medium is watched" would have noted twice.
    expect((await notesOf(ticketId)).filter(([, internal]) => internal)).toEqual([
      ["Watching this one.", true],
    ]);

    // A technician's comment is not the requester's: the first rule holds no more; the second notes again.
    expect((await comment(ticketId, technician, "Trying a new cable")).statusCode).toBe(201);
    expect((await notesOf(ticketId)).filter(([, internal]) => internal)).toHaveLength(2);
  });

  it("undo a refused rule's changes and no more: the person's change and the other rules stand", async () => {
    const leaver = await insertUser(t.database.db, { role: "technician", name: "Lee Leaving" });
    await addRule({
      name: "Give to Lee",
      trigger: "changed",
      conditions: [],
      actions: { addTags: ["lee"], assigneeId: leaver.id },
    });
    await addRule({
      name: "Tag every change",
      trigger: "changed",
      conditions: [],
      actions: { addTags: ["seen"] },
    });
    await t.database.db.update(users).set({ status: "Inactive" }).where(eq(users.id, leaver.id));
    const ticketId = await raise("Keyboard sticky");
    const answer = await comment(ticketId, user, "The E key too");
    expect(answer.statusCode, answer.body).toBe(201);

    expect(await rowOf(ticketId)).toMatchObject({ assignedTo: null, tags: ["seen"] });
    expect((await notesOf(ticketId)).map(([message]) => message)).toEqual(["The E key too"]);
    const byRules = (await eventsOf(ticketId)).filter((event) => event.viaName);
    expect(byRules.map((event) => [event.viaName, event.type, event.actorId])).toEqual([
      ["Give to Lee", "rule_refused", null],
      ["Tag every change", "tags_changed", null],
    ]);
    expect(byRules[0]!.note).toMatch(/^Assignee: /);

    // Staff read why on the timeline; the requester sees neither rule's entry.
    const activity = (as: Person) =>
      request(t.app, { method: "GET", url: `/api/tickets/${ticketId}/activity`, cookie: as.cookie });
    const staffEvents = (await activity(technician)).json<TicketActivity>().events;
    const refused = staffEvents.find((event) => event.type === "rule_refused");
    expect(refused).toMatchObject({ actorId: null, via: { kind: "rule", name: "Give to Lee" } });
    expect(refused?.message).toMatch(/^Assignee: /);
    const userTypes = (await activity(user)).json<TicketActivity>().events.map((event) => event.type);
    expect(userTypes).not.toContain("rule_refused");
    expect(userTypes).not.toContain("tags_changed");
  });
});

describe("a rule's notice", () => {
  const notificationsOf = async (as: Person) =>
    (await request(t.app, { method: "GET", url: "/api/notifications", cookie: as.cookie })).json<{
      items: Array<{ type: string; ticketId: string | null; message: string }>;
    }>().items;

  it("reaches the people and the teams' technicians it names, once each, and nobody else", async () => {
    const other = await signedInAs(t.app, t.database.db, "technician");
    await addRule({
      name: "Tell Network",
      trigger: "created",
      conditions: [{ field: "words", in: "title", value: ["vpn"] }],
      actions: { notify: { userIds: [admin.user.id, technician.user.id], teamIds: [network.id] } },
    });
    const ticketId = await raise("VPN drops every hour");

    const notices = async (as: Person) =>
      (await notificationsOf(as)).filter((notification) => notification.type === "rule_notice");
    expect(await notices(admin)).toEqual([
      expect.objectContaining({
        ticketId,
        message: 'The automation rule “Tell Network” asks you to look at ticket "VPN drops every hour"',
      }),
    ]);
    expect(await notices(technician)).toHaveLength(1);
    expect(await notices(other)).toHaveLength(0);
    expect(await notices(user)).toHaveLength(0);
    const notified = (await eventsOf(ticketId)).find((event) => event.type === "rule_notified");
    expect(notified).toMatchObject({ actorId: null, viaName: "Tell Network" });
    expect(notified?.note).toContain("Network");
  });

  it("is refused when it names someone who is not active staff, or no one", async () => {
    const add = (notify: object) =>
      request(t.app, {
        method: "POST",
        url: "/api/automation/rules",
        cookie: admin.cookie,
        payload: { name: "Tell", trigger: "created", conditions: [], actions: { notify } },
      });
    const toUser = await add({ userIds: [user.user.id] });
    expect(toUser.statusCode).toBe(400);
    expect(toUser.json().message).toBe("Notify: choose active staff members");
    const toNobody = await add({ userIds: [], teamIds: [] });
    expect(toNobody.statusCode).toBe(400);
    expect(toNobody.json().message).toContain("Notify: choose at least one person or team");
  });
});
