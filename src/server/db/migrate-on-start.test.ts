import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";

// Every start checks the migrations (start-server.ts), a restart after a crash included. A database that
// already has the newest migration is only read: the migrator, which creates its schema and table if
// missing and writes in a transaction, runs only when something may be missing. Read-only sessions show
// which one ran: the migrator cannot work in one.

let database: TestDatabase;
/** Runs SQL on a connection of its own (PostgreSQL) or on PGlite's only one, read-write whatever the default. */
let admin: (statement: string) => Promise<void>;
let setReadOnly: (on: boolean) => Promise<void>;
let closeAdmin = async () => {};

beforeAll(async () => {
  database = await createTestDatabase();
  if (database.kind === "pglite") {
    admin = async (statement) => {
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`set transaction read write`);
        await tx.execute(sql.raw(statement));
      });
    };
    setReadOnly = async (on) => {
      await database.db.execute(sql.raw(`set default_transaction_read_only = ${on ? "on" : "off"}`));
    };
    return;
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const name = new URL(database.url!).pathname.slice(1);
  admin = async (statement) => {
    await client.query(`begin read write; ${statement}; commit`);
  };
  // Taken by every new connection; the app's pool has none yet, and migrate() opens its own.
  setReadOnly = async (on) => {
    await client.query(`alter database "${name}" set default_transaction_read_only = ${on ? "on" : "off"}`);
  };
  closeAdmin = () => client.end();
});
afterAll(async () => {
  await closeAdmin();
  await database.destroy();
});

describe("checking migrations on start", () => {
  it("only reads a database that has the newest migration, and runs the migrator when one is missing", async () => {
    await setReadOnly(true);
    // Up to date: nothing to write, so a read-only database starts.
    await expect(database.migrate()).resolves.toBeUndefined();

    // The newest migration not recorded: the migrator runs, and its first write fails here.
    await admin(
      "delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)",
    );
    await expect(database.migrate()).rejects.toThrow(/Failed query: CREATE SCHEMA IF NOT EXISTS "drizzle"/);
  });
});
