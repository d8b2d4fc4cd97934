import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { projectRoot } from "#server/project-root.ts";
import {
  createHealthGate,
  type DatabaseHealth,
  defaultPingTimeoutMs,
  gateClosedError,
} from "./health-gate.ts";
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

/** The advisory lock held while migrating PostgreSQL (any constant, fixed across releases). */
export const migrationLockKey = 7_245_910_014;

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
async function hasNewestMigration(db: Db, folder: string): Promise<boolean> {
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

/** How the PostgreSQL pool copes with a database that is slow, stalled or gone. */
export interface PoolOptions {
  /** Opening a connection, or waiting for a free one in a full pool. */
  connectTimeoutMs: number;
  /** One statement; the server cancels it, and the client gives up shortly after if even that gets no answer. */
  statementTimeoutMs: number;
  /** An unused connection is closed after this long. */
  idleTimeoutMs: number;
  max: number;
  /**
   * The health gate's ping on its own connection: no answer within this long, and the pool refuses work
   * until one answers again. Far below the other timeouts, so a stall is a 503 within a second.
   */
  pingTimeoutMs: number;
}

export const defaultPoolOptions: PoolOptions = {
  connectTimeoutMs: 2_000,
  statementTimeoutMs: 5_000,
  idleTimeoutMs: 30_000,
  max: 10,
  pingTimeoutMs: defaultPingTimeoutMs,
};

// The server's statement_timeout answers first when the server is merely slow (the connection stays
// usable); the client's own timeout only fires when nothing answers at all.
const clientTimeoutGraceMs = 1_000;

export type DatabaseConfig =
  | { databaseUrl: string; pool?: Partial<PoolOptions> }
  | { dataDir: string }
  | { pglite: PGlite };

/** PostgreSQL through `pg` when a URL is given; otherwise the embedded PGlite, persisted in dataDir. */
export function createDatabase(config: DatabaseConfig): Database {
  if ("databaseUrl" in config) {
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
      migrate: async () => {
        if (await hasNewestMigration(db, migrationsFolder)) return;
        // Its own connection, without the statement timeout: a migration may rightly take minutes.
        const client = new pg.Client({
          connectionString: config.databaseUrl,
          connectionTimeoutMillis: options.connectTimeoutMs,
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
      },
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
    migrate: async () => {
      if (await hasNewestMigration(db, migrationsFolder)) return;
      await migratePglite(drizzlePglite(client), { migrationsFolder });
    },
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

/**
 * Counts the statements and transactions under way on a PGlite instance (its `query`, `exec` and
 * `transaction`, and a transaction's own `query` and `exec`: what drizzle calls), tells when the next one
 * finishes without an error, and makes the top-level ones take turns with the rest of the process.
 *
 * Taking turns: a PGlite statement runs on this thread, and its promise chain never goes back to the event
 * loop, so operations queued in PGlite ran back to back while no connection was accepted, no request read
 * and no timer fired (after a restart under load, /readyz's connection waited 0.5-2 s for the first writes
 * of eight clients; one request's own queries, one after the other, did the same). Each top-level operation
 * now starts on a turn of the event loop of its own, after the one before it has finished: PGlite runs one at
 * a time anyway, and between two of them the process takes in what has arrived. Not before PGlite is ready:
 * its start runs a query of its own through `query`.
 */
function watchStatements(client: PGlite) {
  let underWay = 0;
  let waiting: Array<() => void> = [];
  let takesTurns = false;
  let lastTurn: Promise<unknown> = Promise.resolve();
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  // From the first turn of the event loop after PGlite is ready: that turn waited 0.1-0.3 s (idle) right
  // after the start, and the start's own few queries would have paid it.
  void client.waitReady.then(nextTurn).then(
    () => {
      takesTurns = true;
    },
    () => {},
  );
  const inTurn = <R>(run: () => Promise<R>): Promise<R> => {
    if (!takesTurns) return run();
    const result = lastTurn.then(nextTurn).then(run);
    lastTurn = result.catch(() => {});
    return result;
  };
  const watch =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>, { topLevel }: { topLevel: boolean }) =>
    (...args: A): Promise<R> => {
      underWay++;
      const settled = (answered: boolean) => {
        underWay--;
        if (!answered) return;
        const resolvers = waiting;
        waiting = [];
        for (const resolve of resolvers) resolve();
      };
      return (topLevel ? inTurn(() => run(...args)) : run(...args)).then(
        (result) => {
          settled(true);
          return result;
        },
        (error: unknown) => {
          settled(false);
          throw error;
        },
      );
    };
  const watchQueries = (target: Pick<PGlite, "query" | "exec">, topLevel: boolean) => {
    target.query = watch(target.query.bind(target), { topLevel }) as typeof target.query;
    target.exec = watch(target.exec.bind(target), { topLevel }) as typeof target.exec;
  };
  watchQueries(client, true);
  const transaction = client.transaction.bind(client);
  client.transaction = watch(
    (callback: Parameters<typeof transaction>[0]) =>
      transaction((tx) => {
        watchQueries(tx, false);
        return callback(tx);
      }),
    { topLevel: true },
  ) as typeof client.transaction;
  return {
    underWay: () => underWay,
    nextAnswer: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
      }),
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

function createPool(connectionString: string, options: PoolOptions, health: DatabaseHealth) {
  /** Every connection of the pool, those still connecting included. */
  const clients = new Set<pg.Client>();
  /** Dropped because the gate closed: the gate's one warning says why, not one line per connection. */
  const dropped = new WeakSet<pg.Client>();
  // While the gate is closed the pool opens nothing, not even for requests it queued before it closed:
  // a connection opened now would freeze like the others.
  class GatedClient extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: (error: Error) => void): void;
    override connect(callback?: (error: Error) => void): Promise<pg.Client> | undefined {
      if (!health.isAvailable()) {
        const error = gateClosedError(health);
        if (!callback) return Promise.reject(error);
        process.nextTick(callback, error);
        return;
      }
      clients.add(this);
      this.once("end", () => clients.delete(this));
      if (!callback) return super.connect();
      super.connect(callback);
      return undefined;
    }
  }
  const pool = new pg.Pool({
    connectionString,
    max: options.max,
    connectionTimeoutMillis: options.connectTimeoutMs,
    idleTimeoutMillis: options.idleTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    query_timeout: options.statementTimeoutMs + clientTimeoutGraceMs,
    keepAlive: true,
    Client: GatedClient as unknown as new () => pg.ClientBase,
  });
  // An idle connection the server closed (restart, failover) must not crash the process;
  // the pool replaces it on the next query.
  pool.on("error", (error, client) => {
    if (!dropped.has(client)) console.error(`PostgreSQL connection lost: ${error.message}`);
  });

  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on("acquire", (client) => checkedOut.add(client));
  pool.on("release", (_error, client) => checkedOut.delete(client));
  pool.on("connect", (client) => {
    guardQueries(client, {
      watch: health.watch,
      onTimeout: () => {
        // Not even the server's statement_timeout came back: the server or the path to it is gone, and the
        // idle connections with it. Trying each would cost a full timeout; reconnecting costs milliseconds.
        for (const other of clients) {
          if (other === client || !checkedOut.has(other as pg.PoolClient)) closeConnection(other);
        }
      },
    });
    // A connection that dies while lent out (closed below, or by the server) goes back to the pool as
    // broken at once: drizzle never releases a transaction's client when its BEGIN fails, and would
    // otherwise return it later as healthy. Without a listener here, the error would crash the process.
    client.on("error", (error) => {
      if (!checkedOut.has(client)) return;
      client.release(error);
      client.release = () => {};
    });
  });

  // Refused at once while the gate is closed; otherwise watched, so that a checkout waiting too long (a
  // full pool, a connection that does not open) asks the gate to ping. pool.query comes through here too.
  const connect = pool.connect.bind(pool) as (
    callback?: ConnectCallback,
  ) => Promise<pg.PoolClient> | undefined;
  const gatedConnect = (callback?: ConnectCallback) => {
    if (!health.isAvailable()) {
      const error = gateClosedError(health);
      if (!callback) return Promise.reject(error);
      process.nextTick(callback, error, undefined, () => {});
      return;
    }
    const done = health.watch();
    if (callback) {
      return connect((error, client, release) => {
        done();
        callback(error, client, release);
      });
    }
    const result = connect() as Promise<pg.PoolClient>;
    result.then(done, done);
    return result;
  };
  pool.connect = gatedConnect as typeof pool.connect;

  // Each fails its queries (or its connecting) with the gate's reason, not a bare "Connection terminated".
  const dropEveryConnection = () => {
    for (const client of clients) {
      dropped.add(client);
      client.connection.stream.destroy(gateClosedError(health));
    }
  };
  return { pool, dropEveryConnection };
}

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  release: () => void,
) => void;

/**
 * pg's query_timeout rejects the query but leaves it running on the connection, so every later query on
 * that client would queue behind an answer that may never come. Closing the socket fails them at once.
 */
const closeConnection = (client: pg.Client) => client.connection.stream.destroy();

/**
 * Each query is watched by the health gate (one still waiting after a moment asks for a ping), and
 * onTimeout is called when one got no answer within pg's query_timeout.
 */
function guardQueries(
  client: pg.PoolClient,
  { watch, onTimeout }: { watch: () => () => void; onTimeout: () => void },
) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const reportTimeout = (error: unknown) => {
    if (error instanceof Error && error.message === "Query read timeout") onTimeout();
  };
  const guarded = (...args: unknown[]) => {
    const finished = watch();
    const done = args.at(-1);
    if (typeof done === "function") {
      // The pool's own pool.query passes a callback.
      args[args.length - 1] = (error: unknown, result: unknown) => {
        finished();
        reportTimeout(error);
        done(error, result);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) {
      result.then(finished, (error: unknown) => {
        finished();
        reportTimeout(error);
      });
    } else finished();
    return result;
  };
  client.query = guarded as typeof client.query;
}
