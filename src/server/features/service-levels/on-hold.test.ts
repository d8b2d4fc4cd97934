import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appSettings, mailOutbox, notifications, ticketEvents, tickets } from "#server/db/schema/index.ts";
import { updateSetting } from "#server/features/settings/settings.service.ts";
import { assignTicketToMe } from "#server/features/tickets/assign-ticket.service.ts";
import { editTicket } from "#server/features/tickets/edit-ticket.service.ts";
import {
  changeTicketHold,
  putTicketOnHold,
  takeTicketOffHold,
} from "#server/features/tickets/hold-ticket.service.ts";
import { createTicket, getTicket, listTicketsFor } from "#server/features/tickets/ticket.service.ts";
import { addComment } from "#server/features/tickets/ticket-activity.service.ts";
import { createTestClock } from "#server/test/clock.ts";
import { contextAs, insertCast } from "#server/test/factories.ts";
import { createTestApp, type TestApp } from "#server/test/test-app.ts";
import { defaultBusinessCalendar } from "#shared/service-levels/business-calendar.schemas.ts";
import { businessMinutesBetween } from "#shared/service-levels/business-hours.ts";

// Decision 070: while a ticket waits on its requester its resolution target stands still (no warning, no
// breach); when the hold ends the due times move on by exactly the business time held. The scheduled job
// lifts holds at their date and, when an admin turned it on, resolves a ticket held too long.

// Monday 7 January 2030, 09:00 UTC: the default calendar works Monday–Friday 09:00–17:00 UTC.
const monday = new Date("2030-01-07T09:00:00Z");
const clock = createTestClock(monday);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.reset();
  await t.database.db.delete(appSettings);
  clock.set(monday);
});

type Person = { id: string; role: string | null };
const as = (person: Person) => contextAs(t.database.db, person, { clock });
const at = (iso: string) => clock.set(new Date(iso));
const rowOf = async (id: string) =>
  (await t.database.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
const eventTypes = async (id: string, types: string[]) =>
  (
    await t.database.db
      .select()
      .from(ticketEvents)
      .where(and(eq(ticketEvents.ticketId, id), inArray(ticketEvents.type, types as never[])))
      .orderBy(ticketEvents.createdAt, ticketEvents.id)
  ).map((event) => [event.type, event.slaTarget, event.holdEnd, event.idleDays]);
const noticesOf = (type: "ticket_hold_lifted" | "ticket_auto_resolved") =>
  t.database.db.select().from(notifications).where(eq(notifications.type, type));

/** A High ticket (8 business hours to resolve) raised on Monday at 09:00 and taken by the technician. */
async function workedTicket() {
  const { user, tech, admin } = await insertCast(t.database.db, ["user", "tech", "admin"]);
  const ticket = await createTicket(as(user), {
    title: "VPN drops every hour",
    description: "Since the update.",
    category: "Network",
    priority: "High",
    department: "General",
    floor: "1",
    officeNumber: "101",
  });
  await assignTicketToMe(as(tech), ticket.ticketId);
  return { user, tech, admin, id: ticket.ticketId };
}

describe("the resolution target while on hold", () => {
  it("stands still: no warning nor breach while held, left out of the due lists, shown paused", async () => {
    const { tech, admin, id } = await workedTicket();
    const before = await rowOf(id);
    expect(before.resolutionDueAt).toEqual(new Date("2030-01-07T17:00:00Z"));
    expect(before.resolutionWarnAt).toEqual(new Date("2030-01-07T15:24:00Z"));
    at("2030-01-07T10:00:00Z");
    await putTicketOnHold(as(tech), id, { comment: "Which VPN client version do you run?" });
    expect((await rowOf(id)).slaDueAt).toBeNull();

    // Past the warning time and the due time, the escalation job says nothing about the held ticket.
    for (const time of ["2030-01-07T15:30:00Z", "2030-01-07T17:30:00Z", "2030-01-08T12:00:00Z"]) {
      at(time);
      await t.app.jobs.tick();
    }
    expect(await eventTypes(id, ["sla_warning", "sla_breached"])).toEqual([]);
    const seen = await getTicket(as(tech), id);
    expect(seen.sla?.resolution).toMatchObject({ state: "paused", metAt: null });
    const overdue = await listTicketsFor(as(admin), { scope: "visible", due: "overdue", limit: 25 });
    expect(overdue.items).toEqual([]);
  });

  it("moves on by exactly the business time held when the requester replies, then warns and breaches on the new times", async () => {
    const { user, tech, id } = await workedTicket();
    const before = await rowOf(id);
    at("2030-01-07T10:00:00Z");
    await putTicketOnHold(as(tech), id, { comment: "Which VPN client version do you run?" });
    // Held Monday 10:00–17:00 and Tuesday 09:00–13:00: 11 business hours, whatever the night in between.
    at("2030-01-08T13:00:00Z");
    await addComment(as(user), id, { message: "Version 5.2" });

    const after = await rowOf(id);
    expect(after.onHoldSince).toBeNull();
    expect(after.slaPausedMinutes).toBe(660);
    expect(after.resolutionDueAt).toEqual(new Date("2030-01-09T12:00:00Z"));
    expect(after.resolutionWarnAt).toEqual(new Date("2030-01-09T10:24:00Z"));
    expect(after.slaDueAt).toEqual(after.resolutionDueAt);
    const calendar = defaultBusinessCalendar;
    expect(businessMinutesBetween(calendar, before.resolutionDueAt!, after.resolutionDueAt!)).toBe(660);
    expect(businessMinutesBetween(calendar, before.resolutionWarnAt!, after.resolutionWarnAt!)).toBe(660);

    at("2030-01-09T10:20:00Z");
    await t.app.jobs.tick();
    expect(await eventTypes(id, ["sla_warning", "sla_breached"])).toEqual([]);
    at("2030-01-09T10:30:00Z");
    await t.app.jobs.tick();
    at("2030-01-09T12:05:00Z");
    await t.app.jobs.tick();
    expect(await eventTypes(id, ["sla_warning", "sla_breached"])).toEqual([
      ["sla_warning", "resolution", null, null],
      ["sla_breached", "resolution", null, null],
    ]);
  });

  it("keeps the held time through a later priority change, and a warning sent before the hold stays sent", async () => {
    const { tech, id } = await workedTicket();
    at("2030-01-07T15:30:00Z");
    await t.app.jobs.tick();
    expect(await eventTypes(id, ["sla_warning"])).toEqual([["sla_warning", "resolution", null, null]]);
    await putTicketOnHold(as(tech), id, { comment: "Can you try the new client?" });
    at("2030-01-08T10:00:00Z");
    await takeTicketOffHold(as(tech), id);
    // Held 15:30–17:00 and 09:00–10:00: 150 minutes. Due 17:00 Monday + 150 = Tuesday 11:30.
    const lifted = await rowOf(id);
    expect(lifted.resolutionDueAt).toEqual(new Date("2030-01-08T11:30:00Z"));
    expect(lifted.resolutionWarnedAt).toEqual(new Date("2030-01-07T15:30:00Z"));
    await t.app.jobs.tick();
    expect(await eventTypes(id, ["sla_warning"])).toHaveLength(1);
    // Medium resolves in 24 business hours: Wednesday 17:00 from Monday 09:00, then the 150 minutes held.
    await editTicket(as(tech), id, { priority: "Medium" });
    expect((await rowOf(id)).resolutionDueAt).toEqual(new Date("2030-01-10T11:30:00Z"));
  });
});

describe("the on-hold job", () => {
  it("lifts a hold at its date once, and tells the assignee in the app and by e-mail", async () => {
    const { tech, id } = await workedTicket();
    at("2030-01-07T10:00:00Z");
    await putTicketOnHold(as(tech), id, {
      comment: "I will look again on Wednesday.",
      until: "2030-01-09T09:00:00Z",
    });
    at("2030-01-09T08:59:00Z");
    await t.app.jobs.tick();
    expect((await rowOf(id)).onHoldSince).not.toBeNull();
    at("2030-01-09T09:00:30Z");
    expect(await t.app.jobs.tick()).toContain("on-hold");
    at("2030-01-09T09:02:00Z");
    await t.app.jobs.tick();

    expect(await rowOf(id)).toMatchObject({ onHoldSince: null, holdUntil: null, status: "In Progress" });
    expect(await eventTypes(id, ["taken_off_hold"])).toEqual([["taken_off_hold", null, "date", null]]);
    const told = await noticesOf("ticket_hold_lifted");
    expect(told.map((row) => [row.userId, row.message])).toEqual([
      [tech.id, `Ticket "VPN drops every hour" is no longer on hold: its date to lift the hold has come`],
    ]);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.userId, tech.id));
    expect(mails.map((mail) => mail.subject)).toContainEqual(expect.stringContaining("No longer on hold:"));
  });

  it("resolves nothing by itself while auto-resolve is off (the default)", async () => {
    const { tech, id } = await workedTicket();
    await putTicketOnHold(as(tech), id, { comment: "Which VPN client version do you run?" });
    at("2030-03-07T09:00:00Z");
    await t.app.jobs.tick();
    expect(await rowOf(id)).toMatchObject({ status: "In Progress", onHoldSince: monday });
  });

  it("resolves a ticket on hold for the set business days, with a notice to the requester", async () => {
    const { user, tech, admin, id } = await workedTicket();
    await updateSetting(as(admin), "on-hold", { autoResolve: true, businessDays: 2 });
    // Friday 10:00: two business days later is Tuesday 10:00 (the weekend does not count).
    at("2030-01-11T10:00:00Z");
    await putTicketOnHold(as(tech), id, { comment: "Which VPN client version do you run?" });
    at("2030-01-15T09:59:00Z");
    await t.app.jobs.tick();
    expect((await rowOf(id)).status).toBe("In Progress");
    at("2030-01-15T10:00:30Z");
    await t.app.jobs.tick();

    const resolved = await rowOf(id);
    expect(resolved).toMatchObject({ status: "Resolved", onHoldSince: null, resolvedBy: null });
    expect(resolved.resolvedAt).toEqual(new Date("2030-01-15T10:00:30Z"));
    expect(await eventTypes(id, ["taken_off_hold", "auto_resolved"])).toEqual([
      ["taken_off_hold", null, "status", null],
      ["auto_resolved", null, null, 2],
    ]);
    const told = await noticesOf("ticket_auto_resolved");
    expect(told.map((row) => row.userId).sort()).toEqual([user.id, tech.id].sort());
    const toRequester = told.find((row) => row.userId === user.id)!;
    expect(toRequester.message).toMatch(
      /^Ticket "VPN drops every hour" was resolved automatically after 2 business days waiting for the requester's reply\. It will close automatically on /,
    );
    expect(toRequester.params).toMatchObject({
      kind: "auto_resolved",
      businessDays: 2,
      autoCloseAt: expect.any(String),
    });
  });

  it("leaves a hold younger than the business days, and one lifted meanwhile", async () => {
    const { tech, admin, id } = await workedTicket();
    await updateSetting(as(admin), "on-hold", { autoResolve: true, businessDays: 1 });
    await putTicketOnHold(as(tech), id, { comment: "Which VPN client version do you run?" });
    await changeTicketHold(as(tech), id, { until: "2030-01-07T12:00:00Z" });
    at("2030-01-07T12:30:00Z");
    await t.app.jobs.tick();
    expect(await rowOf(id)).toMatchObject({ status: "In Progress", onHoldSince: null });
    at("2030-01-09T12:30:00Z");
    await t.app.jobs.tick();
    expect((await rowOf(id)).status).toBe("In Progress");
    expect(await eventTypes(id, ["auto_resolved"])).toEqual([]);
  });
});
