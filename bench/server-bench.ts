// What the server benches share (decision 040, docs/performance.md "Server"): a seeded database (npm run
// seed), the real server started as `npm start` starts it (src/server/main.ts in a child process,
// NODE_ENV=production), sessions of every role, autocannon runs, and the results file.
//
// Database, for every bench:
//   (default)                 PostgreSQL on BENCH_DATABASE_URL's server (postgres://postgres@127.0.0.1:5432/postgres):
//                             a fresh database, seeded, dropped afterwards
//   --pglite                  the embedded PGlite in a temporary folder instead
//   --reuse                   keep the seeded database for the next run and reuse it: PostgreSQL database
//                             helpdesk_bench_<tickets>, or PGlite folder $TMPDIR/helpdesk-bench-<tickets>
//   BENCH_REUSE_URL=postgres://…/bench_1m   a database of your own (seeded on first use if it has no tickets)
//   --profile                 the server under V8's CPU profiler (node --cpu-prof); `npm run bench:profile` reads it
//   --tickets N / BENCH_TICKETS   size (default 100,000 on PostgreSQL, 20,000 on PGlite); users and
//                             technicians scale with it (5,000 and 200 at a million)
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";

export const root = path.resolve(import.meta.dirname, "..");
export const seedPassword = "seed-password";
/** The origin the server is configured with: state-changing requests must name it. */
export const origin = "http://localhost:3000";

export interface BenchArgs {
  pglite: boolean;
  reuse: boolean;
  tickets: number;
  duration: number;
  values: Record<string, string | boolean | undefined>;
}

type ArgOptions = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>["options"]>;

export function benchArgs(extra: ArgOptions = {}): BenchArgs {
  const { values: parsed } = parseArgs({
    options: {
      pglite: { type: "boolean", default: false },
      reuse: { type: "boolean", default: false },
      tickets: { type: "string" },
      duration: { type: "string" },
      profile: { type: "boolean", default: false },
      ...extra,
    },
    allowPositionals: true,
  });
  const values = parsed as Record<string, string | boolean | undefined>;
  const pglite = Boolean(values.pglite);
  const tickets = Number(
    String(values.tickets ?? process.env.BENCH_TICKETS ?? (pglite ? 20_000 : 100_000)).replaceAll("_", ""),
  );
  const duration = Number(values.duration ?? process.env.BENCH_DURATION ?? 10);
  return {
    pglite,
    reuse: Boolean(values.reuse),
    tickets,
    duration,
    values,
  };
}

export function peopleFor(tickets: number) {
  return {
    users: Math.max(50, Math.round(tickets / 200)),
    technicians: Number(process.env.BENCH_TECHNICIANS ?? Math.max(5, Math.round(tickets / 5000))),
    admins: 3,
  };
}

export interface BenchDatabase {
  kind: "postgres" | "pglite";
  /** The server's settings for it: DATABASE_URL or DATA_DIR. */
  env: Record<string, string>;
  tickets: number;
  description: string;
  cleanup(): Promise<void>;
}

async function ticketCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const exists = await client.query("select to_regclass('tickets') is not null as yes");
    if (!exists.rows[0]?.yes) return 0;
    return Number((await client.query("select count(*)::int as n from tickets")).rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** npm run seed on the database these settings name (DATABASE_URL or DATA_DIR), with peopleFor(tickets). */
export function seed(env: Record<string, string>, tickets: number) {
  const people = peopleFor(tickets);
  console.log(`Seeding ${tickets.toLocaleString("en")} tickets (npm run seed)…`);
  const run = spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules/tsx/dist/cli.mjs"),
      "src/server/cli/seed.ts",
      "--tickets",
      String(tickets),
      "--users",
      String(people.users),
      "--technicians",
      String(people.technicians),
      "--admins",
      String(people.admins),
    ],
    { cwd: root, stdio: "inherit", env: { PATH: process.env.PATH, ...env } },
  );
  if (run.status !== 0) throw new Error(`seeding failed (${run.status})`);
}

/** A seeded database as the arguments ask (see the top of this file). */
export async function openSeededDatabase(args: BenchArgs): Promise<BenchDatabase> {
  const reuseUrl = process.env.BENCH_REUSE_URL;
  if (reuseUrl && !args.pglite) {
    const have = await ticketCount(reuseUrl);
    if (have === 0) seed({ DATABASE_URL: reuseUrl }, args.tickets);
    const tickets = have || args.tickets;
    return {
      kind: "postgres",
      env: { DATABASE_URL: reuseUrl },
      tickets,
      description: `PostgreSQL ${new URL(reuseUrl).pathname.slice(1)} (reused), ${tickets.toLocaleString("en")} tickets`,
      cleanup: async () => {},
    };
  }
  if (args.pglite) {
    const dir = args.reuse
      ? path.join(os.tmpdir(), `helpdesk-bench-${args.tickets}`)
      : mkdtempSync(path.join(os.tmpdir(), "helpdesk-bench-"));
    if (!existsSync(path.join(dir, ".seeded"))) {
      mkdirSync(dir, { recursive: true });
      seed({ DATA_DIR: dir }, args.tickets);
      writeFileSync(path.join(dir, ".seeded"), String(args.tickets));
    }
    return {
      kind: "pglite",
      env: { DATA_DIR: dir },
      tickets: args.tickets,
      description: `PGlite ${args.reuse ? "(reused) " : ""}${args.tickets.toLocaleString("en")} tickets`,
      cleanup: async () => {
        if (!args.reuse) rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = args.reuse
    ? `helpdesk_bench_${args.tickets}`
    : `helpdesk_bench_${Date.now().toString(36)}_${randomBytes(2).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const exists = (await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount;
  if (!exists) await admin.query(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const have = await ticketCount(url.toString());
  if (have === 0) seed({ DATABASE_URL: url.toString() }, args.tickets);
  return {
    kind: "postgres",
    env: { DATABASE_URL: url.toString() },
    tickets: have || args.tickets,
    description: `PostgreSQL ${name}${args.reuse ? " (reused)" : ""}, ${(have || args.tickets).toLocaleString("en")} tickets`,
    cleanup: async () => {
      if (!args.reuse) await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** The server as `npm start` runs it in production: built once to dist/server (no TypeScript at start). */
export function buildServer() {
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build-server.mjs")], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("building the server failed");
}

export interface RunningServer {
  url: string;
  /** Set with `profile`: the folder the server's V8 CPU profile is written to when it stops. */
  profileDir?: string;
  /** performance.now() when the process was spawned: where its CPU profile's clock starts, near enough. */
  spawnedAt: number;
  process: ChildProcess;
  /** Milliseconds from spawn to "listening". */
  listeningAfterMs: number;
  /**
   * Where the server's own start went, from its "Helpdesk is running" line (src/server/start-server.ts):
   * milliseconds per phase, counted from the process's start; null if it never said.
   */
  startup: Promise<Record<string, number> | null>;
  metricsToken: string;
  stop(): Promise<void>;
}

/**
 * src/server/main.ts as `npm start` runs it (NODE_ENV=production, LOG_LEVEL as configured: info by default)
 * on a free loopback port, with sign-in limits raised for the benches' bursts. Its logs are drained and
 * dropped (kept only until it listens, for an error message).
 */
export function startServer(
  database: BenchDatabase,
  env: Record<string, string> = {},
  { built = false, profile = false }: { built?: boolean; profile?: boolean } = {},
): Promise<RunningServer> {
  const metricsToken = randomBytes(16).toString("hex");
  const started = performance.now();
  // `profile`: V8's sampling CPU profiler (node --cpu-prof), written as a .cpuprofile when the server stops;
  // `npm run bench:profile -- <file>` summarises it and writes folded stacks for a flame graph.
  if (profile) mkdirSync(path.join(root, "bench/results"), { recursive: true });
  const profileDir = profile ? mkdtempSync(path.join(root, "bench/results/profile-")) : undefined;
  // Node runs the server itself (tsx as a loader hook, or `built`: dist/server/main.js as `npm start` runs
  // it, built by scripts/build-server.mjs): the child's pid is the server's, so a signal reaches it.
  const entry = [
    ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
    ...(built ? ["--enable-source-maps", "dist/server/main.js"] : ["--import", "tsx", "src/server/main.ts"]),
  ];
  const child = spawn(process.execPath, entry, {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      BASE_URL: origin,
      BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
      ADMIN_SIGNUP_KEY: "bench-admin-key-0123456789",
      AUTH_RATE_LIMIT_MAX: "1000000",
      AUTH_ACCOUNT_LIMIT_MAX: "1000000",
      AUTH_SIGNUP_LIMIT_MAX: "1000000",
      METRICS_TOKEN: metricsToken,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
      ...database.env,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let listening = false;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // The line with the start's phases comes just after "listening"; the rest of the log is dropped.
  let startupLog = "";
  let reportStartup: (phases: Record<string, number> | null) => void = () => {};
  const startup = new Promise<Record<string, number> | null>((resolve) => {
    reportStartup = resolve;
  });
  void exited.then(() => reportStartup(null));
  const readStartup = (chunk: Buffer) => {
    const lines = (startupLog + chunk.toString()).split("\n");
    startupLog = lines.pop() ?? ""; // an unfinished line waits for the next chunk
    const line = lines.find((l) => l.includes('"startupMs"'));
    if (!line) return;
    child.stdout?.off("data", readStartup);
    try {
      reportStartup((JSON.parse(line) as { startupMs: Record<string, number> }).startupMs);
    } catch {
      reportStartup(null);
    }
  };
  child.stdout?.on("data", readStartup);
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      if (listening) return;
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:(\d+))/.exec(output);
      if (match) {
        listening = true;
        output = "";
        resolve({
          url: match[1]!,
          profileDir,
          spawnedAt: started,
          process: child,
          listeningAfterMs: performance.now() - started,
          startup,
          metricsToken,
          stop: async () => {
            child.kill("SIGTERM");
            await exited;
          },
        });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exited.then((code) => {
      if (!listening) reject(new Error(`the server exited (${code}) before listening:\n${output}`));
    });
  });
}

export async function waitForReady(baseUrl: string, timeoutMs = 600_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) return;
    } catch {}
    if (Date.now() > until) throw new Error("/readyz never answered 200");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Signs in a seeded person through the real endpoint and returns their session cookie. */
export async function signInAs(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email, password: seedPassword }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in of ${email}: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith("better-auth.session_token="))
    ?.split(";")[0];
  if (!cookie) throw new Error(`sign-in of ${email}: no session cookie`);
  return cookie;
}

export type Role = "user" | "technician" | "admin";
export const seedEmailOf = (role: Role, n: number) =>
  `${role === "technician" ? "tech" : role}${n}@seed.test`;

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  non2xx: number;
  /** With `cpu`: milliseconds of CPU per request in each process and in all. */
  cpuMsPerRequest?: { server: number; postgres: number; loadGenerator: number; total: number };
}

/** autocannon against one request for `duration` seconds (after a 1 s warm-up); `overallRate` paces it. */
export async function load(options: {
  url: string;
  connections: number;
  duration: number;
  overallRate?: number;
  method?: "GET" | "POST" | "PATCH";
  headers?: Record<string, string>;
  body?: string;
  requests?: autocannon.Request[];
  /** Measures the CPU the measured run (not the warm-up) cost each process, per request. */
  cpu?: CpuMeter;
}): Promise<LoadFigures> {
  const run = (duration: number) =>
    autocannon({
      url: options.url,
      connections: options.connections,
      duration,
      overallRate: options.overallRate,
      method: options.method ?? "GET",
      headers: options.headers,
      body: options.body,
      requests: options.requests,
    });
  await run(1);
  const before = await options.cpu?.sample();
  const result = await run(options.duration);
  const cpu =
    before && options.cpu
      ? cpuPerRequest(before, await options.cpu.sample(), result.requests.total)
      : undefined;
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(cpu ? { cpuMsPerRequest: cpu } : {}),
  };
}

/** CPU time (user + system) of the server, of its PostgreSQL backends and of this process (autocannon). */
export interface CpuSample {
  serverMs: number;
  /** By backend pid: backends the pool opens during a run count from zero. */
  postgresMs: Map<number, number>;
  loadGeneratorMs: number;
}

export interface CpuMeter {
  sample(): Promise<CpuSample>;
}

const clockTicksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim() || 100);

/** utime + stime of a process from /proc/<pid>/stat, in milliseconds (0 once it has gone). */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces, inside parentheses): state is field 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
  } catch {
    return 0;
  }
}

/**
 * Where a request's CPU goes on this machine: the server process, the PostgreSQL backends serving its
 * database (PGlite runs inside the server), and the load generator. Linux only (/proc); the sum bounds the
 * rate two cores can give, whatever else the machine is doing.
 */
export function cpuMeter(server: RunningServer, database: BenchDatabase): CpuMeter {
  const pid = server.process.pid;
  if (pid === undefined) throw new Error("the server has no pid");
  const databaseUrl = database.env.DATABASE_URL;
  return {
    async sample() {
      const postgresMs = new Map<number, number>();
      if (databaseUrl) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          const { rows } = await client.query<{ pid: number }>(
            "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
          );
          for (const row of rows) postgresMs.set(row.pid, processCpuMs(row.pid));
        } finally {
          await client.end();
        }
      }
      const own = process.cpuUsage();
      return { serverMs: processCpuMs(pid), postgresMs, loadGeneratorMs: (own.user + own.system) / 1000 };
    },
  };
}

export function cpuPerRequest(before: CpuSample, after: CpuSample, requests: number) {
  let postgres = 0;
  for (const [pid, ms] of after.postgresMs) postgres += ms - (before.postgresMs.get(pid) ?? 0);
  const per = (ms: number) => Number((ms / Math.max(requests, 1)).toFixed(3));
  const figures = {
    server: per(after.serverMs - before.serverMs),
    postgres: per(postgres),
    loadGenerator: per(after.loadGeneratorMs - before.loadGeneratorMs),
  };
  return {
    ...figures,
    total: Number((figures.server + figures.postgres + figures.loadGenerator).toFixed(3)),
  };
}

export function machine() {
  return {
    nproc: os.availableParallelism(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadAverage: os.loadavg().map((n) => Number(n.toFixed(2))),
    node: process.version,
    at: new Date().toISOString(),
  };
}

/** Writes bench/results/<name>.json and says where. */
export function writeResults(name: string, data: unknown) {
  const dir = path.join(root, "bench/results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  console.log(`\nWritten to ${path.relative(root, file)}`);
}

/**
 * One scrape of the server's Prometheus metrics (default process metrics included): each series by its
 * name as written, labels included (`helpdesk_db_pool_connections{state="total"}`).
 */
export async function metrics(server: RunningServer): Promise<Map<string, number>> {
  const text = await (
    await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.metricsToken}` } })
  ).text();
  const series = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const space = line.lastIndexOf(" ");
    series.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return series;
}

/** Reads one sample of one metric (its first series). */
export async function metric(server: RunningServer, name: string): Promise<number | undefined> {
  for (const [series, value] of await metrics(server))
    if (series === name || series.startsWith(`${name}{`)) return value;
  return undefined;
}

/** `--connections 16,64` as numbers, or the bench's own default. */
export function connectionCountsOf(args: BenchArgs, fallback: string): number[] {
  return String(args.values.connections ?? fallback)
    .split(",")
    .map(Number);
}

/** The session cookie of the first seeded person of each role. */
export async function signInEveryRole(baseUrl: string): Promise<Record<Role, string>> {
  const cookies = {} as Record<Role, string>;
  for (const role of ["user", "technician", "admin"] as const)
    cookies[role] = await signInAs(baseUrl, seedEmailOf(role, 1));
  return cookies;
}

/** One GET under load; `role: null` is the trivial yardstick (no session), measured first. */
export interface LoadCase {
  name: string;
  role: Role | null;
  path: string;
}

/**
 * Checks that every case answers 200, then loads each at every connection count, printing a line per run
 * and a table, with each figure's ratio to the trivial case of the same round. Answers the figures.
 */
/** Seconds since `performance.now()` read `start`, to a tenth. */
const secondsSince = (start: number) => Number(((performance.now() - start) / 1000).toFixed(1));

export async function loadCases(options: {
  server: RunningServer;
  cookies: Record<Role, string>;
  cases: LoadCase[];
  connectionCounts: number[];
  duration: number;
  cpu?: CpuMeter;
}) {
  const { server, cookies, cases } = options;
  const headersOf = (c: LoadCase): Record<string, string> => (c.role ? { cookie: cookies[c.role] } : {});
  for (const c of cases) {
    const response = await fetch(`${server.url}${c.path}`, { headers: headersOf(c) });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${c.name}: ${response.status}`);
  }

  const rows: Array<Record<string, string | number>> = [];
  const results: Array<
    { name: string; connections: number } & LoadFigures & {
        ratioToTrivial: number;
        profileSeconds?: number[];
      }
  > = [];
  for (const connections of options.connectionCounts) {
    let trivial = 0;
    for (const c of cases) {
      const from = secondsSince(server.spawnedAt);
      const figures = await load({
        url: `${server.url}${c.path}`,
        connections,
        duration: options.duration,
        headers: headersOf(c),
        cpu: options.cpu,
      });
      // Under --profile: the seconds of the server's profile this run covers, to summarise it alone.
      const profileSeconds = server.profileDir ? [from, secondsSince(server.spawnedAt)] : undefined;
      if (c.role === null) trivial = figures.requestsPerSecond;
      const ratioToTrivial = Number((figures.requestsPerSecond / trivial).toFixed(3));
      results.push({
        name: c.name,
        connections,
        ...figures,
        ratioToTrivial,
        ...(profileSeconds ? { profileSeconds } : {}),
      });
      const row = {
        case: c.name,
        conns: connections,
        "req/s": figures.requestsPerSecond,
        "p50 ms": figures.p50Ms,
        "p99 ms": figures.p99Ms,
        "× trivial": ratioToTrivial,
        errors: figures.errors + figures.non2xx,
        ...(figures.cpuMsPerRequest
          ? {
              "CPU ms/req server": figures.cpuMsPerRequest.server,
              postgres: figures.cpuMsPerRequest.postgres,
              "load gen": figures.cpuMsPerRequest.loadGenerator,
            }
          : {}),
      };
      rows.push(row);
      console.log(Object.values(row).join("  |  "));
      if (profileSeconds)
        console.log(
          `  this run alone: npm run bench:profile -- ${server.profileDir} --from ${profileSeconds[0]} --to ${profileSeconds[1]}`,
        );
    }
  }
  console.log();
  console.table(rows);
  return results;
}

export interface SseStream {
  close(): void;
}

/**
 * Opens one notification stream (GET /api/notifications/stream) and resolves once the server said `ready`.
 * Every event is handed to onEvent with its id, if it has one; onClose is called when a stream that was
 * ready ends other than by close() (the server ended it, or the connection broke).
 */
export function openStream(
  baseUrl: string,
  cookie: string,
  {
    agent,
    lastEventId,
    onEvent = () => {},
    onClose = () => {},
  }: {
    agent: http.Agent;
    lastEventId?: string;
    onEvent?: (event: string, data: string, at: number, id: string | undefined) => void;
    onClose?: () => void;
  },
): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    let ready = false;
    let closedHere = false;
    const request = http.get(
      new URL("/api/notifications/stream", baseUrl),
      { agent, headers: { cookie, ...(lastEventId ? { "last-event-id": lastEventId } : {}) } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream answered ${response.statusCode}`));
          response.resume();
          return;
        }
        response.setEncoding("utf8");
        let buffer = "";
        response.on("data", (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let end = buffer.indexOf("\n\n");
          while (end >= 0) {
            let event = "message";
            let data: string | null = null;
            let id: string | undefined;
            for (const line of buffer.slice(0, end).split("\n")) {
              if (line.startsWith("event: ")) event = line.slice(7);
              else if (line.startsWith("data: ")) data = line.slice(6);
              else if (line.startsWith("id: ")) id = line.slice(4);
            }
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf("\n\n");
            if (data === null) continue;
            if (event === "ready") {
              ready = true;
              // From here on the heartbeats keep it alive; the timeout was for the wait until ready.
              request.setTimeout(0);
              resolve({
                close: () => {
                  closedHere = true;
                  request.destroy();
                },
              });
            }
            onEvent(event, data, at, id);
          }
        });
        response.on("close", () => {
          if (!ready) reject(new Error("stream ended before ready"));
          else if (!closedHere) onClose();
        });
      },
    );
    request.on("error", (error) => {
      if (!ready) reject(error);
    });
    request.setTimeout(120_000, () => request.destroy(new Error("no ready within 120 s")));
  });
}
