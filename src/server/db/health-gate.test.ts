import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPgBus } from "#server/realtime/pg-bus.ts";
import { signedInAs } from "#server/test/factories.ts";
import { startTcpProxy, type TcpProxy } from "#server/test/tcp-proxy.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import type { DatabaseHealth } from "./health-gate.ts";

// Only a real server can stall: PGlite runs in this process and has no gate.
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
// The pool's own timeouts far above the test's 30 s limit: a request that answers during a stall was
// answered by the gate, never by them. A pool of 3 shows at once any connection a stall leaks.
const pool = { connectTimeoutMs: 120_000, statementTimeoutMs: 120_000, idleTimeoutMs: 120_000, max: 3 };
const metricsToken = "metrics-token-0123456789";

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

/** Resolves when the gate next says `available`; a guard against hanging, not a measure of speed. */
function nextChange(health: DatabaseHealth, available: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    if (health.isAvailable() === available) return resolve();
    const guard = setTimeout(() => reject(new Error(`the gate never became ${available}`)), 20_000);
    const stop = health.onChange((change) => {
      if (change.available !== available) return;
      clearTimeout(guard);
      stop();
      resolve();
    });
  });
}

describe.skipIf(!isPostgres)("PostgreSQL's health gate during a stall", () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let health: DatabaseHealth;
  let cookie: string;
  let bearer: { authorization: string };
  const logs: Array<{ level: number; msg: string }> = [];
  const stream = { write: (line: string) => logs.push(JSON.parse(line)) };
  const gateLines = () =>
    logs.filter((line) => /is not answering|is answering again/.test(line.msg)).map((l) => [l.level, l.msg]);

  beforeAll(async () => {
    proxy = await startTcpProxy(target());
    t = await createTestApp(
      { logger: { level: "info", stream }, metricsToken },
      { connectVia: throughPort(proxy.port), pool },
    );
    health = t.database.health!;
    ({ cookie } = await signedInAs(t.app, t.database.db));
    const token = await request(t.app, {
      method: "POST",
      url: "/api/me/tokens",
      cookie,
      payload: { name: "Stall check", scope: "write" },
    });
    expect(token.statusCode, token.body).toBe(201);
    bearer = { authorization: `Bearer ${token.json<{ token: string }>().token}` };
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });

  it("answers 503 in the shared shape while the proxy still holds every connection, and logs it once", async () => {
    const { db } = t.database;
    expect((await request(t.app, { method: "GET", url: "/api/tickets", cookie })).statusCode).toBe(200);
    // Open connections that the stall then freezes: requests on them wait for an answer that never comes.
    await Promise.all(Array.from({ length: pool.max }, () => db.execute(sql`select pg_sleep(0.05)`)));
    proxy.stall();

    // More than the pool holds, reads and writes, a token, better-auth's own routes and the readiness
    // probe, all at once: some on frozen connections, some waiting for one.
    const calls = await Promise.all([
      ...Array.from({ length: 3 }, () => request(t.app, { method: "GET", url: "/api/tickets", cookie })),
      ...Array.from({ length: 3 }, () =>
        request(t.app, { method: "POST", url: "/api/tickets", cookie, payload: newTicket }),
      ),
      t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer }),
      request(t.app, {
        method: "POST",
        url: "/api/auth/sign-in/email",
        payload: { email: "nobody@example.test", password: "whatever-it-is" },
      }),
      request(t.app, { method: "GET", url: "/readyz" }),
    ]);
    for (const call of calls) {
      expect(call.statusCode, call.body).toBe(503);
      expect(call.json()).toEqual(unavailable);
      expect(call.headers["retry-after"]).toBe("1");
    }
    expect(health.isAvailable()).toBe(false);

    // Closed: refused at once without touching the pool, which holds no connection now.
    const refused = await Promise.all([
      request(t.app, { method: "GET", url: "/api/tickets", cookie }),
      request(t.app, { method: "GET", url: "/api/auth/get-session", cookie }),
      request(t.app, { method: "POST", url: "/api/tickets", cookie, payload: newTicket }),
    ]);
    for (const call of refused) {
      expect(call.statusCode, call.body).toBe(503);
      expect(call.json()).toEqual(unavailable);
    }
    expect(t.database.poolStats!()).toEqual({ total: 0, idle: 0, waiting: 0 });

    // What needs no database still answers, the metrics included.
    expect((await request(t.app, { method: "GET", url: "/healthz" })).statusCode).toBe(200);
    expect((await request(t.app, { method: "GET", url: "/api/openapi.json" })).statusCode).toBe(200);
    const metrics = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/^helpdesk_db_available 0$/m);
    expect(metrics.body).toMatch(/^helpdesk_db_unavailable_total 1$/m);

    expect(gateLines()).toEqual([
      [40, expect.stringMatching(/^PostgreSQL at 127\.0\.0\.1:\d+ is not answering/)],
    ]);
    expect(logs.filter((line) => line.msg === "database unavailable" && line.level >= 40)).toEqual([]);
  });

  it("opens again by itself when PostgreSQL answers, with nothing of the stall written", async () => {
    proxy.forward();
    await nextChange(health, true);
    const ready = await request(t.app, { method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    const list = await request(t.app, { method: "GET", url: "/api/tickets", cookie });
    expect(list.statusCode).toBe(200);
    // Every write sent during the stall answered 503 and left nothing behind.
    expect(list.json().items).toHaveLength(0);
    const created = await request(t.app, { method: "POST", url: "/api/tickets", cookie, payload: newTicket });
    expect(created.statusCode).toBe(201);
    const viaToken = await t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer });
    expect(viaToken.statusCode).toBe(200);
    expect(viaToken.json().items).toHaveLength(1);
    expect(gateLines()).toEqual([
      [40, expect.stringMatching(/is not answering/)],
      [30, expect.stringMatching(/^PostgreSQL at 127\.0\.0\.1:\d+ is answering again after \d+\.\d s$/)],
    ]);
  });

  it("stays open while slow queries fill the pool, since it pings on a connection of its own", async () => {
    const { db } = t.database;
    const closuresBefore = health.closures();
    // Every connection busy for longer than the gate allows a ping, and requests queued behind them.
    const slow = Array.from({ length: pool.max }, () => db.execute(sql`select pg_sleep(1.5)`));
    const waiting = await Promise.all(
      Array.from({ length: 4 }, () => request(t.app, { method: "GET", url: "/api/tickets", cookie })),
    );
    await Promise.all(slow);
    for (const call of waiting) expect(call.statusCode).toBe(200);
    expect(health.isAvailable()).toBe(true);
    expect(health.closures()).toBe(closuresBefore);
  });
});

describe.skipIf(!isPostgres)("PostgreSQL's health gate on a healthy server", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ pool });
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it("does not take a busy event loop for a silent server", async () => {
    const health = database.health!;
    expect(await health.check()).toBe(true);
    const checking = health.check();
    // Blocked past the ping's timeout: the answer arrives meanwhile, but is only read after the timer fires.
    const until = performance.now() + 1_500;
    while (performance.now() < until) {
      // busy
    }
    expect(await checking).toBe(true);
    expect(health.closures()).toBe(0);
  });
});

describe.skipIf(!isPostgres)("live push after a stall", () => {
  let proxy: TcpProxy;
  let database: TestDatabase;
  beforeAll(async () => {
    proxy = await startTcpProxy(target());
    database = await createTestDatabase({ connectVia: throughPort(proxy.port), pool });
  });
  afterAll(async () => {
    await proxy?.close();
    await database?.destroy();
  });

  it("listens on a new connection once the gate opens again: the old one stays frozen for good", async () => {
    const health = database.health!;
    await health.check();
    const bus = await createPgBus({
      connectionString: database.url!,
      db: database.db,
      logError: () => {},
      health,
    });
    const gaps: number[] = [];
    bus.onGap(() => gaps.push(1));
    try {
      proxy.stall();
      await nextChange(health, false);
      proxy.forward();
      await nextChange(health, true);
      // The new listener may still be starting: publish until it hears one (a bounded wait, not a measure).
      const message = { kind: "session-ended", userId: "someone" } as const;
      const heard: unknown[] = [];
      bus.subscribe((received) => heard.push(received));
      for (let attempt = 0; attempt < 100 && heard.length === 0; attempt++) {
        await bus.publish(message);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(heard[0]).toEqual(message);
      // The streams learn that messages may have been lost meanwhile, and replay from the table.
      expect(gaps).toEqual([1]);
    } finally {
      await bus.close();
    }
  });
});
