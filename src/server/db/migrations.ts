import { readFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { projectRoot } from "#server/project-root.ts";
import type * as schema from "./schema/index.ts";

/** The app's drizzle database (client.ts's `Db`), named here without importing client.ts. */
type AppDb = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The advisory lock held while migrating PostgreSQL (any constant, fixed across releases). */
const migrationLockKey = 7_245_910_014;

export const migrationsFolder = path.join(projectRoot, "drizzle");

/**
 * The timestamp of the newest migration in drizzle-kit's journal (drizzle/meta/_journal.json). Drizzle's
 * migrator applies every migration newer than the newest one recorded in the database, so a database that
 * has recorded this one gets nothing from it.
 */
function newestMigrationMillis(folder: string): number {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: Array<{ when: number }>;
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * True when the database has recorded the newest migration, in one query on the app's own connection.
 * The migrator would find nothing to apply, but only after reading and hashing every migration file,
 * creating its schema and table if missing and running an empty transaction (and, on PostgreSQL, opening a
 * connection of its own and taking the migration lock): a tenth to a third of a second of every start,
 * which a restart after a crash waits for. Any doubt (no table yet, an error) answers false: the migrator
 * then runs as before.
 */
async function hasNewestMigration(db: AppDb, folder: string): Promise<boolean> {
  try {
    const result = await db.execute<{ newest: string | number | null }>(
      sql`select max(created_at) as newest from drizzle.__drizzle_migrations`,
    );
    const newest = (result as unknown as { rows: Array<{ newest: string | number | null }> }).rows[0]?.newest;
    return newest !== null && newest !== undefined && Number(newest) >= newestMigrationMillis(folder);
  } catch {
    return false;
  }
}

/** Applies the migrations the PostgreSQL database lacks, one instance at a time. */
export async function migratePostgres(db: AppDb, connectionString: string, connectTimeoutMs: number) {
  if (await hasNewestMigration(db, migrationsFolder)) return;
  // Its own connection, without the statement timeout: a migration may rightly take minutes.
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
  });
  await client.connect();
  try {
    // Several instances starting together: the first takes the lock and migrates, the others wait for
    // it here and then find every migration applied. The lock goes with the session if the process dies.
    await client.query("select pg_advisory_lock($1)", [migrationLockKey]);
    await migratePg(drizzlePg(client), { migrationsFolder });
  } finally {
    await client.end();
  }
}

/** Applies the migrations the embedded database lacks. */
export async function migrateEmbedded(db: AppDb, client: PGlite) {
  if (await hasNewestMigration(db, migrationsFolder)) return;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
}
