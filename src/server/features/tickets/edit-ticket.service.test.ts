import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { notifications, ticketEvents, tickets } from "#server/db/schema/index.ts";
import { contextAs, insertCast, insertTicket } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { editableTicketFields, ticketDetailFields } from "#shared/tickets/ticket-edit.ts";
import { editTicket } from "./edit-ticket.service.ts";
import { getTicketActivity } from "./ticket-activity.service.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());
beforeEach(() => database.reset());

const as = (person: { id: string; role: string | null }) => contextAs(database.db, person);

const cast = () => insertCast(database.db, ["user", "tech", "tech2", "admin"]);

const rowOf = async (id: string) => (await database.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;
const eventsOf = (ticketId: string) =>
  database.db.select().from(ticketEvents).where(eq(ticketEvents.ticketId, ticketId));
const notificationsOf = (ticketId: string) =>
  database.db
    .select({
      userId: notifications.userId,
      type: notifications.type,
      message: notifications.message,
      params: notifications.params,
    })
    .from(notifications)
    .where(eq(notifications.ticketId, ticketId));

const corrections = {
  title: "Printer on floor 3 jams",
  category: "Network",
  priority: "High",
  department: "Finance",
  floor: "3",
  officeNumber: "310",
} as const;

describe("staff edits", () => {
  it.each(ticketDetailFields)(
    "the assignee technician corrects the %s, recorded from → to",
    async (field) => {
      const { user, tech } = await cast();
      const ticket = await insertTicket(database.db, {
        createdBy: user.id,
        assignedTo: tech.id,
        status: "In Progress",
      });
      const edited = await editTicket(as(tech), ticket.id, { [field]: corrections[field] });
      expect(edited[field]).toBe(corrections[field]);
      const activity = await getTicketActivity(as(user), ticket.id);
      expect(activity.events.at(-1)).toMatchObject({
        type: "edited",
        actorName: "Theo",
        changes: [{ field, from: ticket[field], to: corrections[field] }],
      });
    },
  );

  it("an admin corrects several fields at once: one event lists each, and the creator is told", async () => {
    const { user, admin } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id, priority: "Low" });
    await editTicket(as(admin), ticket.id, { priority: "High", title: "Printer jams on floor 2" });
    const row = await rowOf(ticket.id);
    expect(row).toMatchObject({ priority: "High", title: "Printer jams on floor 2" });
    expect(row.updatedAt.getTime()).toBeGreaterThan(ticket.updatedAt.getTime() - 1);
    const events = (await eventsOf(ticket.id)).filter((event) => event.type === "edited");
    expect(events).toHaveLength(1);
    expect(events[0]!.changes).toEqual([
      { field: "title", from: "Printer on floor 2 jams", to: "Printer jams on floor 2" },
      { field: "priority", from: "Low", to: "High" },
    ]);
    expect(await notificationsOf(ticket.id)).toEqual([
      {
        userId: user.id,
        type: "ticket_edited",
        message: `Ada edited ticket "Printer jams on floor 2": Title: Printer on floor 2 jams → Printer jams on floor 2; Priority: Low → High`,
        params: {
          kind: "edited",
          title: "Printer jams on floor 2",
          actor: "Ada",
          changes: [
            { field: "title", from: "Printer on floor 2 jams", to: "Printer jams on floor 2" },
            { field: "priority", from: "Low", to: "High" },
          ],
        },
      },
    ]);
  });

  it("a technician may correct an unassigned ticket they see, not one another technician has", async () => {
    const { user, tech, tech2 } = await cast();
    const queued = await insertTicket(database.db, { createdBy: user.id });
    await expect(editTicket(as(tech), queued.id, { priority: "Medium" })).resolves.toMatchObject({
      priority: "Medium",
    });
    const others = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech2.id,
      status: "In Progress",
    });
    await expect(editTicket(as(tech), others.id, { priority: "High" })).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await rowOf(others.id)).priority).toBe("Low");
  });

  it("the creator may not change the details; staff may not change the description", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id, assignedTo: tech.id });
    await expect(editTicket(as(user), ticket.id, { priority: "High" })).rejects.toMatchObject({
      code: "forbidden",
      message: "Only technicians and administrators can edit a ticket's details",
    });
    await expect(
      editTicket(as(tech), ticket.id, { description: "Rewritten by staff" }),
    ).rejects.toMatchObject({
      code: "forbidden",
      message: "Only the person who raised the ticket can edit its description",
    });
    expect(await eventsOf(ticket.id)).toEqual([]);
    expect(await rowOf(ticket.id)).toMatchObject({ priority: "Low", description: ticket.description });
  });

  it("a Closed ticket stays as it is for technicians; an admin may still correct it", async () => {
    const { user, tech, admin } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "Closed",
    });
    await expect(editTicket(as(tech), ticket.id, { category: "Software" })).rejects.toMatchObject({
      code: "conflict",
      message: "This ticket is closed; only an administrator can correct it.",
    });
    await expect(editTicket(as(admin), ticket.id, { category: "Software" })).resolves.toMatchObject({
      category: "Software",
    });
  });

  it("a patch equal to the current values records nothing and tells no one", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id, assignedTo: tech.id });
    const same = await editTicket(as(tech), ticket.id, { priority: "Low", title: ticket.title });
    expect(same.updatedAt).toBe(ticket.updatedAt.toISOString());
    expect(await eventsOf(ticket.id)).toEqual([]);
    expect(await notificationsOf(ticket.id)).toEqual([]);
  });

  it("a stale edit never silently overwrites: the timeline shows what each edit replaced", async () => {
    const { user, tech, admin } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id, assignedTo: tech.id });
    await Promise.all([
      editTicket(as(tech), ticket.id, { priority: "High" }),
      editTicket(as(admin), ticket.id, { priority: "Medium" }),
    ]);
    const changes = (await eventsOf(ticket.id)).map((event) => event.changes![0]!);
    expect(changes).toHaveLength(2);
    // Whichever ran second saw the first one's value, never the stale "Low".
    const first = changes.find((change) => change.from === "Low")!;
    const second = changes.find((change) => change !== first)!;
    expect(second.from).toBe(first.to);
    expect((await rowOf(ticket.id)).priority).toBe(second.to);
  });
});

describe("the creator edits the description", () => {
  it("while Open: the assignee is told, and the timeline keeps the old and the new text", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "Open",
    });
    const description = "It jams on every page, and now it beeps.";
    await editTicket(as(user), ticket.id, { description });
    expect((await rowOf(ticket.id)).description).toBe(description);
    const activity = await getTicketActivity(as(tech), ticket.id);
    expect(activity.events.at(-1)?.changes).toEqual([
      { field: "description", from: ticket.description, to: description },
    ]);
    expect(await notificationsOf(ticket.id)).toEqual([
      {
        userId: tech.id,
        type: "ticket_edited",
        message: `Uma edited ticket "Printer on floor 2 jams": Description edited`,
        params: {
          kind: "edited",
          title: "Printer on floor 2 jams",
          actor: "Uma",
          changes: [{ field: "description" }],
        },
      },
    ]);
  });

  it.each(["In Progress", "Resolved", "Closed"] as const)("not once the ticket is %s", async (status) => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id, assignedTo: tech.id, status });
    await expect(editTicket(as(user), ticket.id, { description: "Too late" })).rejects.toMatchObject({
      code: "rule_violation",
      message: "The description can be edited only while the ticket is Open.",
    });
    expect((await rowOf(ticket.id)).description).toBe(ticket.description);
  });

  it("an admin who raised a ticket edits its description and details in one patch", async () => {
    const { admin } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: admin.id });
    const edited = await editTicket(as(admin), ticket.id, { description: "New words", floor: "5" });
    expect(edited).toMatchObject({ description: "New words", floor: "5" });
    expect(editableTicketFields).toContain("description");
  });
});
