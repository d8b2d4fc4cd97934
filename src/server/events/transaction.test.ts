import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { tickets } from "../db/schema/tickets.ts";
import { insertTicket, insertUser } from "../test/factories.ts";
import { createTestDatabase, type TestDatabase } from "../test/test-database.ts";
import { inTransaction, transactionAttempts } from "./transaction.ts";

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
