// A throw-away database for a bench: a fresh PostgreSQL database on BENCH_DATABASE_URL's server (dropped
// afterwards), or an embedded PGlite in a temporary folder.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createDatabase, type Database } from "#server/db/client.ts";

export async function openBenchDatabase(
  prefix: string,
): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (serverUrl) {
    const name = `helpdesk_bench_${prefix}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    // Seeding a million rows takes longer than the app's 5 s statement limit.
    const database = createDatabase({ databaseUrl: url.toString(), pool: { statementTimeoutMs: 600_000 } });
    return {
      database,
      cleanup: async () => {
        await database.close();
        await admin.query(`drop database "${name}" with (force)`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), `helpdesk-bench-${prefix}-`));
  const database = createDatabase({ dataDir: dir });
  return {
    database,
    cleanup: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
