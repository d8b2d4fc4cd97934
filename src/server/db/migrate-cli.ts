// `npm run db:migrate`: applies the migrations in drizzle/ to the configured database and exits.
import { loadDotEnvFile, loadEnv } from "#server/env.ts";
import { createDatabase } from "./client.ts";

loadDotEnvFile();
const env = loadEnv();
const database = createDatabase(
  env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
);
await database.migrate();
await database.close();
console.log(`Migrations applied (${database.kind}).`);
