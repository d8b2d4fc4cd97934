import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ServiceContext } from "#server/context.ts";
import { tickets } from "#server/db/schema/index.ts";
import { contextAs, insertCast, insertTicket, insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { assignTicketToMe } from "./assign-ticket.service.ts";
import { createTicket, listTicketsFor, summarizeTicketsFor } from "./ticket.service.ts";
import { addComment, getTicketActivity, giveFeedback } from "./ticket-activity.service.ts";
import { changeTicketStatus } from "./ticket-status.service.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());
beforeEach(() => database.reset());

const as = (person: { id: string; role: string | null }) => contextAs(database.db, person);

const cast = () => insertCast(database.db, ["user", "tech", "tech2", "admin"]);

const statusOf = async (id: string) =>
  (await database.db.select({ status: tickets.status }).from(tickets).where(eq(tickets.id, id)))[0]?.status;

describe("Assign to Me", () => {
  it("makes the technician the assignee and moves the ticket to In Progress", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id });
    const assigned = await assignTicketToMe(as(tech), ticket.id);
    expect(assigned).toMatchObject({ assignedTo: tech.id, assignedToName: "Theo", status: "In Progress" });
  });

  it("lets exactly one of two technicians win when they press at once", async () => {
    const { user, tech, tech2 } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id });
    const results = await Promise.allSettled([
      assignTicketToMe(as(tech), ticket.id),
      assignTicketToMe(as(tech2), ticket.id),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    // Both requests met at the conditional update: the loser learns who won. Or, on a server that runs
    // them truly at once (PostgreSQL), the loser's visibility check came after the winner's commit: the
    // ticket is no longer theirs to see, so 404, naming nobody.
    const winnerName = (won[0] as PromiseFulfilledResult<{ assignedToName: string }>).value.assignedToName;
    const { code, message } = (lost[0] as PromiseRejectedResult).reason;
    expect([
      { code: "conflict", message: `This ticket was just assigned to ${winnerName}.` },
      { code: "not_found", message: `Ticket ${ticket.id} not found` },
    ]).toContainEqual({ code, message });
    const [row] = await database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row!.assignedTo).toBe((won[0] as PromiseFulfilledResult<{ assignedTo: string }>).value.assignedTo);
    const activity = await getTicketActivity(as(user), ticket.id);
    expect(activity.events.filter((e) => e.type === "assigned")).toHaveLength(1);
  });

  it("answers 404 on a ticket another technician already has, as viewing it does, naming nobody", async () => {
    const { user, tech, tech2 } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech2.id,
      status: "In Progress",
    });
    await expect(assignTicketToMe(as(tech), ticket.id)).rejects.toMatchObject({
      code: "not_found",
      message: `Ticket ${ticket.id} not found`,
    });
  });

  it("refuses a ticket that is no longer Open", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id, status: "Resolved" });
    await expect(assignTicketToMe(as(tech), ticket.id)).rejects.toMatchObject({ code: "rule_violation" });
  });
});

describe("status changes", () => {
  it("refuses a change that arrives after the Close", async () => {
    const { user, tech, admin } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await changeTicketStatus(as(admin), ticket.id, { status: "Closed" });
    await expect(changeTicketStatus(as(tech), ticket.id, { status: "Resolved" })).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await statusOf(ticket.id)).toBe("Closed");
  });

  it("moves through In Progress, Resolved and Closed, and then offers nothing", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    expect((await changeTicketStatus(as(tech), ticket.id, { status: "Resolved" })).status).toBe("Resolved");
    expect((await changeTicketStatus(as(tech), ticket.id, { status: "In Progress" })).status).toBe(
      "In Progress",
    );
    expect((await changeTicketStatus(as(tech), ticket.id, { status: "Closed" })).status).toBe("Closed");
    await expect(changeTicketStatus(as(tech), ticket.id, { status: "Resolved" })).rejects.toMatchObject({
      code: "conflict",
      message: "This ticket is closed; its status can no longer change.",
    });
  });

  it("refuses setting the status the ticket already has", async () => {
    const { user, admin } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id, status: "Resolved" });
    await expect(changeTicketStatus(as(admin), ticket.id, { status: "Resolved" })).rejects.toMatchObject({
      code: "rule_violation",
    });
  });

  it("refuses a change racing a Close instead of applying it over the Close", async () => {
    const { user, tech, admin } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    const results = await Promise.allSettled([
      changeTicketStatus(as(admin), ticket.id, { status: "Closed" }),
      changeTicketStatus(as(tech), ticket.id, { status: "Resolved" }),
    ]);
    // Either the Close won and the change was refused, or the change ran first and the Close followed:
    // the ticket ends Closed either way.
    expect(results[0].status).toBe("fulfilled");
    expect(await statusOf(ticket.id)).toBe("Closed");
    if (results[1].status === "rejected") {
      expect(results[1].reason).toMatchObject({
        code: "conflict",
        message: "This ticket was closed while you were changing it.",
      });
    }
  });

  it("records who changed what, from and to, in the timeline", async () => {
    const { user, tech } = await cast();
    const created = await createTicket(as(user), {
      title: "Wi-Fi drops",
      description: "Every 10 minutes",
      category: "Network",
      priority: "High",
      department: "Sales",
      floor: "2",
      officeNumber: "204",
    });
    await assignTicketToMe(as(tech), created.ticketId);
    await changeTicketStatus(as(tech), created.ticketId, { status: "Resolved" });
    const { events } = await getTicketActivity(as(user), created.ticketId);
    expect(events.map((e) => [e.type, e.actorName, e.fromStatus, e.toStatus])).toEqual([
      ["created", "Uma", null, "Open"],
      ["assigned", "Theo", "Open", "In Progress"],
      ["status_changed", "Theo", "In Progress", "Resolved"],
    ]);
  });
});

describe("In Progress needs an assignee", () => {
  it("refuses an administrator setting an unassigned ticket In Progress, and writes nothing", async () => {
    const { user, admin } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id });
    await expect(changeTicketStatus(as(admin), ticket.id, { status: "In Progress" })).rejects.toMatchObject({
      code: "rule_violation",
      message: "An unassigned ticket goes In Progress when a technician takes it (Assign to Me).",
    });
    const [row] = await database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row).toMatchObject({ status: "Open", assignedTo: null });
    expect((await getTicketActivity(as(admin), ticket.id)).events).toHaveLength(0);
  });

  it("lets an administrator set In Progress on an assigned ticket", async () => {
    const { user, tech, admin } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "Resolved",
    });
    expect(await changeTicketStatus(as(admin), ticket.id, { status: "In Progress" })).toMatchObject({
      status: "In Progress",
      assignedTo: tech.id,
    });
  });

  it("makes a technician who sets an unassigned ticket In Progress its assignee", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id });
    expect(await changeTicketStatus(as(tech), ticket.id, { status: "In Progress" })).toMatchObject({
      status: "In Progress",
      assignedTo: tech.id,
      assignedToName: "Theo",
    });
    const { events } = await getTicketActivity(as(user), ticket.id);
    expect(events.map((e) => [e.type, e.actorName, e.fromStatus, e.toStatus])).toEqual([
      ["assigned", "Theo", "Open", "In Progress"],
    ]);
  });

  it("lets one of two technicians setting In Progress at once take the ticket; the other learns who", async () => {
    const { user, tech, tech2 } = await cast();
    const ticket = await insertTicket(database.db, { createdBy: user.id });
    const results = await Promise.allSettled([
      changeTicketStatus(as(tech), ticket.id, { status: "In Progress" }),
      assignTicketToMe(as(tech2), ticket.id),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<{ assignedToName: string }>).value.assignedToName;
    expect(lost[0]!.reason).toMatchObject({
      code: "conflict",
      message: `This ticket was just assigned to ${winner}.`,
    });
  });
});

describe("resolved by me", () => {
  it("counts a ticket the technician resolved, also once Closed, and not one they never resolved", async () => {
    const { user, tech, tech2, admin } = await cast();
    for (let i = 0; i < 2; i++) {
      const resolvedThenClosed = await insertTicket(database.db, {
        createdBy: user.id,
        assignedTo: tech.id,
        status: "In Progress",
      });
      await changeTicketStatus(as(tech), resolvedThenClosed.id, { status: "Resolved" });
      await changeTicketStatus(as(admin), resolvedThenClosed.id, { status: "Closed" });
    }
    // Assigned to the technician and Resolved, but by the administrator.
    const resolvedByAdmin = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await changeTicketStatus(as(admin), resolvedByAdmin.id, { status: "Resolved" });
    // Resolved by the technician, then reopened: no longer resolved by anyone.
    const reopened = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await changeTicketStatus(as(tech), reopened.id, { status: "Resolved" });
    await changeTicketStatus(as(tech), reopened.id, { status: "In Progress" });

    expect((await summarizeTicketsFor(as(tech), { scope: "visible" })).resolvedByMe).toBe(2);
    expect((await summarizeTicketsFor(as(tech2), { scope: "visible" })).resolvedByMe).toBe(0);
    expect((await summarizeTicketsFor(as(admin), { scope: "visible" })).resolvedByMe).toBe(1);
  });
});

describe("comments and feedback", () => {
  it("keeps a comment thread in order with authors, from both sides", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    const first = await addComment(as(user), ticket.id, { message: "Any news?" });
    await addComment(as(tech), ticket.id, { message: "On my way." });
    expect(first.commentId).toMatch(/^CMT[0-9A-Z]+$/);
    const { comments, events } = await getTicketActivity(as(tech), ticket.id);
    expect(comments.map((c) => [c.authorName, c.message])).toEqual([
      ["Uma", "Any news?"],
      ["Theo", "On my way."],
    ]);
    expect(events.filter((e) => e.type === "commented").map((e) => e.message)).toEqual([
      "Any news?",
      "On my way.",
    ]);
  });

  it("takes one rating per ticket from its creator while Resolved, and lets them change it", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "Resolved",
    });
    await giveFeedback(as(user), ticket.id, { rating: 3, comment: "" });
    await giveFeedback(as(user), ticket.id, { rating: 5, comment: "Fast" });
    const { feedback } = await getTicketActivity(as(tech), ticket.id);
    expect(feedback).toMatchObject({ rating: 5, comment: "Fast", submittedBy: user.id });
  });

  it("refuses feedback before the ticket is Resolved", async () => {
    const { user, tech } = await cast();
    const ticket = await insertTicket(database.db, {
      createdBy: user.id,
      assignedTo: tech.id,
      status: "In Progress",
    });
    await expect(giveFeedback(as(user), ticket.id, { rating: 5, comment: "" })).rejects.toMatchObject({
      code: "rule_violation",
    });
  });
});

describe("search and filters", () => {
  it("finds tickets by words of the title or description and by TKT id, within what the caller may see", async () => {
    const { user, tech, admin } = await cast();
    const other = await insertUser(database.db, { role: "user" });
    const printer = await insertTicket(database.db, {
      createdBy: user.id,
      title: "Printer jams",
      description: "Tray 2",
    });
    await insertTicket(database.db, {
      createdBy: user.id,
      title: "VPN",
      description: "Drops hourly",
      priority: "High",
    });
    await insertTicket(database.db, { createdBy: other.id, title: "Printer toner", description: "Empty" });
    const ids = async (ctx: ServiceContext, query: Record<string, string>) =>
      (await listTicketsFor(ctx, { scope: "visible", limit: 25, ...query })).items.map((t) => t.title).sort();

    expect(await ids(as(user), { q: "print" })).toEqual(["Printer jams"]);
    expect(await ids(as(admin), { q: "printer" })).toEqual(["Printer jams", "Printer toner"]);
    expect(await ids(as(admin), { q: "tray" })).toEqual(["Printer jams"]);
    expect(await ids(as(admin), { q: printer.id.slice(0, 12) })).toEqual(["Printer jams"]);
    expect(await ids(as(admin), { priority: "High" })).toEqual(["VPN"]);
    expect(await ids(as(tech), { q: "printer", category: "Hardware" })).toEqual([
      "Printer jams",
      "Printer toner",
    ]);
    expect(await ids(as(admin), { q: "&|!:*" })).toHaveLength(3);
  });
});
