import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signedInAs } from "#server/test/factories.ts";
import { startTcpProxy, type TcpProxy, unusedPort } from "#server/test/tcp-proxy.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { createDatabase } from "./client.ts";
import { isDatabaseUnavailable } from "./connection-errors.ts";
import { waitForDatabase } from "./wait-for-database.ts";

// Only a real server can stall: PGlite runs in this process.
const isPostgres = Boolean(process.env.TEST_DATABASE_URL);

const unavailable = {
  code: "unavailable",
  message: "The database is not answering. Please try again in a moment.",
};
const newTicket = {
  title: "Laptop will not boot",
  description: "Black screen after the logo.",
  category: "Hardware",
  priority: "High",
  department: "Finance",
  floor: "3",
  officeNumber: "301",
};
// Small on purpose: a pool of 3 shows at once any connection a stall leaks.
const pool = { connectTimeoutMs: 500, statementTimeoutMs: 500, idleTimeoutMs: 60_000, max: 3 };

const target = () => {
  const url = new URL(inject("pgTemplateUrl"));
  return { host: url.hostname, port: Number(url.port || 5432) };
};
const throughPort = (port: number) => (url: URL) => {
  const via = new URL(url);
  via.hostname = "127.0.0.1";
  via.port = String(port);
  return via;
};

async function timed<T>(work: Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await work;
  return { result, ms: Math.round(performance.now() - start) };
}

describe.skipIf(!isPostgres)("a PostgreSQL server that accepts connections but stops answering", () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    proxy = await startTcpProxy(target());
    t = await createTestApp({}, { connectVia: throughPort(proxy.port), pool });
    ({ cookie } = await signedInAs(t.app, t.database.db));
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });

  it("takes back the connection of a transaction whose BEGIN never got an answer", async () => {
    const { db } = t.database;
    // Fill the pool with open connections, which the stall then freezes.
    await Promise.all(Array.from({ length: pool.max }, () => db.execute(sql`select pg_sleep(0.05)`)));
    proxy.stall();
    const transactions = await Promise.allSettled(
      Array.from({ length: pool.max }, () => db.transaction((tx) => tx.execute(sql`select 1`))),
    );
    for (const outcome of transactions) {
      expect(outcome.status).toBe("rejected");
      expect(isDatabaseUnavailable((outcome as PromiseRejectedResult).reason)).toBe(true);
    }
    proxy.forward();
    // The health gate closed meanwhile (decision 049): it opens at its next ping that gets an answer.
    await t.database.ping();
    // drizzle never releases a client whose BEGIN failed: were they still counted, the pool would stay full.
    const after = await timed(db.execute(sql`select 1`));
    expect(after.ms).toBeLessThan(pool.connectTimeoutMs);
  });

  it("answers 503 in the shared shape while stalled, and recovers by itself when it answers again", async () => {
    const before = await request(t.app, { method: "GET", url: "/api/tickets", cookie });
    expect(before.statusCode).toBe(200);
    // An API token is checked against the database too (decision 024): a stall is a 503 for it as well.
    const tokenCreated = await request(t.app, {
      method: "POST",
      url: "/api/me/tokens",
      cookie,
      payload: { name: "Stall check", scope: "read" },
    });
    expect(tokenCreated.statusCode, tokenCreated.body).toBe(201);
    const bearer = { authorization: `Bearer ${tokenCreated.json<{ token: string }>().token}` };

    proxy.stall();
    const ready = await timed(request(t.app, { method: "GET", url: "/readyz" }));
    expect(ready.result.statusCode).toBe(503);
    expect(ready.result.json()).toEqual(unavailable);
    expect(ready.ms).toBeLessThan(1_500);

    // More requests than the pool holds, reads and writes (transactions) at once: none may hang or
    // keep a connection the pool needs after the database is back.
    const calls = await Promise.all([
      ...Array.from({ length: 4 }, () =>
        timed(request(t.app, { method: "GET", url: "/api/tickets", cookie })),
      ),
      ...Array.from({ length: 4 }, () =>
        timed(request(t.app, { method: "POST", url: "/api/tickets", cookie, payload: newTicket })),
      ),
      timed(t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer })),
      timed(
        request(t.app, {
          method: "POST",
          url: "/api/auth/sign-in/email",
          payload: { email: "nobody@example.test", password: "whatever-it-is" },
        }),
      ),
    ]);
    for (const call of calls) {
      expect(call.result.statusCode).toBe(503);
      expect(call.result.json()).toEqual(unavailable);
      expect(call.ms).toBeLessThan(5_000);
    }

    proxy.forward();
    const recovery = await timed(
      (async () => {
        const deadline = Date.now() + 20_000;
        while (Date.now() < deadline) {
          const response = await request(t.app, { method: "GET", url: "/readyz" });
          if (response.statusCode === 200) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error("/readyz did not answer 200 within 20 s of the database answering again");
      })(),
    );
    const list = await request(t.app, { method: "GET", url: "/api/tickets", cookie });
    expect(list.statusCode).toBe(200);
    const created = await timed(
      request(t.app, { method: "POST", url: "/api/tickets", cookie, payload: newTicket }),
    );
    expect(created.result.statusCode).toBe(201);
    // Nothing sent during the stall reached the database.
    expect(list.json().items).toHaveLength(0);

    console.log(
      `stalled: /readyz 503 in ${ready.ms} ms; API 503 in ${Math.min(...calls.map((c) => c.ms))}–${Math.max(...calls.map((c) => c.ms))} ms. ` +
        `Database answering again → /readyz 200 in ${recovery.ms} ms; first write after: ${created.ms} ms`,
    );
    expect(recovery.ms).toBeLessThan(3_000);
  });
});

describe.skipIf(!isPostgres)("start-up with no database yet", () => {
  it("retries with growing pauses, saying where and why, until the database answers", async () => {
    const port = await unusedPort();
    const url = throughPort(port)(new URL(inject("pgTemplateUrl")));
    const database = createDatabase({ databaseUrl: url.toString(), pool });
    const logs: string[] = [];
    const pauses: number[] = [];
    let proxy: TcpProxy | undefined;
    try {
      await waitForDatabase(database, {
        log: (message) => logs.push(message),
        // Nothing listens for two attempts, then a server that accepts but never answers, then the database.
        sleep: async (ms) => {
          pauses.push(ms);
          if (pauses.length === 2) {
            proxy = await startTcpProxy(target(), port);
            proxy.stall();
          }
          if (pauses.length === 3) proxy?.forward();
        },
      });
      await database.ping();
    } finally {
      await proxy?.close();
      await database.close();
    }
    expect(pauses).toEqual([1_000, 2_000, 4_000]);
    expect(logs).toHaveLength(3);
    expect(logs[0]).toMatch(`127.0.0.1:${port}`);
    expect(logs[0]).toMatch(/ECONNREFUSED|refused/);
    expect(logs[0]).toMatch(/retrying in 1 s/);
    expect(logs[2]).toMatch(/timeout/);
  });

  it("stops at once, in the server's words, when waiting cannot help", async () => {
    const url = new URL(inject("pgTemplateUrl"));
    url.pathname = "/no_such_database";
    const database = createDatabase({ databaseUrl: url.toString(), pool });
    const logs: string[] = [];
    try {
      await expect(waitForDatabase(database, { log: (message) => logs.push(message) })).rejects.toThrow(
        `PostgreSQL at ${url.hostname}:${url.port || 5432}: database "no_such_database" does not exist`,
      );
    } finally {
      await database.close();
    }
    expect(logs).toEqual([]);
  });

  it("gives up with a clear error after the configured time", async () => {
    const port = await unusedPort();
    const url = throughPort(port)(new URL(inject("pgTemplateUrl")));
    const database = createDatabase({ databaseUrl: url.toString(), pool });
    let now = 0;
    try {
      await expect(
        waitForDatabase(database, {
          log: () => {},
          sleep: async (ms) => {
            now += ms;
          },
          now: () => now,
          giveUpAfterMs: 5_000,
        }),
      ).rejects.toThrow(new RegExp(`127\\.0\\.0\\.1:${port}.*did not answer within 5 s`));
    } finally {
      await database.close();
    }
  });
});
