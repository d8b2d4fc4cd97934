// `npm run backup -- <file>`: writes the configured database (DATABASE_URL, or the embedded one in
// DATA_DIR) to <file>. PostgreSQL: pg_dump's custom format, the app may keep running. PGlite: stop the app first.
import { backupDatabase } from "#server/db/backup.ts";
import { loadDotEnvFile, loadEnv } from "#server/env.ts";

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run backup -- <file>   (for example backups/helpdesk-2026-01-31.dump)");
  process.exit(2);
}
loadDotEnvFile();
const env = loadEnv();
try {
  await backupDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
    file,
  );
  console.log(
    `Backup written to ${file} (${env.DATABASE_URL ? "PostgreSQL, pg_dump custom format" : "PGlite data directory"}).`,
  );
  console.log(
    "Keep DATA_DIR's auth-secret (or BETTER_AUTH_SECRET) with it: sessions and links are signed with it.",
  );
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exit(1);
}
