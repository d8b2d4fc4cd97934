import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  notifications,
  type TicketRow,
  ticketComments,
  ticketEvents,
  tickets,
} from "#server/db/schema/index.ts";
import { createTestClock } from "#server/test/clock.ts";
import { insertTeam, insertTicket, signedInAs } from "#server/test/factories.ts";
import { changedTables, tableSnapshotter } from "#server/test/table-snapshot.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Macro, MacroApplication, MacroPreview } from "#shared/macros/macro.schemas.ts";
import type { TicketActivity } from "#shared/tickets/ticket-activity.schemas.ts";
import type { BulkResult } from "#shared/tickets/ticket-bulk.ts";

// Decision 075: a macro applied to a ticket runs each action as the single action does, in one
// transaction, every event marked with the macro and one batch; a refusal changes nothing; the preview
// says what each step would do. Through the routes.

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

type Person = Awaited<ReturnType<typeof signedInAs>>;

async function cast() {
  const db = t.database.db;
  const creator = await signedInAs(t.app, db, "user");
  const technician = await signedInAs(t.app, db, "technician");
  const otherTechnician = await signedInAs(t.app, db, "technician");
  const admin = await signedInAs(t.app, db, "admin");
  const team = await insertTeam(db, { name: "Network", memberIds: [otherTechnician.user.id] });
  const ticket = await insertTicket(db, {
    createdBy: creator.user.id,
    assignedTo: technician.user.id,
    status: "In Progress",
    createdAt: new Date(clock.now().getTime() - 3_600_000),
  });
  return { creator, technician, otherTechnician, admin, team, ticketId: ticket.id };
}

async function macro(person: Person, payload: object): Promise<Macro> {
  const response = await request(t.app, {
    method: "POST",
    url: "/api/macros",
    cookie: person.cookie,
    payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Macro>();
}

const apply = (person: Person, ticketId: string, macroId: string) =>
  request(t.app, {
    method: "POST",
    url: `/api/tickets/${ticketId}/macros/${macroId}/apply`,
    cookie: person.cookie,
  });
const preview = (person: Person, ticketId: string, macroId: string) =>
  request(t.app, {
    method: "GET",
    url: `/api/tickets/${ticketId}/macros/${macroId}/preview`,
    cookie: person.cookie,
  });
const ticketRow = async (ticketId: string) =>
  (await t.database.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]!;
const eventsOf = (ticketId: string) =>
  t.database.db
    .select()
    .from(ticketEvents)
    .where(eq(ticketEvents.ticketId, ticketId))
    .orderBy(ticketEvents.createdAt, ticketEvents.id);
const notificationTypesOf = async (userId: string) =>
  (await t.database.db.select().from(notifications).where(eq(notifications.userId, userId)))
    .map((row) => row.type)
    .sort();
const activityOf = async (person: Person, ticketId: string) =>
  (
    await request(t.app, { method: "GET", url: `/api/tickets/${ticketId}/activity`, cookie: person.cookie })
  ).json<TicketActivity>();

describe("each action alone", () => {
  it("sets the status, the priority, the team and the tags, each as its own event marked with the macro", async () => {
    const { technician, team, ticketId } = await cast();
    const cases: Array<[object, (row: TicketRow) => unknown, unknown]> = [
      [{ priority: "High" }, (row) => row.priority, "High"],
      [{ teamId: team.id }, (row) => row.teamId, team.id],
      [{ addTags: ["vpn"] }, (row) => row.tags, ["vpn"]],
      [{ removeTags: ["vpn"] }, (row) => row.tags, []],
      [{ status: "Resolved" }, (row) => row.status, "Resolved"],
    ];
    const types: string[] = [];
    for (const [actions, read, expected] of cases) {
      const saved = await macro(technician, { title: `Macro ${types.length}`, actions });
      const response = await apply(technician, ticketId, saved.id);
      expect(response.statusCode, response.body).toBe(200);
      expect(read(await ticketRow(ticketId))).toEqual(expected);
      const last = (await eventsOf(ticketId)).at(-1)!;
      expect(last).toMatchObject({
        viaKind: "macro",
        viaId: saved.id,
        viaName: saved.title,
        actorId: technician.user.id,
      });
      types.push(last.type);
    }
    expect(types).toEqual(["edited", "team_changed", "tags_changed", "tags_changed", "status_changed"]);
  });

  it("posts a public reply or an internal note, with the ticket's placeholders filled", async () => {
    const { creator, technician, ticketId } = await cast();
    const reply = await macro(technician, {
      title: "Ack",
      body: "Hello {{creator.name}}, on {{ticket.id}}.",
    });
    const note = await macro(technician, {
      title: "Note",
      body: "Checked the logs.",
      replyVisibility: "internal",
    });
    expect((await apply(technician, ticketId, reply.id)).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await apply(technician, ticketId, note.id)).statusCode).toBe(200);
    const comments = await t.database.db
      .select()
      .from(ticketComments)
      .where(eq(ticketComments.ticketId, ticketId))
      .orderBy(ticketComments.createdAt, ticketComments.id);
    expect(comments.map((c) => [c.message, c.isInternal])).toEqual([
      [`Hello ${creator.user.name}, on ${ticketId}.`, false],
      ["Checked the logs.", true],
    ]);
    // As the comment box gives them: the requester hears of the reply, never of the note.
    expect(await notificationTypesOf(creator.user.id)).toEqual(["ticket_comment"]);
  });

  it("assigns: an admin gives the ticket to a technician or the queue, a technician takes an Open one as 'me'", async () => {
    const { creator, technician, otherTechnician, admin, ticketId } = await cast();
    const toOther = await macro(admin, {
      title: "To other",
      actions: { assigneeId: otherTechnician.user.id },
    });
    expect((await apply(admin, ticketId, toOther.id)).statusCode).toBe(200);
    expect(await ticketRow(ticketId)).toMatchObject({
      assignedTo: otherTechnician.user.id,
      status: "In Progress",
    });
    const toQueue = await macro(admin, { title: "To queue", actions: { assigneeId: null } });
    expect((await apply(admin, ticketId, toQueue.id)).statusCode).toBe(200);
    expect(await ticketRow(ticketId)).toMatchObject({ assignedTo: null, status: "Open" });

    const takeIt = await macro(technician, {
      title: "Mine",
      actions: { assigneeId: "me", priority: "High" },
    });
    expect((await apply(technician, ticketId, takeIt.id)).statusCode).toBe(200);
    expect(await ticketRow(ticketId)).toMatchObject({
      assignedTo: technician.user.id,
      status: "In Progress",
      priority: "High",
    });
    const types = (await eventsOf(ticketId)).map((event) => event.type);
    expect(types).toEqual(["reassigned", "reassigned", "assigned", "edited"]);
    expect(await notificationTypesOf(creator.user.id)).toContain("ticket_assigned");
  });

  it("puts a ticket on hold with the reply as its public comment, and takes it off hold", async () => {
    const { creator, technician, ticketId } = await cast();
    const hold = await macro(technician, {
      title: "Wait",
      body: "Could you send a photo?",
      actions: { hold: "on" },
    });
    expect((await apply(technician, ticketId, hold.id)).statusCode).toBe(200);
    expect((await ticketRow(ticketId)).onHoldSince).toEqual(clock.now());
    const off = await macro(technician, { title: "Resume", actions: { hold: "off" } });
    expect((await apply(technician, ticketId, off.id)).statusCode).toBe(200);
    expect((await ticketRow(ticketId)).onHoldSince).toBeNull();
    expect((await eventsOf(ticketId)).map((event) => event.type)).toEqual([
      "commented",
      "put_on_hold",
      "taken_off_hold",
    ]);
    expect(await notificationTypesOf(creator.user.id)).toEqual(["ticket_comment"]);
  });
});

describe("several actions together", () => {
  it("apply in one step, as one batch the timeline shows as one entry naming the macro", async () => {
    const { creator, technician, team, ticketId } = await cast();
    const vpn = await macro(technician, {
      title: "VPN known issue",
      body: "This is the known VPN issue; it is fixed now.",
      actions: { status: "Resolved", teamId: team.id, addTags: ["vpn"] },
    });
    const response = await apply(technician, ticketId, vpn.id);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<MacroApplication>();
    expect(result.ticket).toMatchObject({ status: "Resolved" });
    expect(result.steps.map((step) => [step.kind, step.outcome, step.from, step.to])).toEqual([
      ["team", "change", null, "Network"],
      ["tags", "change", null, null],
      ["reply", "change", null, "This is the known VPN issue; it is fixed now."],
      ["status", "change", "In Progress", "Resolved"],
    ]);

    const events = await eventsOf(ticketId);
    expect(events.map((event) => event.type)).toEqual([
      "team_changed",
      "tags_changed",
      "commented",
      "status_changed",
    ]);
    expect(new Set(events.map((event) => event.batchId)).size).toBe(1);
    expect(events[0]!.batchId).toMatch(/^mab_/);

    const staffView = await activityOf(technician, ticketId);
    expect(staffView.events.map((event) => event.via?.name)).toEqual(Array(4).fill("VPN known issue"));
    // The requester sees what they see today: the status and the reply, neither team nor tags nor the macro.
    const requesterView = await activityOf(creator, ticketId);
    expect(requesterView.events.map((event) => [event.type, event.via])).toEqual([
      ["commented", null],
      ["status_changed", null],
    ]);
    // Notified as the single actions notify: the status change and the reply.
    expect(await notificationTypesOf(creator.user.id)).toEqual(["ticket_comment", "ticket_status"]);
  });
});

describe("a refusal", () => {
  it("changes nothing and names the action and the reason", async () => {
    const { admin, ticketId } = await cast();
    await t.database.db
      .update(tickets)
      .set({ assignedTo: null, status: "Open" })
      .where(eq(tickets.id, ticketId));
    const bad = await macro(admin, {
      title: "Start",
      body: "Working on it.",
      actions: { priority: "High", status: "In Progress", addTags: ["vpn"] },
    });
    const before = await snapshot();
    const response = await apply(admin, ticketId, bad.id);
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      "Status: An unassigned ticket goes In Progress when a technician takes it (Assign to Me).",
    );
    expect(changedTables(before, await snapshot())).toEqual([]);
  });

  it("after an earlier step succeeded, undoes that step too", async () => {
    const { technician, ticketId } = await cast();
    const fix = await macro(technician, {
      title: "Fix",
      actions: { priority: "High", status: "Closed", addTags: ["a"] },
    });
    const full = Array.from({ length: 20 }, (_, i) => `t${i}`);
    await t.database.db.update(tickets).set({ tags: full }).where(eq(tickets.id, ticketId));
    const before = await snapshot();
    const response = await apply(technician, ticketId, fix.id);
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      "Tags: A ticket has at most 20 tags; remove one before adding another.",
    );
    expect(changedTables(before, await snapshot())).toEqual([]);
    expect(await ticketRow(ticketId)).toMatchObject({ priority: "Low", status: "In Progress" });
  });

  it("is 422 when the macro would change nothing", async () => {
    const { technician, ticketId } = await cast();
    const same = await macro(technician, {
      title: "Low",
      actions: { priority: "Low", status: "In Progress" },
    });
    const response = await apply(technician, ticketId, same.id);
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      "Nothing to change: this ticket is already as the macro would leave it.",
    );
  });
});

describe("the preview", () => {
  it("says per step: a change, already so, or refused with the reason, and changes nothing", async () => {
    const { technician, otherTechnician, team, ticketId } = await cast();
    const mixed = await macro(technician, {
      title: "Mixed",
      body: "Handing over.",
      actions: {
        priority: "Low",
        teamId: team.id,
        addTags: ["vpn"],
        assigneeId: otherTechnician.user.id,
        status: "Closed",
      },
    });
    const before = await snapshot();
    const response = await preview(technician, ticketId, mixed.id);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<MacroPreview>();
    expect(result.steps.map((step) => [step.kind, step.outcome, step.from, step.to])).toEqual([
      ["priority", "unchanged", "Low", "Low"],
      ["team", "change", null, "Network"],
      ["tags", "change", null, null],
      ["reply", "change", null, "Handing over."],
      ["status", "change", "In Progress", "Closed"],
      // The hand-off runs last, so that the technician still sees the ticket for the other steps; Closed by
      // then, the single action refuses it, and so does the macro.
      ["assignee", "refused", technician.user.name, otherTechnician.user.name],
    ]);
    expect(result.steps[5]!.reason).toBe("This ticket is closed; it can no longer be assigned.");
    expect(result.canApply).toBe(false);
    expect(changedTables(before, await snapshot())).toEqual([]);
  });
});

describe("who may", () => {
  it("users are refused; another technician's personal macro and a ticket one may not see are not found", async () => {
    const { creator, technician, otherTechnician, admin, ticketId } = await cast();
    const mine = await macro(technician, { title: "Mine", actions: { priority: "High" } });
    const shared = await macro(admin, { title: "Shared", actions: { priority: "High" }, scope: "shared" });
    const before = await snapshot();
    for (const call of [apply, preview]) {
      const byUser = await call(creator, ticketId, shared.id);
      expect(byUser.statusCode).toBe(403);
      expect(byUser.json().message).toBe("Only technicians and administrators can use macros.");
      // The admin sees the ticket, not the technician's personal macro.
      const byAdmin = await call(admin, ticketId, mine.id);
      expect(byAdmin.statusCode).toBe(404);
      expect(byAdmin.json().message).toBe(`Macro ${mine.id} not found`);
      // The other technician may not see a ticket assigned to someone else.
      const byOther = await call(otherTechnician, ticketId, shared.id);
      expect(byOther.statusCode).toBe(404);
      expect(byOther.json().message).toBe(`Ticket ${ticketId} not found`);
    }
    expect(changedTables(before, await snapshot())).toEqual([]);
    expect((await apply(admin, ticketId, shared.id)).statusCode).toBe(200);
  });
});

describe("in bulk", () => {
  it("applies to each ticket on its own and says which were refused and why", async () => {
    const { creator, technician, otherTechnician, ticketId } = await cast();
    const closed = await insertTicket(t.database.db, {
      createdBy: creator.user.id,
      assignedTo: technician.user.id,
      status: "Closed",
    });
    const hidden = await insertTicket(t.database.db, {
      createdBy: creator.user.id,
      assignedTo: otherTechnician.user.id,
      status: "In Progress",
    });
    const urgent = await macro(technician, {
      title: "Urgent",
      body: "Looking now.",
      actions: { priority: "High" },
    });
    const response = await request(t.app, {
      method: "POST",
      url: "/api/tickets/bulk/macro",
      cookie: technician.cookie,
      payload: { ticketIds: [ticketId, closed.id, hidden.id], macroId: urgent.id },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<BulkResult>()).toEqual({
      changed: [ticketId],
      refused: [
        {
          ticketId: closed.id,
          message: "Priority: This ticket is closed; only an administrator can correct it.",
        },
        { ticketId: hidden.id, message: `Ticket ${hidden.id} not found` },
      ],
    });
    expect(await ticketRow(ticketId)).toMatchObject({ priority: "High" });
    expect(await ticketRow(closed.id)).toMatchObject({ priority: "Low" });
    const byUser = await request(t.app, {
      method: "POST",
      url: "/api/tickets/bulk/macro",
      cookie: creator.cookie,
      payload: { ticketIds: [ticketId], macroId: urgent.id },
    });
    expect(byUser.statusCode).toBe(403);
    const batches = await t.database.db
      .select({ batchId: ticketEvents.batchId })
      .from(ticketEvents)
      .where(and(eq(ticketEvents.ticketId, ticketId), eq(ticketEvents.viaId, urgent.id)));
    expect(batches).toHaveLength(2);
    expect(new Set(batches.map((row) => row.batchId)).size).toBe(1);
  });
});
