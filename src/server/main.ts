import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildApp } from "./app.ts";
import { createDatabase } from "./db/client.ts";
import { loadEnv } from "./env.ts";
import { loadOrCreateSecret } from "./secrets.ts";

const env = loadEnv();
const database = createDatabase(
  env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
);
await database.migrate();

const clientDir = fileURLToPath(new URL("../../dist/client", import.meta.url));
const app = await buildApp({
  database,
  baseURL: env.BASE_URL,
  authSecret: loadOrCreateSecret(env.DATA_DIR, "auth-secret", env.BETTER_AUTH_SECRET),
  clientDir: existsSync(clientDir) ? clientDir : null,
  trustProxy: env.TRUST_PROXY,
  credentialRateLimit: { window: env.AUTH_RATE_LIMIT_WINDOW, max: env.AUTH_RATE_LIMIT_MAX },
  logger: { level: env.LOG_LEVEL },
});

const shutdown = async (signal: string) => {
  app.log.info(`${signal} received, shutting down`);
  await app.close();
  await database.close();
  process.exit(0);
};
process.once("SIGINT", () => void shutdown("SIGINT"));
process.once("SIGTERM", () => void shutdown("SIGTERM"));

await app.listen({ port: env.PORT, host: env.HOST });
const where = env.DATABASE_URL ? "PostgreSQL" : `embedded PGlite in ${env.DATA_DIR}`;
app.log.info(`Helpdesk is running at ${env.BASE_URL} (database: ${where})`);
console.log(`\n  Helpdesk is ready: ${env.BASE_URL}\n`);
