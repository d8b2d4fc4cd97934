// Fault: live-push streams broken under load (docs/faults.md). Technicians' and users' streams are held
// open against the real server (the production build, as `npm start` runs it) the way a browser tab holds
// them (browser-stream.ts mirrors EventSource and src/client/app/live-updates.tsx), through a TCP proxy on
// loopback, while tickets and comments produce notifications without pause. The streams are broken
// (a) by resetting every connection at the proxy, as a dropped network path or a restarted balancer does,
// and (b) by killing the server (SIGKILL) and starting it again on the same port, as a supervisor would.
// At the end every notification stored for each person must have reached their stream (live or replayed
// by Last-Event-ID): missed must be 0. Also measured: how long each stream took to be back (`ready`).
//
//   npm run fault:push-reconnect                # PostgreSQL, throw-away database
//   npm run fault:push-reconnect -- --pglite    # embedded PGlite
//   --users N (20 user streams; all technicians stream), --cuts N (3), --restarts N (2),
//   --gap S (5: load between breaks), --interval MS (40: pause between one writer's writes)
import { spawnSync } from "node:child_process";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { kill } from "node:process";
import { startTcpProxy } from "#server/test/tcp-proxy.ts";
import {
  benchArgs,
  machine,
  openSeededDatabase,
  origin,
  peopleFor,
  type RunningServer,
  root,
  seedEmailOf,
  signInAs,
  startServer,
  waitForReady,
  writeResults,
} from "../server-bench.ts";
import { type BrowserStream, openBrowserStream } from "./browser-stream.ts";

const args = benchArgs({
  users: { type: "string" },
  cuts: { type: "string" },
  restarts: { type: "string" },
  gap: { type: "string" },
  interval: { type: "string" },
  port: { type: "string" },
  "server-log": { type: "string" },
  "no-results": { type: "boolean" },
});
if (!args.values.tickets && !process.env.BENCH_TICKETS) args.tickets = 200;
const userStreams = Number(args.values.users ?? 20);
const cuts = Number(args.values.cuts ?? 3);
const restarts = Number(args.values.restarts ?? 2);
const gapMs = Number(args.values.gap ?? 5) * 1000;
const intervalMs = Number(args.values.interval ?? 40);
const port = String(args.values.port ?? 4393);
const people = peopleFor(args.tickets);
if (userStreams > people.users) throw new Error(`--users ${userStreams}: only ${people.users} are seeded`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
};

const database = await openSeededDatabase(args);
const build = spawnSync(process.execPath, [path.join(root, "scripts/build-server.mjs")], {
  cwd: root,
  stdio: "inherit",
});
if (build.status !== 0) throw new Error("building the server failed");

const serverLog = args.values["server-log"] ? createWriteStream(String(args.values["server-log"])) : null;
/** The server as `npm start` runs it, on the same port each time; its output to --server-log FILE if given. */
async function start() {
  const started = await startServer(database, { PORT: port }, { built: true });
  started.process.stdout?.on("data", (chunk) => serverLog?.write(chunk));
  started.process.stderr?.on("data", (chunk) => serverLog?.write(chunk));
  return started;
}
let server: RunningServer = await start();
const proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(port) });
const viaProxy = `http://127.0.0.1:${proxy.port}`;
const streams: Array<{ email: string; cookie: string; stream: BrowserStream }> = [];
let writing = true;

try {
  await waitForReady(server.url);
  const emails = [
    ...Array.from({ length: people.technicians }, (_, i) => seedEmailOf("technician", i + 1)),
    ...Array.from({ length: userStreams }, (_, i) => seedEmailOf("user", i + 1)),
  ];
  for (const email of emails) {
    const cookie = await signInAs(server.url, email);
    streams.push({ email, cookie, stream: openBrowserStream(viaProxy, cookie) });
  }
  await Promise.all(streams.map((s) => s.stream.firstReady));
  console.log(
    `${database.description}; ${people.technicians} technician and ${userStreams} user streams open through the proxy`,
  );

  // Writers, straight to the server: users create tickets (each notifies every technician), a technician
  // comments on them (each notifies the ticket's creator). Failures while the server is down are expected.
  const created: string[] = [];
  const statuses = new Map<string, number>();
  const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
  const post = async (url: string, cookie: string, body: object) => {
    try {
      const response = await fetch(`${server.url}${url}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, cookie },
        body: JSON.stringify(body),
      });
      count(String(response.status));
      return response.status === 201 ? ((await response.json()) as { ticketId?: string }) : null;
    } catch {
      count("no answer");
      return null;
    }
  };
  const userCookies = streams.filter((s) => s.email.startsWith("user")).map((s) => s.cookie);
  const technicianCookie = await signInAs(server.url, seedEmailOf("technician", 1));
  const ticketWriter = async (w: number) => {
    for (let i = 0; writing; i++) {
      const ticket = await post("/api/tickets", userCookies[(i * 2 + w) % userCookies.length]!, {
        title: `Push fault ${w}-${i}`,
        description: "Created by fault:push-reconnect",
        category: "Network",
        priority: "High",
        department: "IT",
        floor: "1",
        officeNumber: "101",
      });
      if (ticket?.ticketId) created.push(ticket.ticketId);
      await sleep(intervalMs);
    }
  };
  const commentWriter = async () => {
    for (let i = 0; writing; i++) {
      const ticketId = created[created.length - 1 - (i % Math.max(1, Math.min(created.length, 10)))];
      if (ticketId)
        await post(`/api/tickets/${ticketId}/comments`, technicianCookie, { message: `Looking (${i})` });
      await sleep(intervalMs);
    }
  };
  const writers = [ticketWriter(0), ticketWriter(1), commentWriter()];
  await sleep(gapMs);

  const breaks: Array<{
    kind: "cut" | "restart";
    at: number;
    connectionsCut?: number;
    serverDownMs?: number;
  }> = [];
  for (let c = 0; c < cuts; c++) {
    const at = performance.now();
    const connectionsCut = proxy.cut();
    breaks.push({ kind: "cut", at, connectionsCut });
    console.log(`cut ${c + 1}: ${connectionsCut} connections reset`);
    await sleep(gapMs);
  }
  for (let r = 0; r < restarts; r++) {
    const at = performance.now();
    kill(server.process.pid!, "SIGKILL");
    await new Promise((resolve) =>
      server.process.exitCode !== null || server.process.signalCode !== null
        ? resolve(null)
        : server.process.once("exit", resolve),
    );
    server = await start();
    await waitForReady(server.url);
    const serverDownMs = Math.round(performance.now() - at);
    breaks.push({ kind: "restart", at, serverDownMs });
    console.log(`restart ${r + 1}: killed, /readyz 200 again after ${serverDownMs} ms`);
    await sleep(gapMs);
  }
  writing = false;
  await Promise.all(writers);

  // Every notification stored for each person after their first `ready`, read through the list API.
  const storedFor = async (cookie: string, after: number) => {
    const ids: string[] = [];
    for (let cursor: string | null = null; ; ) {
      const query: string = `filter=all&limit=100${cursor ? `&cursor=${cursor}` : ""}`;
      const response = await fetch(`${server.url}/api/notifications?${query}`, { headers: { cookie } });
      if (response.status !== 200) throw new Error(`listing notifications: ${response.status}`);
      const page = (await response.json()) as {
        items: Array<{ notificationId: string }>;
        nextCursor: string | null;
      };
      const newer = page.items.filter((n) => Number(n.notificationId) > after);
      ids.push(...newer.map((n) => n.notificationId));
      if (!page.nextCursor || newer.length < page.items.length) return ids;
      cursor = page.nextCursor;
    }
  };
  const missedNow = async () => {
    let missed = 0;
    let stored = 0;
    for (const { cookie, stream } of streams) {
      const ids = await storedFor(cookie, stream.baseline);
      stored += ids.length;
      missed += ids.filter((id) => !stream.received.has(id)).length;
    }
    return { stored, missed };
  };
  // Streams still on their way back get a few seconds, as a person would wait for a tab to reconnect.
  const until = performance.now() + 15_000;
  let tally = await missedNow();
  while (tally.missed > 0 && performance.now() < until) {
    await sleep(500);
    tally = await missedNow();
  }

  // Each stream's way back from each break: its first `ready` after it. One that is not back before the
  // next break counts as such (its time would be the next break's).
  const perBreak = breaks.map((b, i) => {
    const next = breaks[i + 1]?.at ?? Number.POSITIVE_INFINITY;
    const times = streams.map((s) => s.stream.readyAt.find((at) => at > b.at));
    const back = times.filter((at): at is number => at !== undefined && at < next).map((at) => at - b.at);
    return {
      kind: b.kind,
      ...(b.connectionsCut === undefined ? {} : { connectionsCut: b.connectionsCut }),
      ...(b.serverDownMs === undefined ? {} : { serverDownMs: b.serverDownMs }),
      streamsBack: back.length,
      notBackBeforeNextBreak: streams.length - back.length,
      backMs: { p50: percentile(back, 50), p99: percentile(back, 99) },
      times: back,
    };
  });
  const reconnects = perBreak.flatMap((b) => b.times);
  const received = streams.reduce((sum, s) => sum + s.stream.received.size, 0);
  const repeated = streams.reduce(
    (sum, s) => sum + [...s.stream.received.values()].reduce((n, times) => n + times - 1, 0),
    0,
  );
  const result = {
    notificationsStored: tally.stored,
    received,
    missed: tally.missed,
    receivedTwice: repeated,
    stillDisconnected: streams.filter((s) => !s.stream.isOpen).length,
    reconnects: reconnects.length,
    notBackBeforeNextBreak: perBreak.reduce((sum, b) => sum + b.notBackBeforeNextBreak, 0),
    reconnectMs: {
      p50: percentile(reconnects, 50),
      p99: percentile(reconnects, 99),
      max: Math.round(Math.max(0, ...reconnects)),
    },
    networkErrors: streams.reduce(
      (all, s) => {
        for (const [cause, n] of s.stream.networkErrors) all[cause] = (all[cause] ?? 0) + n;
        return all;
      },
      {} as Record<string, number>,
    ),
    refusedAnswers: streams.reduce((sum, s) => sum + s.stream.refusedAnswers, 0),
    writes: { ticketsCreated: created.length, statuses: Object.fromEntries(statuses) },
    breaks: perBreak.map(({ times: _, ...b }) => b),
  };
  console.log(
    `\n${result.notificationsStored} notifications stored for the ${streams.length} streaming people; ` +
      `${received} received, ${result.missed} missed, ${repeated} received twice (replay overlap, ignored by the app)`,
  );
  console.log(
    `${result.reconnects} reconnects: p50 ${result.reconnectMs.p50} ms, p99 ${result.reconnectMs.p99} ms, ` +
      `max ${result.reconnectMs.max} ms (from the break to the stream's next ready); ` +
      `connection attempts failed: ${JSON.stringify(result.networkErrors)}; ${result.refusedAnswers} error answers`,
  );
  console.table(
    result.breaks.map((b) => ({
      break: b.kind,
      "server down ms": b.serverDownMs ?? "",
      "streams back": b.streamsBack,
      "back p50 ms": b.backMs.p50,
      "back p99 ms": b.backMs.p99,
    })),
  );
  console.log(`writes: ${JSON.stringify(result.writes)}`);
  if (!args.values["no-results"])
    writeResults(`push-reconnect-${database.kind}`, {
      fault: "push-reconnect",
      database: database.description,
      streams: { technicians: people.technicians, users: userStreams },
      cuts,
      restarts,
      gapMs,
      intervalMs,
      machine: machine(),
      ...result,
    });
  if (result.missed > 0 || result.notificationsStored === 0) process.exitCode = 1;
} finally {
  writing = false;
  for (const { stream } of streams) stream.close();
  await proxy.close();
  await server.stop();
  await database.cleanup();
}
