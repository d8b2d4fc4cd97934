import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  incidentSubscribers,
  notifications,
  ticketComments,
  ticketEvents,
  tickets,
} from "#server/db/schema/index.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { tableSnapshotter } from "#server/test/table-snapshot.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type {
  AddAffectedResult,
  KnownIssue,
  KnownIssues,
  PostedIncidentUpdate,
  TicketIncident,
} from "#shared/major-incidents/major-incident.schemas.ts";
import type { TicketActivity } from "#shared/tickets/ticket-activity.schemas.ts";

// Decision 077: staff declare a ticket a major incident, link the tickets it affects, post public updates
// that reach each affected ticket's requester, and resolve it with them; its public face (the known issue)
// is every signed-in person's while open, its followers' and affected requesters' after.

let t: TestApp;
type Person = Awaited<ReturnType<typeof signedInAs>>;
let requester: Person;
let otherUser: Person;
let technician: Person;
let otherTechnician: Person;
let admin: Person;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.reset();
  requester = await signedInAs(t.app, t.database.db, "user");
  otherUser = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  otherTechnician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
});

const send = (
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  cookie: string | null,
  payload?: object,
) => request(t.app, { method, url, cookie, ...(payload ? { payload } : {}) });

/** A ticket of `by`, assigned to the technician (In Progress) unless `assignedTo` says otherwise. */
const ticketOf = (by: Person, values: { assignedTo?: string | null; status?: "Closed" | "Resolved" } = {}) =>
  insertTicket(t.database.db, {
    createdBy: by.user.id,
    assignedTo: values.assignedTo === undefined ? technician.user.id : values.assignedTo,
    status: values.status ?? (values.assignedTo === null ? "Open" : "In Progress"),
  });

const headline = "VPN unavailable — we are working on it";
const declare = (ticketId: string, who: Person | null, body: object = { headline }) =>
  send("PUT", `/api/tickets/${ticketId}/major-incident`, who?.cookie ?? null, body);
const addAffected = (ticketId: string, who: Person | null, ticketIds: string[]) =>
  send("POST", `/api/tickets/${ticketId}/incident/affected`, who?.cookie ?? null, { ticketIds });
const postUpdate = (ticketId: string, who: Person | null, body: string) =>
  send("POST", `/api/tickets/${ticketId}/incident/updates`, who?.cookie ?? null, { body });
const knownIssue = (ticketId: string, who: Person | null) =>
  send("GET", `/api/known-issues/${ticketId}`, who?.cookie ?? null);
const follow = (ticketId: string, who: Person | null) =>
  send("PUT", `/api/known-issues/${ticketId}/follow`, who?.cookie ?? null);

async function declared(ticketId: string, who = technician) {
  const response = await declare(ticketId, who);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TicketIncident>();
}

async function affected(incidentId: string, ticketIds: string[], who = technician) {
  const response = await addAffected(incidentId, who, ticketIds);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AddAffectedResult>();
}

async function statusOf(ticketId: string) {
  const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticketId));
  return row!.status;
}

const notificationsOf = (userId: string) =>
  t.database.db.select().from(notifications).where(eq(notifications.userId, userId));

describe("who may run a major incident and read its face, for every role", () => {
  it("answers each route for signed out, user, technician, another technician and admin; a refusal changes nothing", async () => {
    const incident = await ticketOf(requester);
    const other = await ticketOf(requester);
    await declared(incident.id);
    const snapshot = await tableSnapshotter(t.database.db);
    const before = await snapshot();
    const refusals: Array<[string, () => Promise<{ statusCode: number; body: string }>, number]> = [
      ["GET signed out", () => send("GET", `/api/tickets/${incident.id}/major-incident`, null), 401],
      [
        "GET another user",
        () => send("GET", `/api/tickets/${incident.id}/major-incident`, otherUser.cookie),
        404,
      ],
      ["PUT signed out", () => declare(incident.id, null), 401],
      ["PUT requester", () => declare(incident.id, requester, { headline: "x" }), 403],
      ["PUT another user", () => declare(incident.id, otherUser, { headline: "x" }), 404],
      ["PUT another technician", () => declare(incident.id, otherTechnician, { headline: "x" }), 404],
      [
        "DELETE requester",
        () => send("DELETE", `/api/tickets/${incident.id}/major-incident`, requester.cookie),
        403,
      ],
      [
        "DELETE another technician",
        () => send("DELETE", `/api/tickets/${incident.id}/major-incident`, otherTechnician.cookie),
        404,
      ],
      ["POST affected signed out", () => addAffected(incident.id, null, [other.id]), 401],
      ["POST affected requester", () => addAffected(incident.id, requester, [other.id]), 403],
      ["POST affected another user", () => addAffected(incident.id, otherUser, [other.id]), 404],
      ["POST affected another technician", () => addAffected(incident.id, otherTechnician, [other.id]), 404],
      [
        "DELETE affected requester",
        () => send("DELETE", `/api/tickets/${incident.id}/incident/affected/${other.id}`, requester.cookie),
        403,
      ],
      [
        "DELETE affected another technician",
        () =>
          send("DELETE", `/api/tickets/${incident.id}/incident/affected/${other.id}`, otherTechnician.cookie),
        404,
      ],
      [
        "DELETE affected not affected",
        () => send("DELETE", `/api/tickets/${incident.id}/incident/affected/${other.id}`, technician.cookie),
        404,
      ],
      ["POST update signed out", () => postUpdate(incident.id, null, "x"), 401],
      ["POST update requester", () => postUpdate(incident.id, requester, "x"), 403],
      ["POST update another user", () => postUpdate(incident.id, otherUser, "x"), 404],
      ["POST update another technician", () => postUpdate(incident.id, otherTechnician, "x"), 404],
      ["GET known issues signed out", () => send("GET", "/api/known-issues", null), 401],
      ["GET known issue signed out", () => knownIssue(incident.id, null), 401],
      ["PUT follow signed out", () => follow(incident.id, null), 401],
      ["GET known issue of an ordinary ticket", () => knownIssue(other.id, admin), 404],
      ["PUT declare with an empty headline", () => declare(incident.id, technician, { headline: " " }), 400],
      [
        "PUT declare with a long headline",
        () => declare(incident.id, technician, { headline: "x".repeat(121) }),
        400,
      ],
      ["POST affected with no tickets", () => addAffected(incident.id, technician, []), 400],
      ["POST update with nothing", () => postUpdate(incident.id, technician, "  "), 400],
    ];
    for (const [label, act, status] of refusals) {
      const response = await act();
      expect(response.statusCode, `${label}: ${response.body}`).toBe(status);
      expect(JSON.parse(response.body).message, label).toMatch(/\w/);
    }
    expect(await snapshot(), "refusals change nothing").toEqual(before);
    // Every signed-in person reads an open incident's face and the list; staff and admin run it.
    for (const who of [requester, otherUser, technician, otherTechnician, admin]) {
      expect((await knownIssue(incident.id, who)).statusCode).toBe(200);
      const list = (await send("GET", "/api/known-issues", who.cookie)).json<KnownIssues>();
      expect(list.items.map((item) => item.ticketId)).toEqual([incident.id]);
    }
    expect((await declare(incident.id, admin, { headline: "VPN down" })).statusCode).toBe(200);
    expect((await affected(incident.id, [other.id], admin)).linked).toEqual([other.id]);
    expect((await postUpdate(incident.id, admin, "Working on it")).statusCode).toBe(201);
    const face = (await knownIssue(incident.id, otherUser)).json<KnownIssue>();
    expect(face).toMatchObject({ headline: "VPN down", status: "In Progress", following: false });
    expect(Object.keys(face).sort()).toEqual([
      "declaredAt",
      "following",
      "headline",
      "status",
      "ticketId",
      "updates",
    ]);
  });
});

describe("declaring and ending", () => {
  it("declares, changes the headline keeping the declared time, and ends, with staff-only entries", async () => {
    const ticket = await ticketOf(requester);
    const first = await declared(ticket.id);
    expect(first.incident).toMatchObject({ headline, affected: [] });
    const changed = await declared(ticket.id, admin).then(() =>
      declare(ticket.id, technician, { headline: "VPN down" }),
    );
    expect(changed.json<TicketIncident>().incident?.declaredAt).toBe(first.incident?.declaredAt);
    expect(
      (await send("DELETE", `/api/tickets/${ticket.id}/major-incident`, technician.cookie)).statusCode,
    ).toBe(204);
    const after = (
      await send("GET", `/api/tickets/${ticket.id}/major-incident`, technician.cookie)
    ).json<TicketIncident>();
    expect(after.incident).toBeNull();
    const staff = (
      await send("GET", `/api/tickets/${ticket.id}/activity`, technician.cookie)
    ).json<TicketActivity>();
    expect(staff.events.map((event) => event.type).filter((type) => type.startsWith("incident"))).toEqual([
      "incident_declared",
      "incident_declared",
      "incident_ended",
    ]);
    const mine = (
      await send("GET", `/api/tickets/${ticket.id}/activity`, requester.cookie)
    ).json<TicketActivity>();
    expect(mine.events.some((event) => event.type.startsWith("incident"))).toBe(false);
    expect(await notificationsOf(requester.user.id)).toEqual([]);
  });

  it("refuses a Closed ticket, a merged one and one affected by another incident; ending an ordinary ticket", async () => {
    const closed = await ticketOf(requester, { status: "Closed" });
    expect((await declare(closed.id, admin)).statusCode).toBe(409);
    const incident = await ticketOf(requester);
    const victim = await ticketOf(requester);
    await declared(incident.id);
    await affected(incident.id, [victim.id]);
    const response = await declare(victim.id, technician);
    expect(response.statusCode).toBe(409);
    expect(response.json<{ message: string }>().message).toContain(
      `affected by the major incident ${incident.id}`,
    );
    const plain = await ticketOf(requester);
    expect(
      (await send("DELETE", `/api/tickets/${plain.id}/major-incident`, technician.cookie)).statusCode,
    ).toBe(409);
  });
});

describe("affected tickets", () => {
  it("links several at once and answers each refusal with a sentence", async () => {
    const incident = await ticketOf(requester);
    const other = await ticketOf(otherUser);
    await declared(incident.id);
    const plain = await ticketOf(otherUser);
    const closed = await ticketOf(otherUser, { status: "Closed" });
    const hidden = await ticketOf(otherUser, { assignedTo: otherTechnician.user.id });
    const otherIncident = await ticketOf(otherUser);
    await declared(otherIncident.id);
    const elsewhere = await ticketOf(otherUser);
    await affected(otherIncident.id, [elsewhere.id]);
    const result = await affected(incident.id, [
      other.id,
      plain.id,
      closed.id,
      hidden.id,
      otherIncident.id,
      elsewhere.id,
      incident.id,
    ]);
    expect(result.linked).toEqual([other.id, plain.id]);
    const why = Object.fromEntries(result.refused.map((refusal) => [refusal.ticketId, refusal.message]));
    expect(why[closed.id]).toBe(`${closed.id} is closed.`);
    expect(why[hidden.id]).toBe(`Ticket ${hidden.id} not found`);
    expect(why[otherIncident.id]).toBe(`${otherIncident.id} is itself a major incident.`);
    expect(why[elsewhere.id]).toBe(
      `${elsewhere.id} is already affected by the major incident ${otherIncident.id}.`,
    );
    expect(why[incident.id]).toBe("A major incident cannot affect itself.");
    const again = await affected(incident.id, [other.id]);
    expect(again.refused[0]?.message).toBe(`${other.id} is already affected by this major incident.`);
    // Staff's card lists them; the links panel reads them from both sides.
    const card = (
      await send("GET", `/api/tickets/${incident.id}/major-incident`, technician.cookie)
    ).json<TicketIncident>();
    expect(card.incident?.affected.map((row) => row.ticketId).sort()).toEqual([other.id, plain.id].sort());
    const links = (await send("GET", `/api/tickets/${other.id}/links`, technician.cookie)).json<{
      items: Array<{ relation: string }>;
    }>();
    expect(links.items.map((item) => item.relation)).toEqual(["affected_by"]);
    // The affected ticket's requester sees the incident's face on their ticket, but not the ticket itself.
    const banner = (
      await send("GET", `/api/tickets/${other.id}/major-incident`, otherUser.cookie)
    ).json<TicketIncident>();
    expect(banner).toEqual({
      incident: null,
      affectedBy: { ticketId: incident.id, headline, status: "In Progress" },
    });
    expect((await send("GET", `/api/tickets/${incident.id}`, otherUser.cookie)).statusCode).toBe(404);
    // Unlinked: the banner goes.
    expect(
      (await send("DELETE", `/api/tickets/${incident.id}/incident/affected/${other.id}`, technician.cookie))
        .statusCode,
    ).toBe(204);
    const gone = (
      await send("GET", `/api/tickets/${other.id}/major-incident`, otherUser.cookie)
    ).json<TicketIncident>();
    expect(gone.affectedBy).toBeNull();
  });
});

describe("updates and the resolution", () => {
  it("posts an update on every affected ticket as a public comment, telling each requester and the followers", async () => {
    const incident = await ticketOf(requester);
    await declared(incident.id);
    const one = await ticketOf(otherUser);
    const follower = await signedInAs(t.app, t.database.db, "user");
    const third = await signedInAs(t.app, t.database.db, "user");
    const two = await ticketOf(third);
    const closed = await ticketOf(third);
    await affected(incident.id, [one.id, two.id, closed.id]);
    await t.database.db.update(tickets).set({ status: "Closed" }).where(eq(tickets.id, closed.id));
    expect((await follow(incident.id, follower)).json()).toEqual({ following: true });
    expect((await follow(incident.id, follower)).json()).toEqual({ following: true });
    const response = await postUpdate(incident.id, technician, "The gateway is being replaced.");
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<PostedIncidentUpdate>().postedOn).toBe(2);
    for (const [ticketId, who] of [
      [one.id, otherUser],
      [two.id, third],
    ] as const) {
      const activity = (
        await send("GET", `/api/tickets/${ticketId}/activity`, who.cookie)
      ).json<TicketActivity>();
      expect(activity.comments.map((row) => row.message)).toEqual(["The gateway is being replaced."]);
      expect(activity.events.at(-1)?.via ?? null).toBeNull();
      const told = await notificationsOf(who.user.id);
      expect(told.map((row) => [row.type, row.ticketId])).toEqual([["ticket_comment", ticketId]]);
    }
    const closedComments = await t.database.db
      .select()
      .from(ticketComments)
      .where(eq(ticketComments.ticketId, closed.id));
    expect(closedComments).toEqual([]);
    const staff = (
      await send("GET", `/api/tickets/${one.id}/activity`, technician.cookie)
    ).json<TicketActivity>();
    expect(staff.events.at(-1)?.via).toMatchObject({ kind: "incident", id: incident.id, name: headline });
    const [notice] = await notificationsOf(follower.user.id);
    expect(notice).toMatchObject({ type: "known_issue", ticketId: null });
    expect(notice?.params).toMatchObject({ kind: "known_issue", incidentId: incident.id, title: headline });
    // The face shows the update to anyone while open.
    const face = (await knownIssue(incident.id, otherTechnician)).json<KnownIssue>();
    expect(face.updates.map((update) => update.body)).toEqual(["The gateway is being replaced."]);
  });

  it("resolving the incident resolves its Open and In Progress tickets with the last update, leaves the others, and tells the followers", async () => {
    const incident = await ticketOf(requester);
    await declared(incident.id);
    const open = await ticketOf(otherUser, { assignedTo: null });
    const colleagues = await ticketOf(otherUser, { assignedTo: otherTechnician.user.id });
    const resolved = await ticketOf(otherUser);
    await affected(incident.id, [open.id, resolved.id]);
    await affected(incident.id, [colleagues.id], admin);
    await t.database.db.update(tickets).set({ status: "Resolved" }).where(eq(tickets.id, resolved.id));
    const follower = await signedInAs(t.app, t.database.db, "user");
    await follow(incident.id, follower);
    await postUpdate(incident.id, technician, "Fixed: the gateway was replaced.");
    const response = await send("PATCH", `/api/tickets/${incident.id}/status`, technician.cookie, {
      status: "Resolved",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await statusOf(open.id)).toBe("Resolved");
    expect(await statusOf(colleagues.id)).toBe("Resolved");
    expect(await statusOf(resolved.id)).toBe("Resolved");
    const comments = await t.database.db
      .select()
      .from(ticketComments)
      .where(eq(ticketComments.ticketId, open.id));
    expect(comments.map((row) => row.message)).toEqual([
      "Fixed: the gateway was replaced.",
      "Fixed: the gateway was replaced.",
    ]);
    const untouched = await t.database.db
      .select()
      .from(ticketComments)
      .where(eq(ticketComments.ticketId, resolved.id));
    // The update reached it (it was not Closed); the resolution did not (it was Resolved already).
    expect(untouched.map((row) => row.message)).toEqual(["Fixed: the gateway was replaced."]);
    const events = await t.database.db
      .select()
      .from(ticketEvents)
      .where(and(eq(ticketEvents.ticketId, open.id), eq(ticketEvents.type, "status_changed")));
    expect(events.map((event) => [event.toStatus, event.viaKind, event.viaId])).toEqual([
      ["Resolved", "incident", incident.id],
    ]);
    const notices = await notificationsOf(follower.user.id);
    expect(notices.map((row) => (row.params as { resolved: boolean }).resolved)).toEqual([false, true]);
    const told = await notificationsOf(otherUser.user.id);
    expect(told.filter((row) => row.type === "ticket_status")).toHaveLength(2);
    // Once resolved, no new follower.
    expect((await follow(incident.id, otherUser)).statusCode).toBe(409);
  });

  it("resolves with a sentence naming the incident when it had no update, in the bulk action too", async () => {
    const incident = await ticketOf(requester);
    await declared(incident.id);
    const one = await ticketOf(otherUser);
    await affected(incident.id, [one.id]);
    const response = await send("POST", "/api/tickets/bulk", technician.cookie, {
      ticketIds: [incident.id],
      action: { kind: "status", status: "Resolved" },
    });
    expect(response.statusCode, response.body).toBe(200);
    const comments = await t.database.db
      .select()
      .from(ticketComments)
      .where(eq(ticketComments.ticketId, one.id));
    expect(comments.map((row) => row.message)).toEqual([
      `Resolved with the major incident ${incident.id}: ${headline}`,
    ]);
    expect(await statusOf(one.id)).toBe("Resolved");
  });
});

describe("resolved by a macro", () => {
  it("resolves the affected tickets with the macro's public reply, the resolver's own words", async () => {
    const incident = await ticketOf(requester);
    await declared(incident.id);
    const one = await ticketOf(otherUser);
    await affected(incident.id, [one.id]);
    await postUpdate(incident.id, technician, "Still working on it.");
    const macro = await send("POST", "/api/macros", technician.cookie, {
      title: "VPN fixed",
      body: "The VPN is back: the gateway was replaced.",
      actions: { status: "Resolved" },
    });
    expect(macro.statusCode, macro.body).toBe(201);
    const macroId = macro.json<{ id: string }>().id;
    const applied = await send(
      "POST",
      `/api/tickets/${incident.id}/macros/${macroId}/apply`,
      technician.cookie,
    );
    expect(applied.statusCode, applied.body).toBe(200);
    expect(await statusOf(one.id)).toBe("Resolved");
    const comments = await t.database.db
      .select()
      .from(ticketComments)
      .where(eq(ticketComments.ticketId, one.id));
    expect(comments.map((row) => row.message)).toEqual([
      "Still working on it.",
      "The VPN is back: the gateway was replaced.",
    ]);
  });
});

describe("the public face's visibility", () => {
  it("shows a resolved incident's face only to its followers, affected requesters and who may see the ticket", async () => {
    const incident = await ticketOf(requester);
    await declared(incident.id);
    const affectedTicket = await ticketOf(otherUser);
    await affected(incident.id, [affectedTicket.id]);
    const follower = await signedInAs(t.app, t.database.db, "user");
    const stranger = await signedInAs(t.app, t.database.db, "user");
    await follow(incident.id, follower);
    expect((await knownIssue(incident.id, stranger)).statusCode).toBe(200);
    await send("PATCH", `/api/tickets/${incident.id}/status`, technician.cookie, { status: "Resolved" });
    expect((await knownIssue(incident.id, stranger)).statusCode).toBe(404);
    expect((await follow(incident.id, stranger)).statusCode).toBe(404);
    expect((await knownIssue(incident.id, follower)).json<KnownIssue>().status).toBe("Resolved");
    expect((await knownIssue(incident.id, otherUser)).statusCode).toBe(200);
    expect((await knownIssue(incident.id, requester)).statusCode).toBe(200);
    expect((await knownIssue(incident.id, otherTechnician)).statusCode).toBe(404);
    const list = (await send("GET", "/api/known-issues", follower.cookie)).json<KnownIssues>();
    expect(list.items).toEqual([]);
    // Stop following is idempotent, and takes the face away from a follower who is nothing else.
    expect((await send("DELETE", `/api/known-issues/${incident.id}/follow`, follower.cookie)).json()).toEqual(
      { following: false },
    );
    expect((await knownIssue(incident.id, follower)).statusCode).toBe(404);
    const rows = await t.database.db.select().from(incidentSubscribers);
    expect(rows).toEqual([]);
  });
});
