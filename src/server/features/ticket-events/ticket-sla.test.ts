import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ServiceContext } from "#server/context.ts";
import { tickets } from "#server/db/schema/index.ts";
import { updateSetting } from "#server/features/settings/settings.service.ts";
import { assignTicket, assignTicketToMe } from "#server/features/tickets/assign-ticket.service.ts";
import { changeTicketsInBulk } from "#server/features/tickets/bulk-tickets.service.ts";
import { editTicket } from "#server/features/tickets/edit-ticket.service.ts";
import { createTicket, getTicket } from "#server/features/tickets/ticket.service.ts";
import { addComment } from "#server/features/tickets/ticket-activity.service.ts";
import { changeTicketStatus } from "#server/features/tickets/ticket-status.service.ts";
import { createTestClock, type TestClock } from "#server/test/clock.ts";
import { contextAs, insertCast } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { defaultSlaPolicy } from "#shared/service-levels/sla-policy.schemas.ts";

let database: TestDatabase;
let clock: TestClock;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());
beforeEach(async () => {
  await database.reset();
  // Monday 2030-01-07 10:00 UTC; the default calendar works Monday–Friday 09:00–17:00 UTC.
  clock = createTestClock(new Date("2030-01-07T10:00:00Z"));
});

const as = (person: { id: string; role: string | null }) =>
  contextAs(database.db, person, {
    clock,
  });
const minutes = (n: number) => n * 60_000;
const at = (iso: string) => new Date(iso);
const rowOf = async (id: string) => (await database.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;

const cast = () => insertCast(database.db, ["user", "tech", "tech2", "admin"]);

const newTicket = (ctx: ServiceContext, priority: "Low" | "Medium" | "High" = "High") =>
  createTicket(ctx, {
    title: "VPN drops every hour",
    description: "Since Monday the VPN disconnects every hour.",
    category: "Network",
    priority,
    department: "General",
    floor: "1",
    officeNumber: "101",
  });

describe("due times on create", () => {
  it("stores each target's due and warn time in business time from the policy of the priority", async () => {
    const { user } = await cast();
    const ticket = await newTicket(as(user), "High");
    expect(await rowOf(ticket.ticketId)).toMatchObject({
      createdAt: at("2030-01-07T10:00:00Z"),
      firstResponseDueAt: at("2030-01-07T11:00:00Z"),
      firstResponseWarnAt: at("2030-01-07T10:48:00Z"),
      resolutionDueAt: at("2030-01-08T10:00:00Z"),
      resolutionWarnAt: at("2030-01-07T16:24:00Z"),
      slaDueAt: at("2030-01-07T11:00:00Z"),
      firstRespondedAt: null,
      resolvedAt: null,
    });
  });

  it("follows what an admin saved: a target left empty has no due time", async () => {
    const { user, admin } = await cast();
    await updateSetting(as(admin), "sla-policies", {
      ...defaultSlaPolicy,
      targets: { ...defaultSlaPolicy.targets, Low: { firstResponseMinutes: null, resolutionMinutes: 30 } },
    });
    const ticket = await newTicket(as(user), "Low");
    expect(await rowOf(ticket.ticketId)).toMatchObject({
      firstResponseDueAt: null,
      firstResponseWarnAt: null,
      resolutionDueAt: at("2030-01-07T10:30:00Z"),
      slaDueAt: at("2030-01-07T10:30:00Z"),
    });
  });

  it("counts from the next opening when raised on a Saturday", async () => {
    const { user } = await cast();
    clock.set(at("2030-01-12T12:00:00Z"));
    const ticket = await newTicket(as(user), "High");
    expect((await rowOf(ticket.ticketId)).firstResponseDueAt).toEqual(at("2030-01-14T10:00:00Z"));
  });
});

describe("what people see", () => {
  it("staff see both targets at the server's clock; the creator does not", async () => {
    const { user, tech } = await cast();
    const { ticketId } = await newTicket(as(user), "High");
    expect((await getTicket(as(user), ticketId)).sla).toBeNull();
    expect((await getTicket(as(tech), ticketId)).sla).toEqual({
      firstResponse: { dueAt: "2030-01-07T11:00:00.000Z", metAt: null, state: "due_soon" },
      resolution: { dueAt: "2030-01-08T10:00:00.000Z", metAt: null, state: "running" },
      serverNow: "2030-01-07T10:00:00.000Z",
    });
  });

  it("detects a breach: with the clock past the due time the target reads overdue", async () => {
    const { user, tech } = await cast();
    const { ticketId } = await newTicket(as(user), "High");
    clock.advance(minutes(59));
    expect((await getTicket(as(tech), ticketId)).sla?.firstResponse.state).toBe("due_soon");
    clock.advance(minutes(1));
    expect((await getTicket(as(tech), ticketId)).sla?.firstResponse.state).toBe("overdue");
    clock.advance(minutes(30));
    await addComment(as(tech), ticketId, { message: "Looking into it now." });
    expect((await getTicket(as(tech), ticketId)).sla?.firstResponse).toEqual({
      dueAt: "2030-01-07T11:00:00.000Z",
      metAt: "2030-01-07T11:30:00.000Z",
      state: "met_late",
    });
  });
});

describe("first response", () => {
  it("is the first public comment by staff; later ones do not move it", async () => {
    const { user, tech } = await cast();
    const { ticketId } = await newTicket(as(user));
    clock.advance(minutes(10));
    await addComment(as(tech), ticketId, { message: "Which VPN client do you use?" });
    clock.advance(minutes(10));
    await addComment(as(tech), ticketId, { message: "Any news?" });
    const row = await rowOf(ticketId);
    expect(row.firstRespondedAt).toEqual(at("2030-01-07T10:10:00Z"));
    // The resolution target is now the earlier one still running.
    expect(row.slaDueAt).toEqual(at("2030-01-08T10:00:00Z"));
  });

  it("is never an internal note nor the creator's own comment", async () => {
    const { user, tech } = await cast();
    const { ticketId } = await newTicket(as(user));
    await addComment(as(tech), ticketId, { message: "Probably the firewall.", isInternal: true });
    await addComment(as(user), ticketId, { message: "It just happened again." });
    expect(await rowOf(ticketId)).toMatchObject({
      firstRespondedAt: null,
      slaDueAt: at("2030-01-07T11:00:00Z"),
    });
  });

  it("is an admin's own comment on a ticket someone else raised, but not on one they raised", async () => {
    const { user, admin } = await cast();
    const theirs = await newTicket(as(user));
    const own = await newTicket(as(admin));
    await addComment(as(admin), theirs.ticketId, { message: "On it." });
    await addComment(as(admin), own.ticketId, { message: "More details: it is the office VPN." });
    expect((await rowOf(theirs.ticketId)).firstRespondedAt).toEqual(at("2030-01-07T10:00:00Z"));
    expect((await rowOf(own.ticketId)).firstRespondedAt).toBeNull();
  });

  it("is Assign to Me or an admin's assignment, whichever came first", async () => {
    const { user, tech, tech2, admin } = await cast();
    const taken = await newTicket(as(user));
    const given = await newTicket(as(user));
    clock.advance(minutes(5));
    await assignTicketToMe(as(tech), taken.ticketId);
    await assignTicket(as(admin), given.ticketId, { assigneeId: tech2.id });
    clock.advance(minutes(5));
    await addComment(as(tech), taken.ticketId, { message: "On it." });
    expect((await rowOf(taken.ticketId)).firstRespondedAt).toEqual(at("2030-01-07T10:05:00Z"));
    expect((await rowOf(given.ticketId)).firstRespondedAt).toEqual(at("2030-01-07T10:05:00Z"));
  });
});

describe("resolution", () => {
  it("Resolved stops the clock, back to In Progress runs it again, Closed keeps when it was resolved", async () => {
    const { user, tech } = await cast();
    const { ticketId } = await newTicket(as(user));
    await assignTicketToMe(as(tech), ticketId);
    clock.advance(minutes(120));
    await changeTicketStatus(as(tech), ticketId, { status: "Resolved" });
    expect(await rowOf(ticketId)).toMatchObject({ resolvedAt: at("2030-01-07T12:00:00Z"), slaDueAt: null });
    expect((await getTicket(as(tech), ticketId)).sla?.resolution.state).toBe("met");

    await changeTicketStatus(as(tech), ticketId, { status: "In Progress" });
    expect(await rowOf(ticketId)).toMatchObject({
      resolvedAt: null,
      slaDueAt: at("2030-01-08T10:00:00Z"),
    });

    clock.advance(minutes(60));
    await changeTicketStatus(as(tech), ticketId, { status: "Resolved" });
    clock.advance(minutes(60));
    await changeTicketStatus(as(tech), ticketId, { status: "Closed" });
    expect(await rowOf(ticketId)).toMatchObject({ resolvedAt: at("2030-01-07T13:00:00Z"), slaDueAt: null });
  });

  it("closing a ticket nobody resolved stops both targets at the close", async () => {
    const { user, admin } = await cast();
    const { ticketId } = await newTicket(as(user));
    clock.advance(minutes(90));
    await changeTicketStatus(as(admin), ticketId, { status: "Closed" });
    expect(await rowOf(ticketId)).toMatchObject({ resolvedAt: at("2030-01-07T11:30:00Z"), slaDueAt: null });
    const { sla } = await getTicket(as(admin), ticketId);
    expect(sla?.firstResponse.state).toBe("met_late");
    expect(sla?.resolution.state).toBe("met");
  });
});

describe("priority changes", () => {
  it("an edit computes the due times again from createdAt with the new priority's policy", async () => {
    const { user, tech } = await cast();
    const { ticketId } = await newTicket(as(user), "Low");
    clock.advance(minutes(30));
    await assignTicketToMe(as(tech), ticketId);
    await editTicket(as(tech), ticketId, { priority: "High" });
    expect(await rowOf(ticketId)).toMatchObject({
      firstResponseDueAt: at("2030-01-07T11:00:00Z"),
      resolutionDueAt: at("2030-01-08T10:00:00Z"),
      resolutionWarnAt: at("2030-01-07T16:24:00Z"),
      // Already answered by the assignment: the resolution is what is still due.
      slaDueAt: at("2030-01-08T10:00:00Z"),
    });
  });

  it("clears a sent warning or breach when the new time is still ahead, keeps it when it has passed", async () => {
    const { user, admin } = await cast();
    const { ticketId } = await newTicket(as(user), "High");
    clock.advance(minutes(65));
    // As the escalation job stamps them: the first response was warned about and breached.
    await database.db
      .update(tickets)
      .set({ firstResponseWarnedAt: clock.now(), firstResponseBreachedAt: clock.now() })
      .where(eq(tickets.id, ticketId));
    await changeTicketsInBulk(as(admin), {
      ticketIds: [ticketId],
      action: { kind: "priority", priority: "Medium" },
    });
    expect(await rowOf(ticketId)).toMatchObject({
      priority: "Medium",
      firstResponseDueAt: at("2030-01-07T14:00:00Z"),
      firstResponseWarnAt: at("2030-01-07T13:12:00Z"),
      firstResponseWarnedAt: null,
      firstResponseBreachedAt: null,
      slaDueAt: at("2030-01-07T14:00:00Z"),
    });

    await database.db
      .update(tickets)
      .set({ firstResponseWarnedAt: clock.now() })
      .where(eq(tickets.id, ticketId));
    clock.advance(minutes(60));
    await changeTicketsInBulk(as(admin), {
      ticketIds: [ticketId],
      action: { kind: "priority", priority: "High" },
    });
    // High's warning (10:48) has passed: the warning already sent stays sent.
    expect(await rowOf(ticketId)).toMatchObject({
      firstResponseDueAt: at("2030-01-07T11:00:00Z"),
      firstResponseWarnedAt: at("2030-01-07T11:05:00Z"),
      firstResponseBreachedAt: null,
    });
  });
});
