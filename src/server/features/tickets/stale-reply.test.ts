import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ticketComments } from "#server/db/schema/index.ts";
import { insertTicketEvent } from "#server/features/ticket-records/ticket-activity.queries.ts";
import { signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { TicketActivity } from "#shared/tickets/ticket-activity.schemas.ts";

// Decision 072: a reply written while someone else changed the ticket is refused (409) when the writer says
// what they had seen, so that they look first; said again with what they see now, or not said, it is added.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

type Person = Awaited<ReturnType<typeof signedInAs>>;
const newestEntry = async (who: Person, ticketId: string) => {
  const response = await request(t.app, {
    method: "GET",
    url: `/api/tickets/${ticketId}/activity`,
    cookie: who.cookie,
  });
  return response.json<TicketActivity>().events.at(-1)!.id;
};
const comment = (who: Person, ticketId: string, payload: object) =>
  request(t.app, { method: "POST", url: `/api/tickets/${ticketId}/comments`, cookie: who.cookie, payload });
const countComments = async () => (await t.database.db.select().from(ticketComments)).length;

/** A user's ticket, taken by a technician: both have seen its two entries (created, assigned). */
async function workedTicket() {
  const user = await signedInAs(t.app, t.database.db, "user");
  const tech = await signedInAs(t.app, t.database.db, "technician");
  const admin = await signedInAs(t.app, t.database.db, "admin");
  const created = await request(t.app, {
    method: "POST",
    url: "/api/tickets",
    cookie: user.cookie,
    payload: {
      title: "Scanner offline",
      description: "Since Monday.",
      category: "Hardware",
      priority: "Low",
      department: "General",
      floor: "1",
      officeNumber: "101",
    },
  });
  const { ticketId } = created.json<{ ticketId: string }>();
  expect(
    (await request(t.app, { method: "POST", url: `/api/tickets/${ticketId}/assign`, cookie: tech.cookie }))
      .statusCode,
  ).toBe(200);
  return { user, tech, admin, ticketId };
}

describe("a reply to a ticket that changed since the writer began", () => {
  it("is refused with 409 and a sentence to act on when someone else commented meanwhile, and adds nothing", async () => {
    const { user, tech, ticketId } = await workedTicket();
    const seen = await newestEntry(tech, ticketId);
    expect((await comment(user, ticketId, { message: "Still offline." })).statusCode).toBe(201);
    const commentsBefore = await countComments();

    const stale = await comment(tech, ticketId, { message: "Rebooted it.", seenEventId: seen });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      code: "conflict",
      message: "This ticket changed while you were writing. Look at what changed, then send again.",
      details: { reason: "ticket_changed_since_seen", latestEventId: await newestEntry(tech, ticketId) },
    });
    expect(await countComments()).toBe(commentsBefore);

    // Send anyway: having looked, the writer says what they see now.
    const now = await newestEntry(tech, ticketId);
    const sent = await comment(tech, ticketId, { message: "Rebooted it.", seenEventId: now });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await countComments()).toBe(commentsBefore + 1);
  });

  it("is added as before when the writer does not say what they had seen", async () => {
    const { user, tech, ticketId } = await workedTicket();
    await comment(user, ticketId, { message: "Still offline." });
    const sent = await comment(tech, ticketId, { message: "Rebooted it." });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({ message: "Rebooted it.", authorId: tech.user.id });
  });

  it("counts a status change by someone else, for an internal note too", async () => {
    const { tech, admin, ticketId } = await workedTicket();
    const seen = await newestEntry(tech, ticketId);
    const changed = await request(t.app, {
      method: "PATCH",
      url: `/api/tickets/${ticketId}/status`,
      cookie: admin.cookie,
      payload: { status: "Resolved" },
    });
    expect(changed.statusCode).toBe(200);
    const note = await comment(tech, ticketId, {
      message: "Checked the cable.",
      isInternal: true,
      seenEventId: seen,
    });
    expect(note.statusCode).toBe(409);
  });

  it("does not count the writer's own changes, nor the escalation's warnings", async () => {
    const { tech, ticketId } = await workedTicket();
    const seen = await newestEntry(tech, ticketId);
    await request(t.app, {
      method: "PATCH",
      url: `/api/tickets/${ticketId}/status`,
      cookie: tech.cookie,
      payload: { status: "Resolved" },
    });
    await comment(tech, ticketId, { message: "First reply." });
    await insertTicketEvent(t.database.db, {
      ticketId,
      type: "sla_warning",
      actorId: null,
      slaTarget: "resolution",
    });
    const sent = await comment(tech, ticketId, { message: "Second reply.", seenEventId: seen });
    expect(sent.statusCode, sent.body).toBe(201);
  });

  it("counts an internal note for staff but not for the requester, who never sees it", async () => {
    const { user, tech, admin, ticketId } = await workedTicket();
    const userSeen = await newestEntry(user, ticketId);
    const adminSeen = await newestEntry(admin, ticketId);
    expect((await comment(tech, ticketId, { message: "Cable is fine.", isInternal: true })).statusCode).toBe(
      201,
    );
    expect((await comment(user, ticketId, { message: "Any news?", seenEventId: userSeen })).statusCode).toBe(
      201,
    );
    // The admin missed both the note and the user's comment.
    expect((await comment(admin, ticketId, { message: "On it.", seenEventId: adminSeen })).statusCode).toBe(
      409,
    );
  });

  it("refuses 400, naming seenEventId, an entry that is not one of the ticket's the writer may see", async () => {
    const { user, tech, ticketId } = await workedTicket();
    const other = await workedTicket();
    const elsewhere = await newestEntry(other.tech, other.ticketId);
    const foreign = await comment(tech, ticketId, { message: "Hello", seenEventId: elsewhere });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({
      code: "validation_failed",
      message: "seenEventId: This is not an entry of this ticket's activity",
    });
    await comment(tech, ticketId, { message: "Staff only.", isInternal: true });
    const note = await newestEntry(tech, ticketId);
    expect((await comment(user, ticketId, { message: "Hello", seenEventId: note })).statusCode).toBe(400);
    const malformed = await comment(tech, ticketId, { message: "Hello", seenEventId: "yesterday" });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toContain("seenEventId must be an event id (EVT…)");
  });
});
