// Sign-ins per second and the server's event-loop delay during a burst, and during a steady 20 sign-ins per
// second (decision 040; the target is in docs/performance.md, `--rate` to change it): autocannon posts
// /api/auth/sign-in/email for seeded people in turn (each argon2id verification runs off the event loop:
// @node-rs/argon2 on libuv's pool), with the server's own event-loop delay p99 read from its Prometheus
// metrics (prom-client resets it at each scrape: one scrape before the burst, one after). The same reading
// while idle, and /healthz under the same load, for comparison. Node's monitor records the whole time
// between its samples (every 10 ms), so each reading includes that interval: the table also gives the delay
// beyond it (the reading minus 10 ms; `node -e` with monitorEventLoopDelay at resolution 1, 10 and 20 ms
// reads an idle loop's p50 as 1.1, 9.9 and 20.0 ms).
//
//   npm run bench:sign-in                       # PostgreSQL, small throw-away database
//   npm run bench:sign-in -- --pglite
//   --duration S (10), --connections N (16), --rate N (20), --tickets N (1,000: only the people matter)
import { eventLoopSamplingMs } from "#server/http/metrics.ts";
import {
  benchArgs,
  load,
  machine,
  metric,
  openSeededDatabase,
  origin,
  peopleFor,
  seedEmailOf,
  seedPassword,
  startServer,
  waitForReady,
  writeResults,
} from "./server-bench.ts";

const args = benchArgs({ connections: { type: "string" }, rate: { type: "string" } });
if (!args.values.tickets && !process.env.BENCH_TICKETS) args.tickets = 1_000;
const connections = Number(args.values.connections ?? 16);
const steadyRate = Number(args.values.rate ?? 20);
const database = await openSeededDatabase(args);
const server = await startServer(database, {}, { profile: Boolean(args.values.profile) });
const lag = "nodejs_eventloop_lag_p99_seconds";
try {
  await waitForReady(server.url);
  const users = peopleFor(database.tickets).users;
  await metric(server, lag);
  await new Promise((resolve) => setTimeout(resolve, args.duration * 1000));
  const idleLagMs = ((await metric(server, lag)) ?? 0) * 1000;

  // Seeded people in turn, skipping the inactive ones (every 50th user: sign-in refuses them with 403).
  const active = Array.from({ length: users }, (_, i) => i + 1).filter((i) => i % 50 !== 49);
  let n = 0;
  const body = () =>
    JSON.stringify({ email: seedEmailOf("user", active[n++ % active.length]!), password: seedPassword });
  const signInLoad = (overallRate?: number) =>
    load({
      url: `${server.url}/api/auth/sign-in/email`,
      connections,
      duration: args.duration,
      overallRate,
      requests: [
        {
          method: "POST",
          headers: { "content-type": "application/json", origin },
          setupRequest: (request) => ({ ...request, body: body() }),
        },
      ],
    });
  await metric(server, lag);
  const signIn = await signInLoad();
  const burstLagMs = ((await metric(server, lag)) ?? 0) * 1000;
  await metric(server, lag);
  const steady = await signInLoad(steadyRate);
  const steadyLagMs = ((await metric(server, lag)) ?? 0) * 1000;
  const trivial = await load({ url: `${server.url}/healthz`, connections, duration: args.duration });
  const results = {
    signInsPerSecond: signIn.requestsPerSecond,
    signIn,
    steady: { ratePerSecond: steadyRate, ...steady },
    eventLoopDelayP99Ms: {
      idle: Number(idleLagMs.toFixed(1)),
      duringBurst: Number(burstLagMs.toFixed(1)),
      duringSteadyRate: Number(steadyLagMs.toFixed(1)),
    },
    /** The same, less the monitor's sampling interval, which every reading includes. */
    eventLoopDelayBeyondSamplingP99Ms: {
      samplingMs: eventLoopSamplingMs,
      idle: Number(Math.max(0, idleLagMs - eventLoopSamplingMs).toFixed(1)),
      duringBurst: Number(Math.max(0, burstLagMs - eventLoopSamplingMs).toFixed(1)),
      duringSteadyRate: Number(Math.max(0, steadyLagMs - eventLoopSamplingMs).toFixed(1)),
    },
    trivial,
  };
  console.log(`\n${database.description}; ${args.duration} s, ${connections} connections\n`);
  console.table([
    {
      case: "sign-in burst",
      "req/s": signIn.requestsPerSecond,
      "p50 ms": signIn.p50Ms,
      "p99 ms": signIn.p99Ms,
      "loop delay p99 ms": results.eventLoopDelayP99Ms.duringBurst,
      "beyond sampling ms": results.eventLoopDelayBeyondSamplingP99Ms.duringBurst,
      errors: signIn.errors + signIn.non2xx,
    },
    {
      case: `${steadyRate} sign-ins per second`,
      "req/s": steady.requestsPerSecond,
      "p50 ms": steady.p50Ms,
      "p99 ms": steady.p99Ms,
      "loop delay p99 ms": results.eventLoopDelayP99Ms.duringSteadyRate,
      "beyond sampling ms": results.eventLoopDelayBeyondSamplingP99Ms.duringSteadyRate,
      errors: steady.errors + steady.non2xx,
    },
    {
      case: "idle",
      "loop delay p99 ms": results.eventLoopDelayP99Ms.idle,
      "beyond sampling ms": results.eventLoopDelayBeyondSamplingP99Ms.idle,
    },
    {
      case: "/healthz",
      "req/s": trivial.requestsPerSecond,
      "p50 ms": trivial.p50Ms,
      "p99 ms": trivial.p99Ms,
      errors: trivial.errors + trivial.non2xx,
    },
  ]);
  writeResults(`sign-in-${database.kind}`, {
    bench: "sign-in",
    database: database.description,
    connections,
    durationSeconds: args.duration,
    machine: machine(),
    results,
  });
} finally {
  await server.stop();
  await database.cleanup();
  if (server.profileDir)
    console.log(`CPU profile in ${server.profileDir}: npm run bench:profile -- ${server.profileDir}`);
}
