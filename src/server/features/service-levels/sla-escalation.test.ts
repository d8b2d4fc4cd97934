import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  mailOutbox,
  notificationAudienceMembers,
  notificationSettings,
  notifications,
  type TicketRow,
  tickets,
  type UserRow,
} from "#server/db/schema/index.ts";
import { createTestClock } from "#server/test/clock.ts";
import { insertTicket, insertUser, signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { TicketActivity } from "#shared/tickets/ticket-activity.schemas.ts";

// Decision 020: when a target is breached, the assignee (or all technicians if unassigned) and the
// admins are notified once; a warning notification at 80% of the time. Due and warn times are set
// directly here: computing them is the SLA policy's work.

const minute = 60_000;
const clock = createTestClock(new Date("2030-01-07T10:00:00Z"));
const at = (minutes: number) => new Date(clock.now().getTime() + minutes * minute);

let t: TestApp;
let creator: UserRow;
let tess: UserRow;
let theo: UserRow;
let ada: UserRow;
let alan: UserRow;
let retired: UserRow;
let formerAdmin: UserRow;

beforeAll(async () => {
  t = await createTestApp({ clock });
  const { db } = t.database;
  creator = await insertUser(db, { name: "Ulla User", role: "user" });
  tess = await insertUser(db, { name: "Tess Tech", role: "technician" });
  theo = await insertUser(db, { name: "Theo Tech", role: "technician" });
  retired = await insertUser(db, { name: "Rita Retired", role: "technician", status: "Inactive" });
  ada = await insertUser(db, { name: "Ada Admin", role: "admin" });
  alan = await insertUser(db, { name: "Alan Admin", role: "admin" });
  formerAdmin = await insertUser(db, { name: "Fiona Former", role: "admin", status: "Inactive" });
});
afterAll(() => t.close());
beforeEach(async () => {
  const { db } = t.database;
  await db.delete(mailOutbox);
  await db.delete(notifications);
  await db.delete(tickets);
  await db.delete(notificationSettings);
  // Each test starts a while after the last run, so the job is due.
  clock.advance(60 * minute);
});

const tick = async () => {
  await t.app.jobs.tick();
  // The next run of the job is due a minute later.
  clock.advance(minute);
};

/**
 * The escalation notifications of a ticket (other jobs, such as auto-close, run on the same ticks), one per
 * person: a row addressed to the technicians (decision 068) once for each of them it reaches.
 */
async function notified(ticketId: string) {
  return t.database.db
    .select({
      userId: sql<string>`coalesce(${notifications.userId}, ${notificationAudienceMembers.userId})`,
      type: notifications.type,
      message: notifications.message,
      params: notifications.params,
    })
    .from(notifications)
    .leftJoin(
      notificationAudienceMembers,
      and(
        eq(notificationAudienceMembers.audience, notifications.audience),
        gt(notifications.id, notificationAudienceMembers.afterId),
      ),
    )
    .where(
      and(eq(notifications.ticketId, ticketId), inArray(notifications.type, ["sla_warning", "sla_breached"])),
    )
    .orderBy(asc(notifications.id));
}
const who = (rows: Array<{ userId: string | null; type: string }>, type: string) =>
  rows
    .filter((row) => row.type === type)
    .map((row) => row.userId)
    .sort();
const ids = (...people: UserRow[]) => people.map((p) => p.id).sort();

async function reload(ticket: TicketRow) {
  const [row] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
  return row!;
}

describe("the escalation job", () => {
  it("warns the assignee and every active admin once when 80% of the resolution time has passed", async () => {
    const ticket = await insertTicket(t.database.db, {
      createdBy: creator.id,
      assignedTo: tess.id,
      status: "In Progress",
      firstRespondedAt: at(-100),
      resolutionWarnAt: at(-1),
      resolutionDueAt: at(12),
    });

    await tick();
    const rows = await notified(ticket.id);
    expect(who(rows, "sla_warning")).toEqual(ids(tess, ada, alan));
    expect(rows[0]?.message).toBe(`Resolution due in 12m on ticket "Printer on floor 2 jams"`);
    // The app words it for its reader from the due time itself (decision 059).
    expect(rows[0]?.params).toEqual({
      kind: "sla_warning",
      title: "Printer on floor 2 jams",
      target: "resolution",
      dueAt: ticket.resolutionDueAt!.toISOString(),
    });
    expect((await reload(ticket)).resolutionWarnedAt).toEqual(at(-1));

    // Never twice, however often the job runs before the due time.
    await tick();
    await tick();
    expect(await notified(ticket.id)).toHaveLength(3);
  });

  it("tells every active technician and admin of an unassigned ticket, never its creator", async () => {
    const ticket = await insertTicket(t.database.db, {
      createdBy: creator.id,
      firstResponseWarnAt: at(-1),
      firstResponseDueAt: at(15),
    });

    await tick();
    const rows = await notified(ticket.id);
    expect(who(rows, "sla_warning")).toEqual(ids(tess, theo, ada, alan));
    expect(rows.map((row) => row.userId)).not.toContain(creator.id);
    expect(rows.map((row) => row.userId)).not.toContain(retired.id);
    expect(rows.map((row) => row.userId)).not.toContain(formerAdmin.id);
    expect(rows[0]?.message).toBe(`First response due in 15m on ticket "Printer on floor 2 jams"`);
  });

  it("tells of a missed target once, after its warning, and records both on the staff timeline", async () => {
    const ticket = await insertTicket(t.database.db, {
      createdBy: creator.id,
      firstResponseWarnAt: at(-1),
      firstResponseDueAt: at(30),
    });
    await tick();
    const warnedAt = (await reload(ticket)).firstResponseWarnedAt;
    clock.advance(30 * minute);

    await tick();
    await tick();
    const rows = await notified(ticket.id);
    expect(who(rows, "sla_warning")).toEqual(ids(tess, theo, ada, alan));
    expect(who(rows, "sla_breached")).toEqual(ids(tess, theo, ada, alan));
    const breached = rows.find((row) => row.type === "sla_breached");
    expect(breached?.message).toBe(`First response target missed on ticket "Printer on floor 2 jams"`);
    expect(breached?.params).toEqual({
      kind: "sla_breached",
      title: "Printer on floor 2 jams",
      target: "first_response",
    });
    const after = await reload(ticket);
    expect(after.firstResponseWarnedAt).toEqual(warnedAt);
    expect(after.firstResponseBreachedAt).not.toBeNull();

    const activityAs = async (person: UserRow) => {
      const response = await request(t.app, {
        method: "GET",
        url: `/api/tickets/${ticket.id}/activity`,
        cookie: await signIn(t.app, person.email),
      });
      expect(response.statusCode).toBe(200);
      return (response.json() as TicketActivity).events;
    };
    const staffView = await activityAs(ada);
    expect(staffView.map((e) => [e.type, e.slaTarget, e.actorId])).toEqual([
      ["sla_warning", "first_response", null],
      ["sla_breached", "first_response", null],
    ]);
    expect(staffView[0]?.dueAt).toBe(ticket.firstResponseDueAt?.toISOString());
    // The creator's timeline shows neither: escalation is between staff.
    expect(await activityAs(creator)).toEqual([]);
  });

  it("sends only the breach when the warning time and the due time both passed while it was not running", async () => {
    const ticket = await insertTicket(t.database.db, {
      createdBy: creator.id,
      assignedTo: tess.id,
      status: "In Progress",
      firstRespondedAt: at(-300),
      resolutionWarnAt: at(-90),
      resolutionDueAt: at(-20),
    });

    await tick();
    const rows = await notified(ticket.id);
    expect(rows.map((row) => row.type)).toEqual(["sla_breached", "sla_breached", "sla_breached"]);
    expect(who(rows, "sla_breached")).toEqual(ids(tess, ada, alan));
    const after = await reload(ticket);
    expect(after.resolutionWarnedAt).toEqual(after.resolutionBreachedAt);
    await tick();
    expect(await notified(ticket.id)).toHaveLength(3);
  });

  it("leaves met targets alone: a first response given, a ticket Resolved or Closed", async () => {
    const { db } = t.database;
    const responded = await insertTicket(db, {
      createdBy: creator.id,
      firstRespondedAt: at(-5),
      firstResponseWarnAt: at(-30),
      firstResponseDueAt: at(-10),
    });
    const resolved = await insertTicket(db, {
      createdBy: creator.id,
      assignedTo: tess.id,
      status: "Resolved",
      firstRespondedAt: at(-100),
      resolutionWarnAt: at(-30),
      resolutionDueAt: at(-10),
    });
    const closedUnanswered = await insertTicket(db, {
      createdBy: creator.id,
      status: "Closed",
      firstResponseWarnAt: at(-30),
      firstResponseDueAt: at(-10),
    });
    const noTargets = await insertTicket(db, { createdBy: creator.id });

    await tick();
    for (const ticket of [responded, resolved, closedUnanswered, noTargets])
      expect(await notified(ticket.id)).toEqual([]);
    expect((await reload(resolved)).resolutionBreachedAt).toBeNull();
  });

  it("tells an admin who is also the assignee once, and announces each target of one ticket on its own", async () => {
    const ticket = await insertTicket(t.database.db, {
      createdBy: creator.id,
      assignedTo: ada.id,
      status: "Open",
      firstResponseWarnAt: at(-40),
      firstResponseDueAt: at(-5),
      resolutionWarnAt: at(-1),
      resolutionDueAt: at(60),
    });

    await tick();
    const rows = await notified(ticket.id);
    expect(who(rows, "sla_breached")).toEqual(ids(ada, alan));
    expect(who(rows, "sla_warning")).toEqual(ids(ada, alan));
    expect(rows.map((row) => row.message).sort()).toEqual([
      `First response target missed on ticket "${ticket.title}"`,
      `First response target missed on ticket "${ticket.title}"`,
      `Resolution due in 1h on ticket "${ticket.title}"`,
      `Resolution due in 1h on ticket "${ticket.title}"`,
    ]);
  });

  it("e-mails each recipient who kept these e-mails on, and not one who turned them off", async () => {
    const { db } = t.database;
    await db.insert(notificationSettings).values({ userId: alan.id, emailTypes: ["ticket_comment"] });
    const ticket = await insertTicket(db, {
      createdBy: creator.id,
      assignedTo: tess.id,
      status: "In Progress",
      firstRespondedAt: at(-100),
      resolutionWarnAt: at(-60),
      resolutionDueAt: at(-1),
    });

    await tick();
    const mails = await db
      .select({ userId: mailOutbox.userId, subject: mailOutbox.subject, text: mailOutbox.text })
      .from(mailOutbox);
    expect(mails.map((mail) => mail.userId).sort()).toEqual(ids(tess, ada));
    expect(mails[0]?.subject).toBe(`[Helpdesk] Target missed: [${ticket.id}]: ${ticket.title}`);
    expect(mails[0]?.text).toContain(`Resolution target missed on ticket "${ticket.title}"`);
  });

  it("handles more due tickets than one batch holds, each once", async () => {
    const { db } = t.database;
    const many = 205;
    await db.insert(tickets).values(
      Array.from({ length: many }, (_, i) => ({
        id: `TKTBATCH${String(i).padStart(4, "0")}`,
        title: `Batch ${i}`,
        description: "Due long ago",
        createdBy: creator.id,
        assignedTo: tess.id,
        status: "In Progress" as const,
        firstRespondedAt: at(-500),
        resolutionWarnAt: at(-200),
        resolutionDueAt: at(-100),
      })),
    );

    await tick();
    const counts = await db
      .select({ userId: notifications.userId, type: notifications.type })
      .from(notifications)
      .where(eq(notifications.userId, tess.id));
    expect(counts).toHaveLength(many);
    expect(new Set(counts.map((row) => row.type))).toEqual(new Set(["sla_breached"]));
  });
});
