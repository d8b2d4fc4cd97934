import pg from "pg";
import { type DatabaseHealth, defaultPingTimeoutMs, gateClosedError } from "./health-gate.ts";

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

/** The pg pool behind the health gate: refused at once while the gate is closed, each query watched by it. */
export function createPool(connectionString: string, options: PoolOptions, health: DatabaseHealth) {
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
