// `npm run restore -- <file>`: replaces the configured database's contents with a backup made by
// `npm run backup`. Stop every instance of the app first; start them again afterwards (they migrate a backup
// from an older release on start).
import { restoreDatabase } from "#server/db/backup.ts";
import { loadDotEnvFile, loadEnv } from "#server/env.ts";

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run restore -- <file>   (a file written by npm run backup)");
  process.exit(2);
}
loadDotEnvFile();
const env = loadEnv();
try {
  const { keptAs } = await restoreDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
    file,
  );
  console.log(`Restored ${file}.`);
  if (keptAs) console.log(`The previous database is kept in ${keptAs} (delete it once you are satisfied).`);
} catch (error) {
  console.error(`Restore failed: ${(error as Error).message}`);
  process.exit(1);
}
