import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { isDatabaseUnavailable, isLockWait } from "#server/db/connection-errors.ts";
import { tickets } from "#server/db/schema/tickets.ts";
import { AppError } from "#server/errors.ts";
import { insertTicket, insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { inTicketTransaction, inTransaction, transactionAttempts } from "./ticket-transaction.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

/** Resolves once `parties` callers are waiting on it: both transactions hold their first lock. */
function barrier(parties: number) {
  let waiting = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => {
    release = resolve;
  });
  return () => {
    waiting += 1;
    if (waiting === parties) release();
    return all;
  };
}

describe("inTransaction", () => {
  it("does not run again a change that failed for its own reasons", async () => {
    let runs = 0;
    await expect(
      inTransaction({ db: database.db }, async (tx) => {
        runs += 1;
        await tx.execute(sql`select 1 / 0`);
      }),
    ).rejects.toThrow(/select 1 \/ 0/);
    expect(runs).toBe(1);
  });

  it("gives up after its attempts when the conflict keeps coming", async () => {
    let runs = 0;
    const conflict = Object.assign(new Error("could not serialize access"), { code: "40001" });
    await expect(
      inTransaction({ db: database.db }, async () => {
        runs += 1;
        throw new Error("Failed query", { cause: conflict });
      }),
    ).rejects.toThrow("Failed query");
    expect(runs).toBe(transactionAttempts);
  });

  // PGlite has one connection: two transactions never overlap there, so it cannot deadlock.
  it.skipIf(!inject("pgTemplateUrl"))(
    "runs again the one of two changes PostgreSQL aborts for a deadlock, so both land (PostgreSQL)",
    async () => {
      const creator = await insertUser(database.db, { role: "user" });
      const a = await insertTicket(database.db, { createdBy: creator.id, title: "A" });
      const b = await insertTicket(database.db, { createdBy: creator.id, title: "B" });
      const bothHoldOneLock = barrier(2);
      let runs = 0;
      // Each locks one ticket, waits until the other holds the other ticket, then asks for it: a deadlock
      // on the first attempt; the aborted one runs again and then only waits for the other's commit.
      const change = (first: string, second: string, title: string) =>
        inTransaction({ db: database.db }, async (tx) => {
          runs += 1;
          await tx.update(tickets).set({ title }).where(eq(tickets.id, first));
          if (runs <= 2) await bothHoldOneLock();
          await tx.update(tickets).set({ description: title }).where(eq(tickets.id, second));
        });

      await Promise.all([change(a.id, b.id, "from A to B"), change(b.id, a.id, "from B to A")]);

      expect(runs).toBe(3);
      const rows = await database.db.select().from(tickets).where(sql`${tickets.id} in (${a.id}, ${b.id})`);
      const titles = rows.map((row) => row.title).sort();
      expect(titles).toEqual(["from A to B", "from B to A"]);
    },
  );
});

const sameMoment = "Someone else changed this ticket at the same moment. Please try again.";

/** The SQLSTATEs along an error and what it wraps (drizzle wraps the driver's error). */
const codesOf = (error: unknown): unknown[] =>
  error instanceof Object
    ? [(error as { code?: unknown }).code, ...codesOf((error as { cause?: unknown }).cause)]
    : [];

describe("inTicketTransaction", () => {
  it("hands the work the ticket's row, locked, and undefined for a ticket that does not exist", async () => {
    const creator = await insertUser(database.db, { role: "user" });
    const ticket = await insertTicket(database.db, { createdBy: creator.id, title: "Locked" });
    const seen = await inTicketTransaction({ db: database.db }, ticket.id, async (_tx, _record, row) => row);
    expect(seen).toMatchObject({ id: ticket.id, title: "Locked", status: "Open" });
    const none = await inTicketTransaction({ db: database.db }, "TKTNONE", async (_tx, _record, row) => row);
    expect(none).toBeUndefined();
  });

  it("answers 409 with what to do when a deadlock comes back on every attempt", async () => {
    const creator = await insertUser(database.db, { role: "user" });
    const ticket = await insertTicket(database.db, { createdBy: creator.id });
    let runs = 0;
    const deadlock = Object.assign(new Error("deadlock detected"), { code: "40P01" });
    const outcome = inTicketTransaction({ db: database.db }, ticket.id, async () => {
      runs += 1;
      throw new Error("Failed query", { cause: deadlock });
    });
    await expect(outcome).rejects.toThrow(AppError);
    await expect(outcome).rejects.toMatchObject({ code: "conflict", message: sameMoment });
    expect(runs).toBe(transactionAttempts);
  });

  it("answers 409 at once, without trying again, when the ticket's row stayed locked too long", async () => {
    const creator = await insertUser(database.db, { role: "user" });
    const ticket = await insertTicket(database.db, { createdBy: creator.id });
    let runs = 0;
    const lockTimeout = Object.assign(new Error("canceling statement due to lock timeout"), {
      code: "55P03",
    });
    const outcome = inTicketTransaction({ db: database.db }, ticket.id, async () => {
      runs += 1;
      throw new Error("Failed query", { cause: lockTimeout });
    });
    await expect(outcome).rejects.toMatchObject({ code: "conflict", message: sameMoment });
    expect(runs).toBe(1);
  });

  it("lets a failure of its own through as it is", async () => {
    const creator = await insertUser(database.db, { role: "user" });
    const ticket = await insertTicket(database.db, { createdBy: creator.id });
    await expect(
      inTicketTransaction({ db: database.db }, ticket.id, async (tx) => {
        await tx.execute(sql`select 1 / 0`);
      }),
    ).rejects.toThrow(/select 1 \/ 0/);
  });

  // A second connection holds the ticket's row: only PostgreSQL has one.
  describe.skipIf(!inject("pgTemplateUrl"))("while another transaction holds the ticket (PostgreSQL)", () => {
    // A short statement timeout: the lock timeout follows it at half (ticket-transaction.ts).
    let shortTimeouts: TestDatabase;
    let holder: pg.Client;
    let ticketId: string;
    beforeAll(async () => {
      shortTimeouts = await createTestDatabase({ pool: { statementTimeoutMs: 1_000 } });
      const creator = await insertUser(shortTimeouts.db, { role: "user" });
      ticketId = (await insertTicket(shortTimeouts.db, { createdBy: creator.id })).id;
      holder = new pg.Client({ connectionString: shortTimeouts.url });
      await holder.connect();
      await holder.query("begin");
      await holder.query("select id from tickets where id = $1 for no key update", [ticketId]);
    });
    afterAll(async () => {
      await holder.query("rollback");
      await holder.end();
      await shortTimeouts.destroy();
    });

    it("gives up on the lock before the statement timeout, as a conflict, not an unavailable database", async () => {
      let failure: unknown;
      try {
        await inTicketTransaction({ db: shortTimeouts.db }, ticketId, async () => "never");
      } catch (error) {
        failure = error;
      }
      expect(failure).toMatchObject({ code: "conflict", message: sameMoment });
      // PostgreSQL's own reason: lock_timeout (55P03), not statement_timeout (57014).
      expect(isLockWait((failure as AppError).cause)).toBe(true);
      expect(codesOf((failure as AppError).cause)).toContain("55P03");
    });

    it("tells a statement_timeout that struck while waiting for the row from a database not answering", async () => {
      // Outside the ticket transaction, with no lock_timeout: the statement timeout strikes first.
      let failure: unknown;
      try {
        await shortTimeouts.db.execute(sql`update tickets set title = 'Waited' where id = ${ticketId}`);
      } catch (error) {
        failure = error;
      }
      expect(codesOf(failure)).toContain("57014");
      expect(isLockWait(failure)).toBe(true);
      expect(isDatabaseUnavailable(failure)).toBe(false);
    });
  });
});
