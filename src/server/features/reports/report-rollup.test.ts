import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ServiceContext } from "#server/context.ts";
import { ticketFeedback, tickets, type UserRow } from "#server/db/schema/index.ts";
import { updateSetting } from "#server/features/settings/settings.service.ts";
import { editTicket } from "#server/features/tickets/edit-ticket.service.ts";
import { createTicket } from "#server/features/tickets/ticket.service.ts";
import { addComment, giveFeedback } from "#server/features/tickets/ticket-activity.service.ts";
import { changeTicketStatus } from "#server/features/tickets/ticket-status.service.ts";
import { insertTicket, insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import type { Actor } from "#shared/permissions.ts";
import { defaultBusinessCalendar } from "#shared/service-levels/business-calendar.schemas.ts";
import {
  countTicketBreakdown,
  countTicketVolume,
  type ReportWindow,
  readWithoutJit,
  summariseResponseTimes,
  summariseSatisfaction,
  summariseSatisfactionPerTechnician,
} from "./report.queries.ts";
import {
  countTicketBreakdownFromRollup,
  countTicketVolumeFromRollup,
  rollupsCountIn,
  summariseResponseTimesFromRollup,
  summariseSatisfactionFromRollup,
  summariseSatisfactionPerTechnicianFromRollup,
} from "./report-rollup.queries.ts";

// The rollups (decision 027) are kept by triggers on every ticket write; whatever happens to the tickets,
// reading them must give exactly what the direct aggregates over the tickets give.
let database: TestDatabase;
let user: UserRow;
let tech: UserRow;
let tech2: UserRow;
let admin: UserRow;
let time = Date.parse("2026-01-05T08:00:00Z");
const clock = { now: () => new Date(time) };
const as = (person: UserRow): ServiceContext => ({
  db: database.db,
  actor: { id: person.id, role: person.role as Actor["role"] },
  clock,
});
const hoursLater = (hours: number) => {
  time += hours * 3_600_000;
};

beforeAll(async () => {
  database = await createTestDatabase();
  await database.reset();
  user = await insertUser(database.db, { role: "user", name: "Uma" });
  tech = await insertUser(database.db, { role: "technician", name: "Theo" });
  tech2 = await insertUser(database.db, { role: "technician", name: "Tara" });
  admin = await insertUser(database.db, { role: "admin", name: "Ada" });
});
afterAll(() => database.destroy());

const sorted = <T>(rows: T[]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** Every report the rollups serve, both ways, over several windows of the business calendar's zone. */
async function expectRollupsToMatchTickets(timeZone: string) {
  const windows: ReportWindow[] = [
    { from: "2025-12-01", to: "2026-03-31", group: "day", timeZone },
    { from: "2025-12-01", to: "2026-03-31", group: "week", timeZone },
    { from: "2026-01-06", to: "2026-01-20", group: "day", timeZone },
    { from: "2026-01-12", to: "2026-01-12", group: "week", timeZone },
  ];
  await readWithoutJit(database.db, async (tx) => {
    expect(await rollupsCountIn(tx, timeZone)).toBe(true);
    for (const w of windows) {
      expect(sorted(await countTicketVolumeFromRollup(tx, w))).toEqual(
        sorted(await countTicketVolume(tx, w)),
      );
      expect(await countTicketBreakdownFromRollup(tx, w)).toEqual(await countTicketBreakdown(tx, w));
      expect(await summariseResponseTimesFromRollup(tx, w)).toEqual(await summariseResponseTimes(tx, w));
      expect(sorted(await summariseSatisfactionFromRollup(tx, w))).toEqual(
        sorted(await summariseSatisfaction(tx, w)),
      );
      expect(await summariseSatisfactionPerTechnicianFromRollup(tx, w)).toEqual(
        await summariseSatisfactionPerTechnician(tx, w),
      );
    }
  });
}

describe("report rollups", () => {
  it("answer exactly as the tickets do after creates, edits, resolve, reopen, close, delete and a zone change", async () => {
    // Through the app's services: opened, answered, edited, resolved, reopened, closed.
    const created: string[] = [];
    for (let i = 0; i < 12; i++) {
      const ticket = await createTicket(as(user), {
        title: `Ticket ${i}`,
        description: "It broke",
        category: i % 2 ? "Software" : "Hardware",
        priority: i % 3 ? "Low" : "High",
        department: i % 4 ? "IT" : "HR",
        floor: "1",
        officeNumber: "",
      });
      created.push(ticket.ticketId);
      hoursLater(5 + (i % 7) * 3);
      if (i % 3 !== 2) await addComment(as(tech), ticket.ticketId, { message: "On it" });
      hoursLater(7);
    }
    // Many more with known durations straight into the table (the triggers see every write, whoever makes
    // it), so the percentiles fall among many buckets and interpolate.
    const rated: string[] = [];
    for (let i = 0; i < 150; i++) {
      const createdAt = Date.parse("2026-01-01T00:00:00Z") + ((i * 7919) % 80) * 86_400_000 + i * 613_000;
      const responded = i % 5 === 0 ? null : new Date(createdAt + ((i * 104_729) % 400_000) * 1000 + 17);
      const resolved = i % 4 === 0 ? null : new Date(createdAt + ((i * 130_363) % 2_000_000) * 1000 + 3);
      const inserted = await insertTicket(database.db, {
        createdBy: user.id,
        createdAt: new Date(createdAt),
        firstRespondedAt: responded,
        resolvedAt: resolved,
        resolvedBy: resolved && i % 2 ? tech.id : null,
        assignedTo: responded ? (i % 3 ? tech.id : tech2.id) : null,
        status: resolved ? (i % 3 ? "Closed" : "Resolved") : i % 7 === 0 ? "Closed" : "In Progress",
        category: (["Hardware", "Software", "Network", "Other"] as const)[i % 4],
        priority: (["Low", "Medium", "High"] as const)[i % 3],
        department: ["IT", "HR", "Finance"][i % 3],
        updatedAt: new Date((resolved?.getTime() ?? createdAt) + 3_600_000),
      });
      if (resolved && i % 3 !== 1) {
        await database.db.insert(ticketFeedback).values({
          ticketId: inserted.id,
          rating: 1 + (i % 5),
          comment: "",
          submittedBy: user.id,
          submittedAt: new Date(resolved.getTime() + (i % 11) * 3_600_000),
        });
        rated.push(inserted.id);
      }
    }
    await expectRollupsToMatchTickets("UTC");

    const [a, b, c, d, e] = created as [string, string, string, string, string];
    await editTicket(as(tech), a, { priority: "Medium", category: "Network" });
    await editTicket(as(tech), b, { department: "Finance" });
    hoursLater(30);
    await changeTicketStatus(as(tech), a, { status: "In Progress" });
    await changeTicketStatus(as(tech), a, { status: "Resolved" });
    await changeTicketStatus(as(tech), b, { status: "Resolved" });
    await changeTicketStatus(as(tech), c, { status: "Closed" });
    await giveFeedback(as(user), a, { rating: 2, comment: "Slow" });
    await giveFeedback(as(user), b, { rating: 5, comment: "" });
    await expectRollupsToMatchTickets("UTC");

    // Ratings move with their ticket's technician; a changed rating, a deleted one, a new technician.
    const [r1, r2, r3, r4] = rated as [string, string, string, string];
    await database.db.update(tickets).set({ resolvedBy: tech2.id }).where(eq(tickets.id, r1));
    await database.db.update(tickets).set({ resolvedBy: null, assignedTo: null }).where(eq(tickets.id, r2));
    await database.db.update(ticketFeedback).set({ rating: 1 }).where(eq(ticketFeedback.ticketId, r3));
    await database.db.delete(ticketFeedback).where(eq(ticketFeedback.ticketId, r4));
    await giveFeedback(as(user), a, { rating: 4, comment: "Better" });
    await expectRollupsToMatchTickets("UTC");
    const gone = await insertUser(database.db, { role: "technician", name: "Gus" });
    await database.db
      .update(tickets)
      .set({ assignedTo: gone.id, resolvedBy: gone.id })
      .where(eq(tickets.id, r3));
    await expectRollupsToMatchTickets("UTC");
    await database.db
      .update(tickets)
      .set({ assignedTo: tech2.id, resolvedBy: null })
      .where(eq(tickets.id, r3));

    hoursLater(50);
    await changeTicketStatus(as(tech), b, { status: "In Progress" }); // reopened: its resolution goes
    await changeTicketStatus(as(tech), a, { status: "Closed" });
    await database.db.delete(tickets).where(eq(tickets.id, d));
    await database.db.delete(tickets).where(eq(tickets.id, rated[5]!)); // its rating goes with it
    await database.db
      .update(tickets)
      .set({ createdAt: new Date("2026-02-15T23:30:00Z") })
      .where(eq(tickets.id, e));
    await database.db.execute(
      sql`update tickets set priority = 'High', updated_at = updated_at + interval '1 day' where status = 'Closed'`,
    );
    await expectRollupsToMatchTickets("UTC");

    // The business calendar moves to another zone: the rollups are counted again in it, in the same save.
    await updateSetting(as(admin), "business-calendar", {
      ...defaultBusinessCalendar,
      timeZone: "Asia/Kolkata",
    });
    await expectRollupsToMatchTickets("Asia/Kolkata");
    hoursLater(3);
    await changeTicketStatus(as(tech), b, { status: "Resolved" });
    await expectRollupsToMatchTickets("Asia/Kolkata");

    // Emptied (as the test reset does): nothing left counted.
    await database.reset();
    await expectRollupsToMatchTickets("Asia/Kolkata");
    const left = await database.db.execute(
      sql`select (select count(*) from report_opened_days) + (select count(*) from report_done_days)
                 + (select count(*) from report_duration_days) + (select count(*) from report_feedback_days) as n`,
    );
    expect(Number((left as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBe(0);
  });

  // PGlite has one connection: two transactions never overlap there.
  it.skipIf(!inject("pgTemplateUrl"))(
    "let two tickets of the same day and category be created at once: the rollup row is locked only at commit (PostgreSQL)",
    async () => {
      const creator = await insertUser(database.db, { role: "user", name: "Nina" });
      const sameDay = {
        createdBy: creator.id,
        category: "Network",
        priority: "Medium",
        department: "IT",
      } as const;
      const opened = async () => {
        const result = await database.db.execute(sql`
          select (select coalesce(sum(count), 0)::int from report_opened_days where category = 'Network') as rolled,
                 (select count(*)::int from tickets where category = 'Network') as tickets`);
        return (result as unknown as { rows: { rolled: number; tickets: number }[] }).rows[0]!;
      };
      const before = await opened();
      let secondCommitted = false;
      await database.db.transaction(async (tx) => {
        await insertTicket(tx, { ...sameDay, createdAt: new Date(time) });
        // Another connection, while the first transaction is still open: with the increment taken at the
        // insert, this one would wait for the first, which waits for it (a statement timeout here).
        await insertTicket(database.db, { ...sameDay, createdAt: new Date(time) });
        secondCommitted = true;
      });
      expect(secondCommitted).toBe(true);
      const after = await opened();
      expect(after.tickets - before.tickets).toBe(2);
      expect(after.rolled - before.rolled).toBe(2);
      expect(after.rolled).toBe(after.tickets);
    },
  );
});
