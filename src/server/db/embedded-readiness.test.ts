import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";

// The embedded database runs one statement at a time in the server's own process. After a restart under
// load, the first writes queue up in it: neither /readyz nor a new connection may wait behind all of them
// (/readyz answered seconds late, or 503 once its 1 s limit passed, while those very writes were being
// acknowledged).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const gate = () => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
};

describe.runIf(process.env.TEST_DATABASE_URL === undefined)("/readyz on the embedded database", () => {
  it("answers 200 while a write's transaction holds the database, once one of its statements is answered", async () => {
    const inside = gate();
    const nextStatement = gate();
    const end = gate();
    const order: string[] = [];
    // A write under way: its transaction holds the database until the test lets it end.
    const transaction = t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        inside.open();
        await nextStatement.opened;
        await tx.execute(sql`select 2`);
        await end.opened;
      })
      .then(() => order.push("transaction ended"));
    await inside.opened;

    const ready = request(t.app, { method: "GET", url: "/readyz" }).then((response) => {
      order.push(`readyz ${response.statusCode}`);
    });
    nextStatement.open();
    // Before the change, /readyz's `select 1` queued behind the transaction, which ends only after /readyz
    // has answered: it answered 503 once its 1 s limit had passed.
    await ready;
    end.open();
    await transaction;
    expect(order).toEqual(["readyz 200", "transaction ended"]);
  });

  it("lets the process take in what has arrived between any two queued statements", async () => {
    // Counts the turns of the event loop (where connections are accepted and requests read) meanwhile.
    let turns = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    await Promise.all(Array.from({ length: 20 }, (_, i) => t.database.db.execute(sql`select ${i}::int`)));
    counting = false;
    // Before the change, the twenty ran back to back without the event loop turning in between.
    expect(turns).toBeGreaterThanOrEqual(20);
  });
});
