import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { createHealthGate, type DatabaseHealth, gateClosedError } from "./health-gate.ts";
import { migrateEmbedded, migratePostgres } from "./migrations.ts";
import { createPool, defaultPoolOptions, type PoolOptions } from "./pg-pool.ts";
import { watchStatements } from "./pglite-statements.ts";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
/** Both drivers share this query API, so services and queries never know which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Where the data lives, for log lines: "PostgreSQL at host:port" or the PGlite folder. */
  location: string;
  /** PostgreSQL's connection string (for connections outside the pool, such as LISTEN). */
  url?: string;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /** PostgreSQL's pool, for the metrics: connections open, idle, and requests waiting for one. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /**
   * PostgreSQL's health gate (health-gate.ts): closed while the server does not answer, when the pool
   * refuses work at once. The app starts it; until then it never closes. PGlite runs in this process and
   * cannot stall that way, so it has none.
   */
  health?: DatabaseHealth;
  close(): Promise<void>;
}

export type DatabaseConfig =
  | { databaseUrl: string; pool?: Partial<PoolOptions> }
  | { dataDir: string }
  | { pglite: PGlite };

/** PostgreSQL through `pg` when a URL is given; otherwise the embedded PGlite, persisted in dataDir. */
export function createDatabase(config: DatabaseConfig): Database {
  if ("databaseUrl" in config) return createPostgresDatabase(config);
  let client: PGlite;
  if ("pglite" in config) {
    client = config.pglite;
  } else {
    const dir = path.resolve(config.dataDir, "pglite");
    mkdirSync(path.dirname(dir), { recursive: true });
    client = new PGlite(dir);
  }
  const statements = watchStatements(client);
  const db = drizzlePglite(client, { schema, casing: "snake_case" }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    location: "dataDir" in config ? `embedded PGlite in ${config.dataDir}` : "embedded PGlite",
    migrate: () => migrateEmbedded(db, client),
    ping: async () => {
      // PGlite runs one statement at a time, on this thread: a `select 1` queued behind the writes under way
      // measures the queue, not the database (seconds for the first writes after a restart under load, when
      // /readyz answered late, or 503 once its limit passed). While statements are under way, the next one
      // to finish shows the database answering; an idle or closed database is asked.
      if (client.ready && statements.underWay() > 0) return statements.nextAnswer();
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
  };
}

function createPostgresDatabase(config: { databaseUrl: string; pool?: Partial<PoolOptions> }): Database {
  // An option given as undefined (an unset variable) keeps its default.
  const given = Object.entries(config.pool ?? {}).filter(([, value]) => value !== undefined);
  const options: PoolOptions = { ...defaultPoolOptions, ...Object.fromEntries(given) };
  const health = createHealthGate({
    connectionString: config.databaseUrl,
    pingTimeoutMs: options.pingTimeoutMs,
    connectTimeoutMs: options.connectTimeoutMs,
  });
  const { pool, dropEveryConnection } = createPool(config.databaseUrl, options, health);
  // Every connection the pool holds goes through the path that just stopped answering: frozen, each
  // would hold its request until the statement timeout. Dropped now, they fail at once.
  health.onChange(({ available }) => {
    if (!available) dropEveryConnection();
  });
  const db = drizzlePg(pool, { schema, casing: "snake_case" }) as unknown as Db;
  const url = new URL(config.databaseUrl);
  return {
    db,
    kind: "postgres",
    location: `PostgreSQL at ${url.hostname}:${url.port || 5432}`,
    url: config.databaseUrl,
    migrate: () => migratePostgres(db, config.databaseUrl, options.connectTimeoutMs),
    ping: async () => {
      // A question about now, not the last ping's verdict: while closed, ask the server itself first.
      if (!health.isAvailable() && !(await health.check())) throw gateClosedError(health);
      await db.execute(sql`select 1`);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    health,
    close: async () => {
      await health.stop();
      await pool.end();
    },
  };
}

/**
 * The database's answer to `select 1` within ms, or a rejection once ms have passed, whatever the pool is
 * doing (the ping itself carries on, bounded by the pool's own timeouts).
 */
export async function pingWithin(database: Database, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`The database did not answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([database.ping(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
