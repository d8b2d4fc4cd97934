import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import { inject } from "vitest";
import { createDatabase, type Database } from "#server/db/client.ts";
import type { PoolOptions } from "#server/db/pg-pool.ts";

export interface TestDatabase extends Database {
  /** Empties every table, for a test that needs a blank database. */
  reset(): Promise<void>;
  /** Closes the connection and, on PostgreSQL, drops the file's database. */
  destroy(): Promise<void>;
}

/** PostgreSQL only: how the app reaches the test's database. */
export interface TestDatabaseOptions {
  /** The address to connect to instead of the database's own (a proxy in front of it). */
  connectVia?: (url: URL) => URL;
  pool?: Partial<PoolOptions>;
}

/** A migrated database of its own for one test file: a PGlite loaded from the run's snapshot, or a PostgreSQL clone. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const templateUrl = inject("pgTemplateUrl");
  if (templateUrl) return createPostgresTestDatabase(templateUrl, options);
  const snapshot = await readFile(inject("pgliteSnapshot"));
  const client = new PGlite({ loadDataDir: new Blob([snapshot]) });
  const database = createDatabase({ pglite: client });
  return { ...database, reset: () => truncateAll(database), destroy: () => database.close() };
}

async function createPostgresTestDatabase(
  templateUrl: string,
  { connectVia = (url) => url, pool }: TestDatabaseOptions,
): Promise<TestDatabase> {
  const template = new URL(templateUrl);
  const name = `helpdesk_test_${randomBytes(6).toString("hex")}`;
  const serverUrl = new URL(templateUrl);
  serverUrl.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  await admin.query(`create database "${name}" template "${template.pathname.slice(1)}"`);
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  const database = createDatabase({ databaseUrl: connectVia(url).toString(), pool });
  return {
    ...database,
    reset: () => truncateAll(database),
    destroy: async () => {
      await database.close();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

async function truncateAll({ db }: Database) {
  await db.execute(
    sql`truncate table idempotency_keys, ticket_field_values, custom_fields, inbound_messages, attachment_chunks, attachments, notifications, ticket_events, ticket_comments, ticket_feedback, tickets, sessions, accounts, verifications, rate_limits, scheduled_jobs, users restart identity cascade`,
  );
}
