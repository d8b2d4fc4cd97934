import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notifications, ticketEvents, tickets } from "#server/db/schema/index.ts";
import { createTestClock } from "#server/test/clock.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { changedTables, tableSnapshotter } from "#server/test/table-snapshot.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Ticket, TicketPage, TicketSummary } from "#shared/tickets/ticket.schemas.ts";
import type { TicketActivity } from "#shared/tickets/ticket-activity.schemas.ts";

// Decision 070: staff put an In Progress ticket on hold with a public comment, change its lift date and
// take it off hold; the requester's reply and any status change end it too. Through the routes.

const clock = createTestClock(new Date("2030-01-07T10:00:00Z"));
let t: TestApp;
let snapshot: Awaited<ReturnType<typeof tableSnapshotter>>;
beforeAll(async () => {
  t = await createTestApp({ clock });
  snapshot = await tableSnapshotter(t.database.db);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.reset();
  clock.set(new Date("2030-01-07T10:00:00Z"));
});

const hour = 3_600_000;

async function cast() {
  const db = t.database.db;
  const [creator, technician, otherTechnician, admin] = [
    await signedInAs(t.app, db, "user"),
    await signedInAs(t.app, db, "technician"),
    await signedInAs(t.app, db, "technician"),
    await signedInAs(t.app, db, "admin"),
  ];
  const ticket = await insertTicket(db, {
    createdBy: creator.user.id,
    assignedTo: technician.user.id,
    status: "In Progress",
    createdAt: new Date(clock.now().getTime() - hour),
  });
  return { creator, technician, otherTechnician, admin, ticketId: ticket.id };
}

const holdUrl = (ticketId: string) => `/api/tickets/${ticketId}/hold`;
const putOnHold = (ticketId: string, cookie: string, payload: object) =>
  request(t.app, { method: "PUT", url: holdUrl(ticketId), cookie, payload });
const eventsOf = async (ticketId: string) =>
  (
    await t.database.db
      .select()
      .from(ticketEvents)
      .where(eq(ticketEvents.ticketId, ticketId))
      .orderBy(ticketEvents.createdAt, ticketEvents.id)
  ).map((event) => ({ type: event.type, holdEnd: event.holdEnd, holdUntil: event.holdUntil }));
const notificationsOf = (userId: string) =>
  t.database.db.select().from(notifications).where(eq(notifications.userId, userId));
const listOf = async (cookie: string, query: string) =>
  (await request(t.app, { method: "GET", url: `/api/tickets?${query}`, cookie })).json() as TicketPage;

describe("putting a ticket on hold", () => {
  it("holds an In Progress ticket with a public comment the requester is told of, the status unchanged", async () => {
    const { creator, technician, ticketId } = await cast();
    const until = new Date("2030-01-10T09:00:00.000Z");
    const response = await putOnHold(ticketId, technician.cookie, {
      comment: "  Could you send a photo of the error?  ",
      until: until.toISOString(),
    });
    expect(response.statusCode).toBe(200);
    const ticket = response.json() as Ticket;
    expect(ticket).toMatchObject({
      status: "In Progress",
      onHoldSince: "2030-01-07T10:00:00.000Z",
      holdUntil: "2030-01-10T09:00:00.000Z",
    });
    expect(await eventsOf(ticketId)).toEqual([
      { type: "commented", holdEnd: null, holdUntil: null },
      { type: "put_on_hold", holdEnd: null, holdUntil: until },
    ]);
    // The comment reaches the requester as a comment does; the hold's own entry tells nobody more.
    const told = await notificationsOf(creator.user.id);
    expect(told.map((row) => [row.type, row.message])).toEqual([
      ["ticket_comment", expect.stringContaining("Could you send a photo of the error?")],
    ]);
    const activity = (
      await request(t.app, {
        method: "GET",
        url: `/api/tickets/${ticketId}/activity`,
        cookie: creator.cookie,
      })
    ).json() as TicketActivity;
    expect(activity.comments.map((comment) => [comment.message, comment.isInternal])).toEqual([
      ["Could you send a photo of the error?", false],
    ]);
    expect(activity.events.at(-1)).toMatchObject({
      type: "put_on_hold",
      holdUntil: "2030-01-10T09:00:00.000Z",
      holdEnd: null,
    });
    // The requester sees it waiting on them.
    const seen = (
      await request(t.app, { method: "GET", url: `/api/tickets/${ticketId}`, cookie: creator.cookie })
    ).json() as Ticket;
    expect(seen.onHoldSince).toBe("2030-01-07T10:00:00.000Z");
  });

  it("keeps the four statuses and their counts, and filters the lists by it", async () => {
    const { creator, technician, admin, ticketId } = await cast();
    const other = await insertTicket(t.database.db, {
      createdBy: creator.user.id,
      assignedTo: technician.user.id,
      status: "In Progress",
    });
    expect((await putOnHold(ticketId, admin.cookie, { comment: "Waiting for your answer" })).statusCode).toBe(
      200,
    );
    const summary = (
      await request(t.app, { method: "GET", url: "/api/tickets/summary", cookie: admin.cookie })
    ).json() as TicketSummary;
    expect(summary).toMatchObject({ total: 2, inProgress: 2, open: 0 });
    for (const cookie of [admin.cookie, technician.cookie, creator.cookie]) {
      const held = await listOf(cookie, "onHold=true");
      expect(held.items.map((item) => item.ticketId)).toEqual([ticketId]);
      expect(held.total).toEqual({ count: 1, capped: false });
      const notHeld = await listOf(cookie, "onHold=false&status=In%20Progress");
      expect(notHeld.items.map((item) => item.ticketId)).toEqual([other.id]);
      expect(notHeld.total).toEqual({ count: 1, capped: false });
    }
    expect((await listOf(admin.cookie, "onHold=true&sort=updated&dir=asc")).items).toHaveLength(1);
    expect((await listOf(admin.cookie, "onHold=true&q=printer")).items).toHaveLength(1);
    const bad = await request(t.app, { method: "GET", url: "/api/tickets?onHold=yes", cookie: admin.cookie });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("onHold must be true or false");
  });

  it("refuses bad input with a clear message, and changes nothing", async () => {
    const { creator, technician, otherTechnician, ticketId } = await cast();
    const db = t.database.db;
    const open = await insertTicket(db, { createdBy: creator.user.id, status: "Open" });
    const resolved = await insertTicket(db, {
      createdBy: creator.user.id,
      assignedTo: technician.user.id,
      status: "Resolved",
    });
    const closed = await insertTicket(db, {
      createdBy: creator.user.id,
      assignedTo: technician.user.id,
      status: "Closed",
    });
    const before = await snapshot();
    const cases: Array<[string, string, string, object, number, string]> = [
      [
        "an empty comment",
        ticketId,
        technician.cookie,
        { comment: "   " },
        400,
        "A comment for the requester is required",
      ],
      ["no comment", ticketId, technician.cookie, {}, 400, "A comment for the requester is required"],
      [
        "an Open ticket",
        open.id,
        technician.cookie,
        { comment: "Hi" },
        422,
        "Only a ticket In Progress can be put on hold.",
      ],
      [
        "a Resolved ticket",
        resolved.id,
        technician.cookie,
        { comment: "Hi" },
        422,
        "Only a ticket In Progress can be put on hold.",
      ],
      ["a Closed ticket", closed.id, technician.cookie, { comment: "Hi" }, 409, "This ticket is closed"],
      [
        "a date in the past",
        ticketId,
        technician.cookie,
        { comment: "Hi", until: "2030-01-07T09:59:00Z" },
        400,
        "The date to lift the hold must be in the future.",
      ],
      [
        "a date a year and more ahead",
        ticketId,
        technician.cookie,
        { comment: "Hi", until: "2031-01-08T10:00:00Z" },
        400,
        "within 365 days",
      ],
      [
        "not a date",
        ticketId,
        technician.cookie,
        { comment: "Hi", until: "next week" },
        400,
        "must be a date and time",
      ],
      [
        "the requester",
        ticketId,
        creator.cookie,
        { comment: "Hi" },
        403,
        "Only technicians and administrators",
      ],
      [
        "a technician who may not see it",
        ticketId,
        otherTechnician.cookie,
        { comment: "Hi" },
        404,
        "not found",
      ],
    ];
    for (const [label, id, cookie, payload, status, message] of cases) {
      const response = await putOnHold(id, cookie, payload);
      expect(response.statusCode, label).toBe(status);
      expect(response.json().message, label).toContain(message);
    }
    for (const method of ["PATCH", "DELETE"] as const) {
      const response = await request(t.app, {
        method,
        url: holdUrl(ticketId),
        cookie: technician.cookie,
        ...(method === "PATCH" ? { payload: { until: null } } : {}),
      });
      expect(response.statusCode, method).toBe(422);
      expect(response.json().message).toBe("This ticket is not on hold.");
    }
    expect(changedTables(before, await snapshot())).toEqual([]);

    expect((await putOnHold(ticketId, technician.cookie, { comment: "Hi" })).statusCode).toBe(200);
    const twice = await putOnHold(ticketId, technician.cookie, { comment: "Hi again" });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().message).toBe("This ticket is already on hold.");
  });
});

describe("the lift date", () => {
  it("is changed or removed by staff, and only to a time ahead", async () => {
    const { creator, technician, ticketId } = await cast();
    await putOnHold(ticketId, technician.cookie, { comment: "Please reboot and tell us" });
    const patch = (cookie: string, until: string | null) =>
      request(t.app, { method: "PATCH", url: holdUrl(ticketId), cookie, payload: { until } });
    const changed = await patch(technician.cookie, "2030-01-09T12:00:00.000Z");
    expect(changed.statusCode).toBe(200);
    expect((changed.json() as Ticket).holdUntil).toBe("2030-01-09T12:00:00.000Z");
    // The same date again records nothing.
    expect((await patch(technician.cookie, "2030-01-09T12:00:00.000Z")).statusCode).toBe(200);
    const removed = await patch(technician.cookie, null);
    expect((removed.json() as Ticket).holdUntil).toBeNull();
    expect((removed.json() as Ticket).onHoldSince).toBe("2030-01-07T10:00:00.000Z");
    expect((await patch(technician.cookie, "2030-01-07T09:00:00.000Z")).statusCode).toBe(400);
    expect((await patch(creator.cookie, "2030-01-09T12:00:00.000Z")).statusCode).toBe(403);
    expect(
      (await eventsOf(ticketId)).map((event) => [event.type, event.holdUntil?.toISOString() ?? null]),
    ).toEqual([
      ["commented", null],
      ["put_on_hold", null],
      ["hold_changed", "2030-01-09T12:00:00.000Z"],
      ["hold_changed", null],
    ]);
  });
});

describe("ending a hold", () => {
  it("is staff's Take off hold: the timeline says so, and nobody is notified", async () => {
    const { creator, technician, admin, ticketId } = await cast();
    await putOnHold(ticketId, technician.cookie, { comment: "Please reboot", until: "2030-01-09T12:00:00Z" });
    clock.advance(hour);
    const response = await request(t.app, { method: "DELETE", url: holdUrl(ticketId), cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: "In Progress", onHoldSince: null, holdUntil: null });
    expect((await eventsOf(ticketId)).at(-1)).toMatchObject({ type: "taken_off_hold", holdEnd: "staff" });
    expect((await notificationsOf(technician.user.id)).map((row) => row.type)).toEqual([]);
    expect((await notificationsOf(creator.user.id)).map((row) => row.type)).toEqual(["ticket_comment"]);
  });

  it("is the requester's reply, which tells the assignee", async () => {
    const { creator, technician, ticketId } = await cast();
    await putOnHold(ticketId, technician.cookie, { comment: "Which printer is it?" });
    clock.advance(hour);
    const reply = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticketId}/comments`,
      cookie: creator.cookie,
      payload: { message: "The one by the kitchen." },
    });
    expect(reply.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticketId));
    expect(row).toMatchObject({ onHoldSince: null, holdUntil: null, status: "In Progress" });
    expect((await eventsOf(ticketId)).slice(-2)).toEqual([
      { type: "commented", holdEnd: null, holdUntil: null },
      { type: "taken_off_hold", holdEnd: "reply", holdUntil: null },
    ]);
    const told = await t.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, technician.user.id), eq(notifications.type, "ticket_hold_lifted")));
    expect(told.map((notice) => [notice.message, notice.params])).toEqual([
      [
        `${creator.user.name} replied: ticket "Printer on floor 2 jams" is no longer on hold`,
        { kind: "hold_lifted", title: "Printer on floor 2 jams", actor: creator.user.name, reason: "reply" },
      ],
    ]);
  });

  it("is not a staff comment, an internal note, or a comment by someone else than the requester", async () => {
    const { technician, admin, ticketId } = await cast();
    await putOnHold(ticketId, technician.cookie, { comment: "Which printer is it?" });
    for (const [cookie, payload] of [
      [technician.cookie, { message: "Any news?" }],
      [admin.cookie, { message: "Noted", isInternal: true }],
      [admin.cookie, { message: "I can help too" }],
    ] as const) {
      const response = await request(t.app, {
        method: "POST",
        url: `/api/tickets/${ticketId}/comments`,
        cookie,
        payload,
      });
      expect(response.statusCode).toBe(201);
    }
    const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticketId));
    expect(row!.onHoldSince).toEqual(new Date("2030-01-07T10:00:00Z"));
  });

  it("is any status change, and a return to the queue", async () => {
    const { technician, admin, ticketId } = await cast();
    await putOnHold(ticketId, technician.cookie, { comment: "Which printer is it?" });
    const resolved = await request(t.app, {
      method: "PATCH",
      url: `/api/tickets/${ticketId}/status`,
      cookie: technician.cookie,
      payload: { status: "Resolved" },
    });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toMatchObject({ status: "Resolved", onHoldSince: null, holdUntil: null });
    expect((await eventsOf(ticketId)).slice(-2).map((event) => [event.type, event.holdEnd])).toEqual([
      ["taken_off_hold", "status"],
      ["status_changed", null],
    ]);

    const { ticketId: second } = await cast();
    const secondAssignee = (
      await request(t.app, { method: "GET", url: `/api/tickets/${second}`, cookie: admin.cookie })
    ).json() as Ticket;
    expect(secondAssignee.assignedTo).not.toBeNull();
    await putOnHold(second, admin.cookie, { comment: "Which printer is it?" });
    const queued = await request(t.app, {
      method: "PUT",
      url: `/api/tickets/${second}/assignee`,
      cookie: admin.cookie,
      payload: { assigneeId: null },
    });
    expect(queued.statusCode).toBe(200);
    expect(queued.json()).toMatchObject({ status: "Open", onHoldSince: null });
    expect((await eventsOf(second)).slice(-2).map((event) => [event.type, event.holdEnd])).toEqual([
      ["taken_off_hold", "status"],
      ["reassigned", null],
    ]);
  });

  it("keeps the hold through a hand-over to another technician, who may then lift it", async () => {
    const { technician, otherTechnician, ticketId } = await cast();
    await putOnHold(ticketId, technician.cookie, { comment: "Which printer is it?" });
    const handed = await request(t.app, {
      method: "PUT",
      url: `/api/tickets/${ticketId}/assignee`,
      cookie: technician.cookie,
      payload: { assigneeId: otherTechnician.user.id },
    });
    expect(handed.json()).toMatchObject({ status: "In Progress", onHoldSince: "2030-01-07T10:00:00.000Z" });
    const lifted = await request(t.app, {
      method: "DELETE",
      url: holdUrl(ticketId),
      cookie: otherTechnician.cookie,
    });
    expect(lifted.statusCode).toBe(200);
    expect(
      (await request(t.app, { method: "DELETE", url: holdUrl(ticketId), cookie: technician.cookie }))
        .statusCode,
    ).toBe(404);
  });
});
