import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ServiceContext } from "#server/context.ts";
import { appSettings, mailOutbox, notifications, ticketEvents, tickets } from "#server/db/schema/index.ts";
import { updateSetting } from "#server/features/settings/settings.service.ts";
import { getTicket } from "#server/features/tickets/ticket.service.ts";
import { addComment, giveFeedback } from "#server/features/tickets/ticket-activity.service.ts";
import { changeTicketStatus } from "#server/features/tickets/ticket-status.service.ts";
import { createTestClock } from "#server/test/clock.ts";
import { insertCast, insertTicket } from "#server/test/factories.ts";
import { createTestApp, type TestApp } from "#server/test/test-app.ts";
import type { Actor } from "#shared/permissions.ts";
import type { AutoCloseSettings } from "#shared/service-levels/auto-close.schemas.ts";
import { closeIdleResolvedTicketsNow } from "./auto-close.ts";

// Decision 021: a Resolved ticket with no activity for N days becomes Closed, with a timeline entry and
// a notification to the creator, who is told in advance when it will happen.

const minute = 60_000;
const day = 24 * 60 * minute;
const clock = createTestClock(new Date("2030-03-04T10:00:00Z"));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.reset();
  await t.database.db.delete(appSettings);
  clock.set(new Date("2030-03-04T10:00:00Z"));
});

const ctxOf = (person: { id: string; role: string | null }): ServiceContext => ({
  db: t.database.db,
  actor: { id: person.id, role: person.role as Actor["role"] },
  clock,
});
const lines: string[] = [];
const runJob = () =>
  closeIdleResolvedTicketsNow({
    db: t.database.db,
    clock,
    log: { info: (_fields, message) => void lines.push(message) },
  });

async function cast() {
  const { user: creator, tech, admin } = await insertCast(t.database.db, ["user", "tech", "admin"]);
  return { creator, tech, admin };
}

/** A ticket the technician works on, then sets Resolved at the clock's time. */
async function resolvedTicket(creatorId: string, tech: { id: string; role: string | null }) {
  const ticket = await insertTicket(t.database.db, {
    createdBy: creatorId,
    assignedTo: tech.id,
    status: "In Progress",
    createdAt: new Date(clock.now().getTime() - day),
  });
  await changeTicketStatus(ctxOf(tech), ticket.id, { status: "Resolved" });
  return ticket.id;
}

const statusOf = async (id: string) =>
  (await t.database.db.select({ status: tickets.status }).from(tickets).where(eq(tickets.id, id)))[0]?.status;
const autoCloseEvents = (ticketId: string) =>
  t.database.db
    .select()
    .from(ticketEvents)
    .where(and(eq(ticketEvents.ticketId, ticketId), eq(ticketEvents.type, "auto_closed")));
const autoClosedNotifications = () =>
  t.database.db.select().from(notifications).where(eq(notifications.type, "ticket_auto_closed"));

async function saveSettings(admin: { id: string; role: string | null }, value: AutoCloseSettings) {
  await updateSetting(ctxOf(admin), "auto-close", value);
}

describe("auto-close of resolved tickets", () => {
  it("closes a Resolved ticket 7 days after its last activity, not a minute before", async () => {
    const { creator, tech } = await cast();
    const id = await resolvedTicket(creator.id, tech);
    const resolvedAt = clock.now();

    clock.advance(7 * day - minute);
    expect(await runJob()).toBe(0);
    expect(await statusOf(id)).toBe("Resolved");

    clock.advance(2 * minute);
    expect(await runJob()).toBe(1);
    expect(await statusOf(id)).toBe("Closed");
    expect(lines.at(-1)).toBe("Auto-close closed 1 resolved tickets after 7 days without activity");

    // The timeline: nobody's act, Resolved → Closed, with the days it waited.
    const [event] = await autoCloseEvents(id);
    expect(event).toMatchObject({
      actorId: null,
      fromStatus: "Resolved",
      toStatus: "Closed",
      idleDays: 7,
      createdAt: clock.now(),
    });
    expect(resolvedAt.getTime()).toBeLessThan(event!.createdAt.getTime());
  });

  it("tells the creator once (in the app and by e-mail), and nobody else", async () => {
    const { creator, tech } = await cast();
    const id = await resolvedTicket(creator.id, tech);
    clock.advance(8 * day);
    // Through the app's scheduler, which gives the job the mail queue.
    expect(await t.app.jobs.tick()).toContain("auto-close");
    clock.advance(8 * day);
    await t.app.jobs.tick();

    const told = await autoClosedNotifications();
    expect(told.map((n) => [n.userId, n.ticketId, n.message, n.params])).toEqual([
      [
        creator.id,
        id,
        `Ticket "Printer on floor 2 jams" was closed automatically after 7 days without activity`,
        { kind: "auto_closed", title: "Printer on floor 2 jams", idleDays: 7 },
      ],
    ]);
    const mails = await t.database.db
      .select({ userId: mailOutbox.userId, subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(eq(mailOutbox.notificationId, BigInt(told[0]!.id)));
    expect(mails).toEqual([
      { userId: creator.id, subject: expect.stringContaining("Closed automatically:") },
    ]);
  });

  it("counts from the last activity: the creator's reply or rating moves the date, an internal note does not", async () => {
    const { creator, tech } = await cast();
    const id = await resolvedTicket(creator.id, tech);
    const closesAt = async () => (await getTicket(ctxOf(creator), id)).autoCloseAt;
    expect(await closesAt()).toBe(new Date(clock.now().getTime() + 7 * day).toISOString());

    clock.advance(5 * day);
    await addComment(ctxOf(creator), id, { message: "Still flickering sometimes" });
    const replied = clock.now();
    expect(await closesAt()).toBe(new Date(replied.getTime() + 7 * day).toISOString());

    clock.advance(5 * day);
    expect(await runJob()).toBe(0);
    await giveFeedback(ctxOf(creator), id, { rating: 4, comment: "" });
    const rated = clock.now();
    expect(await closesAt()).toBe(new Date(rated.getTime() + 7 * day).toISOString());

    clock.advance(day);
    await addComment(ctxOf(tech), id, { message: "Keep an eye on it", isInternal: true });
    expect(await closesAt()).toBe(new Date(rated.getTime() + 7 * day).toISOString());

    clock.advance(6 * day);
    expect(await runJob()).toBe(0);
    clock.advance(minute);
    expect(await runJob()).toBe(1);
    expect(await statusOf(id)).toBe("Closed");
  });

  it("tells the creator the date in the Resolved notification, unless auto-close is off", async () => {
    const { creator, tech, admin } = await cast();
    const id = await resolvedTicket(creator.id, tech);
    await saveSettings(admin, { enabled: false, days: 7 });
    const quiet = await resolvedTicket(creator.id, tech);
    const messages = await t.database.db
      .select({
        ticketId: notifications.ticketId,
        message: notifications.message,
        autoCloseAt: sql<string | null>`${notifications.params}->>'autoCloseAt'`,
      })
      .from(notifications)
      .where(and(eq(notifications.userId, creator.id), eq(notifications.type, "ticket_status")));
    expect(messages).toEqual([
      {
        ticketId: id,
        message: `Theo changed the status of ticket "Printer on floor 2 jams" from In Progress to Resolved. It will close automatically on 11 Mar 2030, 10:00 UTC unless you reply or rate it.`,
        // The instant itself, for the app to write in its reader's format (decision 059).
        autoCloseAt: "2030-03-11T10:00:00.000Z",
      },
      {
        ticketId: quiet,
        message: `Theo changed the status of ticket "Printer on floor 2 jams" from In Progress to Resolved`,
        autoCloseAt: null,
      },
    ]);
  });

  it("does nothing while turned off, and follows the days an admin sets", async () => {
    const { creator, tech, admin } = await cast();
    const id = await resolvedTicket(creator.id, tech);
    await saveSettings(admin, { enabled: false, days: 7 });
    expect((await getTicket(ctxOf(creator), id)).autoCloseAt).toBeNull();
    clock.advance(30 * day);
    expect(await runJob()).toBe(0);
    expect(await statusOf(id)).toBe("Resolved");

    await saveSettings(admin, { enabled: true, days: 3 });
    const other = await resolvedTicket(creator.id, tech);
    expect((await getTicket(ctxOf(creator), other)).autoCloseAt).toBe(
      new Date(clock.now().getTime() + 3 * day).toISOString(),
    );
    // The first one is long overdue: it closes at the next run, "now", never on a date in the past.
    expect((await getTicket(ctxOf(creator), id)).autoCloseAt).toBe(clock.now().toISOString());
    expect(await runJob()).toBe(1);
    clock.advance(3 * day + minute);
    expect(await runJob()).toBe(1);
    expect((await autoCloseEvents(other))[0]?.idleDays).toBe(3);
  });

  it("leaves tickets that are not Resolved alone, and a ticket it closed keeps the rules of a Closed ticket", async () => {
    const { creator, tech } = await cast();
    const open = await insertTicket(t.database.db, { createdBy: creator.id, createdAt: clock.now() });
    const inProgress = await insertTicket(t.database.db, {
      createdBy: creator.id,
      assignedTo: tech.id,
      status: "In Progress",
      createdAt: clock.now(),
    });
    const id = await resolvedTicket(creator.id, tech);
    expect((await getTicket(ctxOf(creator), open.id)).autoCloseAt).toBeNull();
    clock.advance(60 * day);
    expect(await runJob()).toBe(1);
    expect([await statusOf(open.id), await statusOf(inProgress.id)]).toEqual(["Open", "In Progress"]);

    // No status change from Closed, feedback only while Resolved; comments stay possible.
    await expect(changeTicketStatus(ctxOf(tech), id, { status: "In Progress" })).rejects.toMatchObject({
      code: "conflict",
    });
    await expect(giveFeedback(ctxOf(creator), id, { rating: 5, comment: "" })).rejects.toMatchObject({
      code: "rule_violation",
    });
    await addComment(ctxOf(creator), id, { message: "Thanks!" });
    expect(await statusOf(id)).toBe("Closed");
    expect((await getTicket(ctxOf(creator), id)).autoCloseAt).toBeNull();
    expect(await runJob()).toBe(0);
    expect(await autoCloseEvents(id)).toHaveLength(1);
  });
});
