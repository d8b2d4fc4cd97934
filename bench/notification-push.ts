// Live push at scale: write → event latency with 1,000 technician streams, and the server's memory per idle
// stream with 10,000 of them. The server (the real app: buildApp + listen on loopback) runs in a child
// process, so that neither the clients' sockets and parsing nor their memory count as the server's.
//
//   npm run bench:push                          # embedded PGlite (in a temporary folder)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:push
//
// With BENCH_DATABASE_URL it creates a database of its own there and drops it afterwards. Each process
// holds one socket per stream: `ulimit -n` must exceed BENCH_IDLE_STREAMS (the bench checks and says so).
// Figures go to stdout and to bench/results/notification-push-<pglite|postgres>.json.
//
// Knobs: BENCH_TECHNICIANS (1000), BENCH_TICKETS (50), BENCH_INTERVAL_MS (100), BENCH_IDLE_STREAMS (10000),
// BENCH_TABS (5 streams per idle person, sharing one session), BENCH_IDLE_HOLD_MS (30000: long enough for
// a heartbeat and a session sweep to run over the idle streams before the last reading); BENCH_PROF=1 writes
// the server processes' CPU profiles to /tmp/prof.
import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { Role } from "#shared/users/roles.ts";
import { openStream } from "./server-bench.ts";

const config = {
  technicians: Number(process.env.BENCH_TECHNICIANS ?? 1_000),
  tickets: Number(process.env.BENCH_TICKETS ?? 50),
  intervalMs: Number(process.env.BENCH_INTERVAL_MS ?? 100),
  idleStreams: Number(process.env.BENCH_IDLE_STREAMS ?? 10_000),
  tabs: Number(process.env.BENCH_TABS ?? 5),
  idleHoldMs: Number(process.env.BENCH_IDLE_HOLD_MS ?? 30_000),
};
const authSecret = randomBytes(32).toString("hex");
const cookieName = "better-auth.session_token";

// ---------------------------------------------------------------------------------------------------------
// The server process: the real app on its own database, answering a few requests from the driver over IPC.

type Request =
  | { kind: "seed"; prefix: string; role: Role; people: number }
  | { kind: "memory" }
  | { kind: "cpu" }
  | { kind: "stop" };
type Reply = { id: number; result?: unknown; error?: string };
interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

async function runServer() {
  const [{ buildApp }, { createDatabase }, { sessions, users }, { createMailer }] = await Promise.all([
    import("#server/app.ts"),
    import("#server/db/client.ts"),
    import("#server/db/schema/index.ts"),
    import("#server/mail/mailer.ts"),
  ]);
  const databaseUrl = process.env.BENCH_SERVER_DATABASE_URL;
  const database = createDatabase(
    databaseUrl ? { databaseUrl } : { dataDir: process.env.BENCH_SERVER_DATA_DIR! },
  );
  await database.migrate();
  const outbox = mkdtempSync(path.join(os.tmpdir(), "helpdesk-bench-outbox-"));
  const app = await buildApp({
    database,
    baseURL: "http://127.0.0.1",
    authSecret: process.env.BENCH_AUTH_SECRET!,
    clientDir: null,
    logger: { level: "warn" },
    adminSignUpKey: randomBytes(16).toString("hex"),
    mailer: createMailer({ outboxDir: outbox, from: "Helpdesk <bench@localhost>", log: () => {} }),
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();

  // People and their sessions written straight to the tables: 1,000 argon2 sign-ins would take minutes
  // and measure nothing this bench is about. Returns one session token per person.
  async function seed({ prefix, role, people }: Extract<Request, { kind: "seed" }>) {
    const expiresAt = new Date(Date.now() + 24 * 3_600_000);
    const rows = Array.from({ length: people }, (_, i) => ({
      userId: `${prefix}${i}`,
      token: randomBytes(24).toString("base64url"),
    }));
    for (let start = 0; start < rows.length; start += 1_000) {
      const chunk = rows.slice(start, start + 1_000);
      await database.db.insert(users).values(
        chunk.map(({ userId }) => ({
          id: userId,
          name: `Bench ${userId}`,
          email: `${userId}@bench.test`,
          role,
        })),
      );
      await database.db
        .insert(sessions)
        .values(chunk.map(({ userId, token }) => ({ id: `ses_${userId}`, token, userId, expiresAt })));
    }
    return rows;
  }

  async function memory(): Promise<Memory> {
    // Collect twice, letting finalizers run in between, so that only what is still held is counted.
    for (let i = 0; i < 2; i++) {
      globalThis.gc?.();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
    return { rss, heapUsed, heapTotal, external, arrayBuffers };
  }

  process.on("message", async ({ id, request }: { id: number; request: Request }) => {
    const reply = (message: Omit<Reply, "id">) => process.send!({ id, ...message });
    try {
      if (request.kind === "seed") reply({ result: await seed(request) });
      else if (request.kind === "memory") reply({ result: await memory() });
      else if (request.kind === "cpu") reply({ result: process.cpuUsage() });
      else {
        await app.close();
        await database.close();
        rmSync(outbox, { recursive: true, force: true });
        // Exit once the driver has the answer: nothing of this process is needed afterwards.
        process.send!({ id, result: null }, () => process.exit(0));
      }
    } catch (error) {
      reply({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  });
  process.send!({ id: 0, result: typeof address === "object" && address ? address.port : null });
}

// ---------------------------------------------------------------------------------------------------------
// The driver: starts server processes, opens the streams, writes, and measures.

interface Server {
  port: number;
  call<T>(request: Request): Promise<T>;
  stop(): Promise<void>;
}

function startServer(env: Record<string, string>): Promise<Server> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--server"], {
    execArgv: [
      ...process.execArgv,
      "--expose-gc",
      ...(process.env.BENCH_PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : []),
    ],
    env: { ...process.env, ...env, BENCH_AUTH_SECRET: authSecret },
  });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 1;
  child.on("message", (message: Reply) => {
    const waiter = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) waiter?.reject(new Error(`server: ${message.error}`));
    else waiter?.resolve(message.result);
  });
  child.on("exit", (code) => {
    for (const waiter of waiting.values()) waiter.reject(new Error(`the server process exited (${code})`));
    waiting.clear();
  });
  const call = <T>(request: Request) =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id, request });
    });
  return new Promise((resolve, reject) => {
    waiting.set(0, {
      resolve: (port) =>
        resolve({
          port: port as number,
          call,
          stop: async () => {
            await call({ kind: "stop" });
            if (child.exitCode === null) await new Promise((done) => child.once("exit", done));
          },
        }),
      reject,
    });
  });
}

/** The session cookie as better-auth sets it (better-call's signed cookie). */
function sessionCookie(token: string) {
  const signature = createHmac("sha256", authSecret).update(token).digest("base64");
  return `${cookieName}=${encodeURIComponent(`${token}.${signature}`)}`;
}

/** Runs fn over items, at most `limit` at a time. */
async function inParallel<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number) => Math.round(value * 10) / 10;

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  return { p50: round(at(50)), p90: round(at(90)), p99: round(at(99)), max: round(sorted.at(-1) ?? 0) };
}

async function fetchJson(port: number, url: string, cookie: string, body?: object) {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: body ? "POST" : "GET",
    headers: { cookie, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function measureLatency(server: Server) {
  const { port } = server;
  const technicians = await server.call<Array<{ userId: string; token: string }>>({
    kind: "seed",
    prefix: "tech_",
    role: "technician",
    people: config.technicians,
  });
  const [author] = await server.call<Array<{ userId: string; token: string }>>({
    kind: "seed",
    prefix: "author_",
    role: "user",
    people: 1,
  });
  const authorCookie = sessionCookie(author!.token);
  // One request proves that the hand-made cookies are the ones better-auth accepts.
  const me = await fetchJson(port, "/api/me", sessionCookie(technicians[0]!.token));
  if (me.status !== 200 || me.body.role !== "technician")
    throw new Error(`the bench's session cookie was refused: ${me.status} ${JSON.stringify(me.body)}`);

  const sentAt: number[] = [];
  const received: number[] = new Array(config.tickets).fill(0);
  const firstAt: number[] = [];
  const lastAt: number[] = [];
  const latencies: number[] = [];
  /** Per delivery: which ticket, and when it arrived. */
  const arrivals: Array<[number, number]> = [];
  let misdelivered = 0;
  let ticketEvents = 0;
  let lastDelivery = 0;
  let allDelivered: () => void = () => {};
  const everything = new Promise<void>((resolve) => {
    allDelivered = resolve;
  });
  const expected = config.tickets * config.technicians;

  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const openStart = performance.now();
  const streams = await inParallel(technicians, 50, ({ userId, token }) =>
    openStream(`http://127.0.0.1:${port}`, sessionCookie(token), {
      agent,
      onEvent: (event, data, at) => {
        if (event === "ticket") ticketEvents++;
        if (event !== "notification") return;
        const notification = JSON.parse(data) as { uid: string; message: string };
        const i = Number(/Bench push #(\d+)/.exec(notification.message)?.[1]);
        if (notification.uid !== userId || !Number.isInteger(i)) {
          misdelivered++;
          return;
        }
        latencies.push(at - sentAt[i]!);
        arrivals.push([i, at]);
        received[i]!++;
        firstAt[i] ??= at;
        lastAt[i] = at;
        lastDelivery = at;
        if (latencies.length === expected) allDelivered();
      },
    }),
  );
  const openSeconds = (performance.now() - openStart) / 1000;
  console.log(`  ${streams.length} technician streams open in ${openSeconds.toFixed(1)} s`);

  // Open loop: a ticket every intervalMs whatever the server is doing, so a server that falls behind
  // shows as growing latency rather than as a slower sender.
  const postTimes: number[] = [];
  const answeredAt: number[] = [];
  const cpuBefore = await server.call<NodeJS.CpuUsage>({ kind: "cpu" });
  const statuses = new Map<number, number>();
  const start = performance.now();
  const posts: Array<Promise<void>> = [];
  for (let i = 0; i < config.tickets; i++) {
    await sleep(start + i * config.intervalMs - performance.now());
    sentAt[i] = performance.now();
    posts.push(
      fetchJson(port, "/api/tickets", authorCookie, {
        title: `Bench push #${i}`,
        description: "Measuring live push",
        category: "Network",
        priority: "High",
        department: "General",
        floor: "1",
        officeNumber: "101",
      }).then(({ status }) => {
        const now = performance.now();
        answeredAt[i] = now;
        postTimes.push(now - sentAt[i]!);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }),
    );
  }
  await Promise.all(posts);
  let giveUp: NodeJS.Timeout | undefined;
  await Promise.race([everything, new Promise((resolve) => (giveUp = setTimeout(resolve, 120_000)))]);
  clearTimeout(giveUp);
  const cpu = await server.call<NodeJS.CpuUsage>({ kind: "cpu" });
  const serverCpuMs = (cpu.user + cpu.system - cpuBefore.user - cpuBefore.system) / 1000;
  for (const stream of streams) stream.close();
  agent.destroy();

  const fanOut = firstAt.map((first, i) => lastAt[i]! - first);
  const result = {
    technicianStreams: streams.length,
    tickets: config.tickets,
    intervalMs: config.intervalMs,
    streamsOpenedPerSecond: Math.round(streams.length / openSeconds),
    postStatuses: Object.fromEntries(statuses),
    postMs: percentiles(postTimes),
    deliveries: latencies.length,
    missing: expected - latencies.length,
    misdelivered,
    ticketEvents,
    deliveryMs: percentiles(latencies),
    // Delivery measured from the POST's answer (negative when the event beat the response): what push
    // adds on top of the write itself.
    afterAnswerMs: percentiles(arrivals.map(([i, at]) => at - answeredAt[i]!)),
    // The app process's CPU time per ticket (the write, the fan-out, every stream write); PostgreSQL's own
    // work is not in it.
    serverCpuMsPerTicket: round(serverCpuMs / config.tickets),
    // One ticket's first to last delivery: how long the server takes to write 1,000 streams.
    fanOutMs: percentiles(fanOut),
    deliveriesPerSecond: Math.round(latencies.length / ((lastDelivery - sentAt[0]!) / 1000)),
  };
  return result;
}

async function measureMemory(server: Server) {
  const { port } = server;
  const people = Math.ceil(config.idleStreams / config.tabs);
  const seeded = await server.call<Array<{ userId: string; token: string }>>({
    kind: "seed",
    prefix: "idle_",
    role: "user",
    people,
  });
  const cookies = seeded.flatMap(({ token }) => Array<string>(config.tabs).fill(sessionCookie(token)));
  cookies.length = config.idleStreams;
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

  // Warm up: the route compiled, the pool connected, a first stream opened and closed.
  for (const stream of await inParallel(cookies.slice(0, 20), 20, (cookie) =>
    openStream(`http://127.0.0.1:${port}`, cookie, { agent }),
  ))
    stream.close();
  await sleep(500);
  const before = await server.call<Memory>({ kind: "memory" });

  const openStart = performance.now();
  const streams = await inParallel(cookies, 100, (cookie) =>
    openStream(`http://127.0.0.1:${port}`, cookie, { agent }),
  );
  const openSeconds = (performance.now() - openStart) / 1000;
  console.log(`  ${streams.length} idle streams open in ${openSeconds.toFixed(1)} s`);
  const open = await server.call<Memory>({ kind: "memory" });
  await sleep(config.idleHoldMs);
  const held = await server.call<Memory>({ kind: "memory" });
  for (const stream of streams) stream.close();
  agent.destroy();

  const perStream = (after: Memory) => ({
    rss: Math.round((after.rss - before.rss) / streams.length),
    heapUsed: Math.round((after.heapUsed - before.heapUsed) / streams.length),
  });
  return {
    idleStreams: streams.length,
    people,
    tabsEach: config.tabs,
    streamsOpenedPerSecond: Math.round(streams.length / openSeconds),
    holdMs: config.idleHoldMs,
    before,
    open,
    afterHold: held,
    bytesPerStream: { open: perStream(open), afterHold: perStream(held) },
  };
}

async function openDatabase(): Promise<{
  kind: "pglite" | "postgres";
  env: Record<string, string>;
  cleanup: () => Promise<void>;
}> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (serverUrl) {
    const name = `helpdesk_bench_push_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      kind: "postgres",
      env: { BENCH_SERVER_DATABASE_URL: url.toString() },
      cleanup: async () => {
        await admin.query(`drop database "${name}" with (force)`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "helpdesk-bench-push-"));
  return {
    kind: "pglite",
    env: { BENCH_SERVER_DATA_DIR: dir },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function runDriver() {
  const fileLimit = Number(execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim());
  const needed = Math.max(config.idleStreams, config.technicians) + 1_000;
  if (Number.isFinite(fileLimit) && fileLimit < needed) {
    console.error(
      `This bench needs ${needed} open files per process (one socket per stream) but ulimit -n is ${fileLimit}.\n` +
        `Raise it (ulimit -n ${needed}) or lower BENCH_IDLE_STREAMS.`,
    );
    process.exit(1);
  }
  const database = await openDatabase();
  // Figures move with what else the machine is doing: the load average says how busy it was.
  const loadBefore = os.loadavg()[0]!.toFixed(2);
  console.log(
    `Database: ${database.kind}; ${os.cpus().length} CPUs (load ${loadBefore}); node ${process.version}\n`,
  );
  try {
    // Two server processes on one database: the memory reading starts from a server that has done nothing else.
    console.log(
      `Latency: ${config.technicians} technician streams, ${config.tickets} tickets every ${config.intervalMs} ms`,
    );
    const latencyServer = await startServer(database.env);
    const latency = await measureLatency(latencyServer).finally(() => latencyServer.stop());
    console.log(
      `  POST /api/tickets        ${fmt(latency.postMs)}   statuses ${JSON.stringify(latency.postStatuses)}`,
    );
    console.log(`  write → notification     ${fmt(latency.deliveryMs)}`);
    console.log(`  answer → notification    ${fmt(latency.afterAnswerMs)}`);
    console.log(`  fan-out (first → last)   ${fmt(latency.fanOutMs)}`);
    console.log(
      `  ${latency.deliveries} deliveries (${latency.missing} missing, ${latency.misdelivered} to the wrong person), ${latency.deliveriesPerSecond}/s; app CPU ${latency.serverCpuMsPerTicket} ms a ticket\n`,
    );

    console.log(`Memory: ${config.idleStreams} idle streams (${config.tabs} tabs a person)`);
    const memoryServer = await startServer(database.env);
    const memory = await measureMemory(memoryServer).finally(() => memoryServer.stop());
    const line = (label: string, m: Memory) =>
      `  ${label.padEnd(24)} rss ${mb(m.rss).padStart(9)}   heap used ${mb(m.heapUsed).padStart(9)}   external ${mb(m.external).padStart(8)}`;
    console.log(line("before", memory.before));
    console.log(line("streams open", memory.open));
    console.log(line(`after ${memory.holdMs / 1000} s idle`, memory.afterHold));
    console.log(
      `  per stream: rss ${memory.bytesPerStream.afterHold.rss} B, heap ${memory.bytesPerStream.afterHold.heapUsed} B (after the idle hold)`,
    );

    const resultsDir = fileURLToPath(new URL("results", import.meta.url));
    mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `notification-push-${database.kind}.json`);
    const figures = {
      database: database.kind,
      measuredAt: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      loadAverage: { before: Number(loadBefore), after: Number(os.loadavg()[0]!.toFixed(2)) },
      latency,
      memory,
    };
    writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`\nWrote ${path.relative(process.cwd(), file)}`);
  } finally {
    await database.cleanup();
  }
}

const fmt = (p: ReturnType<typeof percentiles>) =>
  `p50 ${p.p50} ms  p90 ${p.p90} ms  p99 ${p.p99} ms  max ${p.max} ms`;

if (process.argv.includes("--server")) await runServer();
else await runDriver();
