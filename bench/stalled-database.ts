// A PostgreSQL server that accepts connections but stops answering, with the production pool settings
// (or DATABASE_CONNECT_TIMEOUT_MS / DATABASE_STATEMENT_TIMEOUT_MS / DATABASE_POOL_MAX /
// DATABASE_PING_TIMEOUT_MS): how long /readyz and API calls take to answer 503 while stalled, sent at the
// moment it stalls (the health gate has yet to notice) and once more after, how soon the gate closed, and
// how long after it answers again /readyz says 200.
//
//   npm run bench:stall                      # BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres
//
// It creates a database of its own there, puts a TCP proxy on loopback in front of it, and drops it afterwards.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { buildApp } from "#server/app.ts";
import { createDatabase } from "#server/db/client.ts";
import { loadEnv } from "#server/env.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { startTcpProxy } from "#server/test/tcp-proxy.ts";

const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const env = loadEnv();
const origin = "http://localhost:3000";
const concurrentCalls = Number(process.env.BENCH_CALLS ?? 20);

const name = `helpdesk_bench_${Date.now().toString(36)}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database "${name}"`);
const target = new URL(serverUrl);
const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
const viaProxy = new URL(serverUrl);
viaProxy.hostname = "127.0.0.1";
viaProxy.port = String(proxy.port);
viaProxy.pathname = `/${name}`;
const pool = {
  connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
  statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
  max: env.DATABASE_POOL_MAX,
  pingTimeoutMs: env.DATABASE_PING_TIMEOUT_MS,
};
const database = createDatabase({ databaseUrl: viaProxy.toString(), pool });
await database.migrate();
const app = await buildApp({
  database,
  baseURL: origin,
  authSecret: "bench-secret-bench-secret-bench-secret-01",
  clientDir: null,
  credentialRateLimit: { window: 60, max: 10_000 },
  adminSignUpKey: "bench-admin-key-0123456789",
  mailer: createMailer({
    outboxDir: path.join(mkdtempSync(path.join(os.tmpdir(), "helpdesk-bench-")), "outbox"),
    from: "Helpdesk <helpdesk@bench.local>",
    log: () => {},
  }),
});

const call = async (method: "GET" | "POST", url: string, cookie?: string, payload?: object) => {
  const start = performance.now();
  const response = await app.inject({
    method,
    url,
    payload,
    headers: { origin, ...(cookie ? { cookie } : {}) },
  });
  return { status: response.statusCode, ms: Math.round(performance.now() - start), response };
};

try {
  const signUp = await call("POST", "/api/auth/sign-up/email", undefined, {
    name: "Bench Person",
    email: "bench@example.test",
    password: "correct horse battery",
  });
  const cookie = [signUp.response.headers["set-cookie"]].flat().find((c) => c?.startsWith("better-auth"));
  if (!cookie) throw new Error(`sign-up failed: ${signUp.status} ${signUp.response.body}`);
  const session = cookie.split(";")[0]!;
  // Warm the pool the way traffic would, so the stall freezes open connections too.
  await Promise.all(Array.from({ length: concurrentCalls }, () => call("GET", "/api/tickets", session)));

  let gateClosedAfter: number | undefined;
  const stalledAt = performance.now();
  database.health?.onChange(({ available }) => {
    if (!available) gateClosedAfter ??= Math.round(performance.now() - stalledAt);
  });
  proxy.stall();
  // At the moment of the stall: /readyz and the calls wait together for whatever notices first.
  const [ready, ...calls] = await Promise.all([
    call("GET", "/readyz"),
    ...Array.from({ length: concurrentCalls }, () => call("GET", "/api/tickets", session)),
  ]);
  const describe = (wave: typeof calls) => {
    const times = wave.map((c) => c.ms).sort((a, b) => a - b);
    const statuses = [...new Set(wave.map((c) => c.status))].join(", ");
    return (
      `${concurrentCalls} concurrent GET /api/tickets → ${statuses}; ` +
      `fastest ${times[0]} ms, median ${times[Math.floor(times.length / 2)]} ms, slowest ${times.at(-1)} ms`
    );
  };
  console.log(`Pool: ${JSON.stringify(pool)} (unset = default)`);
  console.log(
    `Stalled: health gate closed after ${gateClosedAfter ?? "—"} ms; /readyz ${ready.status} in ${ready.ms} ms`,
  );
  console.log(`Stalled, sent at once: ${describe(calls)}`);
  const later = await Promise.all(
    Array.from({ length: concurrentCalls }, () => call("GET", "/api/tickets", session)),
  );
  console.log(`Stalled, sent after that: ${describe(later)}`);

  proxy.forward();
  const back = performance.now();
  let polls = 0;
  for (;;) {
    polls++;
    if ((await call("GET", "/readyz")).status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const readyAfter = Math.round(performance.now() - back);
  const list = await call("GET", "/api/tickets", session);
  console.log(
    `Answering again → /readyz 200 after ${readyAfter} ms (${polls} polls, 100 ms apart); ` +
      `GET /api/tickets then ${list.status} in ${list.ms} ms`,
  );
} finally {
  await proxy.close();
  await app.close();
  await database.close();
  await admin.query(`drop database "${name}" with (force)`);
  await admin.end();
}
