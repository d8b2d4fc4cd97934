import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  mailOutbox,
  notificationSettings,
  notifications,
  teamAudience,
  users,
} from "#server/db/schema/index.ts";
import { inTransaction } from "#server/features/ticket-events/ticket-transaction.ts";
import { insertTeam, insertTicket, signedInAs } from "#server/test/factories.ts";
import { openStream, type SseStream } from "#server/test/sse.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Notification, NotificationCounts } from "#shared/notifications/notification.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { TicketActivity } from "#shared/tickets/ticket-activity.schemas.ts";

// Decision 069: a team ticket's new-ticket notification (and its push, alert and e-mail) reaches the team's
// technicians only; a technician in several teams reads them all as one list; a ticket moved to a team
// tells that team.

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp({ streams: { heartbeatMs: 60_000, sessionSweepMs: 60_000 } });
  baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const opened: SseStream[] = [];
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});

type Person = Awaited<ReturnType<typeof signedInAs>>;
const person = (role: "user" | "technician" | "admin") => signedInAs(t.app, t.database.db, role);
const send = (method: "GET" | "POST" | "PUT", url: string, cookie: string, payload?: object) =>
  request(t.app, { method, url, cookie, ...(payload ? { payload } : {}) });

const newTicket = {
  title: "VPN drops",
  description: "Every hour",
  category: "Network",
  priority: "Low",
  department: "Finance",
  floor: "3",
  officeNumber: "301",
};

async function raise(cookie: string, title: string): Promise<Ticket> {
  const response = await send("POST", "/api/tickets", cookie, { ...newTicket, title });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** A rule sending tickets whose title holds `word` to the team. */
async function route(admin: Person, word: string, teamId: string) {
  const response = await send("POST", "/api/routing/rules", admin.cookie, { titleWords: [word], teamId });
  expect(response.statusCode, response.body).toBe(201);
}

const titlesSeenBy = async ({ cookie }: Person, filter = "all") =>
  (await send("GET", `/api/notifications?filter=${filter}`, cookie))
    .json<{ items: Notification[] }>()
    .items.map((n) => (n.params && "title" in n.params ? n.params.title : n.message));
const countsOf = async ({ cookie }: Person) =>
  (await send("GET", "/api/notifications/counts", cookie)).json<NotificationCounts>();

describe("a team ticket's new-ticket notification", () => {
  it("reaches the team's technicians only: lists, counts and e-mail; no one outside the team sees anything new", async () => {
    const [user, admin, member, outsider] = [
      await person("user"),
      await person("admin"),
      await person("technician"),
      await person("technician"),
    ];
    const network = await insertTeam(t.database.db, { name: "Network", memberIds: [member.user.id] });
    await route(admin, "vpn", network.id);
    for (const who of [member, outsider]) {
      await t.database.db
        .insert(notificationSettings)
        .values({ userId: who.user.id, emailTypes: ["new_ticket"] });
    }
    const before = await countsOf(outsider);

    const ticket = await raise(user.cookie, "VPN drops");
    const [row] = await t.database.db.select().from(notifications);
    expect(row).toMatchObject({ audience: teamAudience(network.id), type: "new_ticket", userId: null });
    expect(await titlesSeenBy(member)).toEqual(["VPN drops"]);
    expect(await countsOf(member)).toEqual({ all: 1, unread: 1, read: 0 });
    expect(await titlesSeenBy(outsider)).toEqual([]);
    expect(await countsOf(outsider)).toEqual(before);
    // E-mail: only the member who wants new-ticket e-mails and is in the team.
    const mails = await t.database.db.select().from(mailOutbox);
    expect(mails.map((mail) => mail.toAddress)).toEqual([member.user.email]);
    // The outsider still finds the ticket in the list (teams narrow who is told, not who may see).
    const listed = await send("GET", "/api/tickets?scope=unassigned", outsider.cookie);
    expect(listed.json<{ items: Ticket[] }>().items.map((item) => [item.ticketId, item.teamName])).toEqual([
      [ticket.ticketId, "Network"],
    ]);
  });

  it("is pushed live to the team's members only", async () => {
    const [user, admin, member, outsider] = [
      await person("user"),
      await person("admin"),
      await person("technician"),
      await person("technician"),
    ];
    const network = await insertTeam(t.database.db, { name: "Network", memberIds: [member.user.id] });
    await route(admin, "vpn", network.id);
    const memberStream = await openStream(baseUrl, { cookie: member.cookie });
    const outsiderStream = await openStream(baseUrl, { cookie: outsider.cookie });
    opened.push(memberStream, outsiderStream);
    await Promise.all([memberStream, outsiderStream].map((s) => s.waitFor((e) => e.event === "ready")));

    const ticket = await raise(user.cookie, "VPN drops");
    const pushed = await memberStream.waitFor((e) => e.event === "notification");
    expect(JSON.parse(pushed.data)).toMatchObject({ type: "new_ticket", ticketId: ticket.ticketId });
    // The outsider's stream hears the list changed, and no notification (so no alert, no sound).
    await outsiderStream.waitFor((e) => e.event === "ticket");
    expect(outsiderStream.events.filter((e) => e.event === "notification")).toEqual([]);
    // With no team, every technician is told, as before teams.
    await raise(user.cookie, "Printer jams");
    await outsiderStream.waitFor((e) => e.event === "notification");
  });

  it("goes to every technician when its team has no active technician in it", async () => {
    const [user, admin, tech] = [await person("user"), await person("admin"), await person("technician")];
    const away = await person("technician");
    const empty = await insertTeam(t.database.db, { name: "Night shift", memberIds: [away.user.id] });
    await t.database.db.update(users).set({ status: "Inactive" }).where(eq(users.id, away.user.id));
    await route(admin, "vpn", empty.id);
    await raise(user.cookie, "VPN drops");
    const [row] = await t.database.db.select().from(notifications);
    expect(row?.audience).toBe("technicians");
    expect(await titlesSeenBy(tech)).toEqual(["VPN drops"]);
  });

  it("an unassigned team ticket's escalation goes to the team (and the admins), not every technician", async () => {
    const [user, admin, member, outsider] = [
      await person("user"),
      await person("admin"),
      await person("technician"),
      await person("technician"),
    ];
    const network = await insertTeam(t.database.db, { name: "Network", memberIds: [member.user.id] });
    const ticket = await insertTicket(t.database.db, {
      createdBy: user.user.id,
      teamId: network.id,
      title: "Slow",
    });
    await inTransaction({ db: t.database.db }, (_tx, recordEvent) =>
      recordEvent({
        ticketId: ticket.id,
        type: "sla_warning",
        slaTarget: "first_response",
        dueAt: new Date(),
      }),
    );
    expect(await titlesSeenBy(member)).toEqual(["Slow"]);
    expect(await titlesSeenBy(admin)).toEqual(["Slow"]);
    expect(await titlesSeenBy(outsider)).toEqual([]);
  });
});

describe("a technician in two teams", () => {
  it("reads both teams' notifications and the technicians' as one list: counts, pages, Mark All as Read and replay", async () => {
    const [user, admin, both, onlyNetwork] = [
      await person("user"),
      await person("admin"),
      await person("technician"),
      await person("technician"),
    ];
    const network = await insertTeam(t.database.db, {
      name: "Network",
      memberIds: [both.user.id, onlyNetwork.user.id],
    });
    const desk = await insertTeam(t.database.db, { name: "Desk", memberIds: [both.user.id] });
    await route(admin, "vpn", network.id);
    await route(admin, "printer", desk.id);
    const stream = await openStream(baseUrl, { cookie: both.cookie });
    opened.push(stream);
    const ready = JSON.parse((await stream.waitFor((e) => e.event === "ready")).data) as {
      lastEventId: string | null;
    };
    stream.close();

    await raise(user.cookie, "VPN drops");
    await raise(user.cookie, "Printer jams");
    await raise(user.cookie, "Monitor flickers");
    expect(await titlesSeenBy(both)).toEqual(["Monitor flickers", "Printer jams", "VPN drops"]);
    expect(await titlesSeenBy(onlyNetwork)).toEqual(["Monitor flickers", "VPN drops"]);
    expect(await countsOf(both)).toEqual({ all: 3, unread: 3, read: 0 });
    const page = (await send("GET", "/api/notifications?limit=2", both.cookie)).json<{
      items: Notification[];
      nextCursor: string | null;
    }>();
    expect(page.items).toHaveLength(2);
    const rest = await send("GET", `/api/notifications?limit=2&cursor=${page.nextCursor}`, both.cookie);
    expect(rest.json<{ items: Notification[] }>().items.map((n) => n.message)).toEqual([
      "NEW TICKET CREATED: VPN drops | Department: Finance | Floor: 3",
    ]);

    // Replay after the stream dropped: all three, each once, oldest first.
    const again = await openStream(baseUrl, { cookie: both.cookie, lastEventId: ready.lastEventId ?? "0" });
    opened.push(again);
    await again.waitFor((e) => e.event === "ready");
    expect(
      again.events
        .filter((e) => e.event === "notification")
        .map((e) => (JSON.parse(e.data) as Notification).params)
        .map((params) => (params && "title" in params ? params.title : null)),
    ).toEqual(["VPN drops", "Printer jams", "Monitor flickers"]);

    // Mark one read, then all: each of the person's audiences moves, the other member's stays.
    const [newest] = page.items;
    await send("POST", `/api/notifications/${newest!.notificationId}/read`, both.cookie);
    expect(await countsOf(both)).toEqual({ all: 3, unread: 2, read: 1 });
    const all = await send("POST", "/api/notifications/read-all", both.cookie);
    expect(all.json()).toEqual({ updated: 2 });
    expect(await countsOf(both)).toEqual({ all: 3, unread: 0, read: 3 });
    expect(await titlesSeenBy(both, "unread")).toEqual([]);
    expect(await countsOf(onlyNetwork)).toEqual({ all: 2, unread: 2, read: 0 });
  });
});

describe("changing a ticket's team", () => {
  async function world() {
    const [user, admin, assignee, member, outsider] = [
      await person("user"),
      await person("admin"),
      await person("technician"),
      await person("technician"),
      await person("technician"),
    ];
    const network = await insertTeam(t.database.db, {
      name: "Network",
      memberIds: [member.user.id, assignee.user.id],
    });
    const desk = await insertTeam(t.database.db, { name: "Desk", memberIds: [outsider.user.id] });
    return { user, admin, assignee, member, outsider, network, desk };
  }

  it("records the move in the timeline for staff and tells the new team, but not the one who moved it", async () => {
    const { user, admin, assignee, member, outsider, network } = await world();
    const ticket = await insertTicket(t.database.db, { createdBy: user.user.id, title: "Slow VPN" });
    const moved = await send("PUT", `/api/tickets/${ticket.id}/team`, assignee.cookie, {
      teamId: network.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<Ticket>()).toMatchObject({ teamId: network.id, teamName: "Network" });

    const timeline = (
      await send("GET", `/api/tickets/${ticket.id}/activity`, admin.cookie)
    ).json<TicketActivity>();
    expect(timeline.events.map((e) => [e.type, e.actorName, e.fromTeamName, e.toTeamName])).toEqual([
      ["team_changed", assignee.user.name, null, "Network"],
    ]);
    const [seen] = (await send("GET", "/api/notifications", member.cookie)).json<{ items: Notification[] }>()
      .items;
    expect(seen).toMatchObject({
      type: "ticket_team",
      message: `${assignee.user.name} moved ticket "Slow VPN" to team Network`,
      params: { kind: "team_changed", title: "Slow VPN", actor: assignee.user.name, team: "Network" },
    });
    expect(await titlesSeenBy(assignee)).toEqual([]);
    expect(await titlesSeenBy(outsider)).toEqual([]);
    // The requester sees neither the team nor the move.
    const mine = (await send("GET", `/api/tickets/${ticket.id}`, user.cookie)).json<Ticket>();
    expect([mine.teamId, mine.teamName]).toEqual([null, null]);
    const theirs = (
      await send("GET", `/api/tickets/${ticket.id}/activity`, user.cookie)
    ).json<TicketActivity>();
    expect(theirs.events).toEqual([]);
    expect(await titlesSeenBy(user)).toEqual([]);

    // Moving it where it is records nothing; out of any team tells no one.
    await send("PUT", `/api/tickets/${ticket.id}/team`, admin.cookie, { teamId: network.id });
    const out = await send("PUT", `/api/tickets/${ticket.id}/team`, admin.cookie, { teamId: null });
    expect(out.json<Ticket>().teamId).toBeNull();
    const after = (
      await send("GET", `/api/tickets/${ticket.id}/activity`, admin.cookie)
    ).json<TicketActivity>();
    expect(after.events.map((e) => [e.fromTeamName, e.toTeamName])).toEqual([
      [null, "Network"],
      ["Network", null],
    ]);
    expect(await titlesSeenBy(member)).toEqual(["Slow VPN"]);
  });

  it("lets staff who may see the ticket move it, refuses the rest, and changes nothing when refused", async () => {
    const { user, admin, assignee, outsider, network, desk } = await world();
    const other = await person("user");
    const ticket = await insertTicket(t.database.db, {
      createdBy: user.user.id,
      assignedTo: assignee.user.id,
      status: "In Progress",
    });
    const move = (who: Person, teamId: string | null = network.id, id = ticket.id) =>
      send("PUT", `/api/tickets/${id}/team`, who.cookie, { teamId });
    expect((await move(user)).statusCode).toBe(403);
    expect((await move(other)).statusCode).toBe(404);
    // The ticket is assigned to someone else: the other technician cannot see it.
    expect((await move(outsider)).statusCode).toBe(404);
    expect((await move(assignee, "team_doesnotexist")).statusCode).toBe(400);
    expect((await move(assignee, "not a team")).statusCode).toBe(400);
    const events = async () =>
      (await send("GET", `/api/tickets/${ticket.id}/activity`, admin.cookie)).json<TicketActivity>().events;
    expect(await events()).toEqual([]);
    expect((await move(assignee)).statusCode).toBe(200);
    expect((await move(admin, desk.id)).statusCode).toBe(200);
    const closed = await insertTicket(t.database.db, { createdBy: user.user.id, status: "Closed" });
    const refused = await move(admin, network.id, closed.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      message: "This ticket is closed; its team can no longer change.",
    });
    expect((await events()).map((e) => e.toTeamName)).toEqual(["Network", "Desk"]);
  });
});
