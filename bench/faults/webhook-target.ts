// Fault: a webhook target that hangs or fails must not slow requests (docs/faults.md). The real server (the
// production build, as `npm start` runs it) takes the same load, ticket creation and comments, in rounds:
// without webhooks, then with one webhook (registered by an admin through the API, subscribed to both events)
// whose target on loopback (ok) answers 200 at once, (hang) never answers, (fail) answers 500 at once,
// (stall) sends its headers and part of a body and then nothing, and without webhooks again (how much the
// figures move on their own). Each round's latency and rate are compared with the first; the deliveries'
// attempts, outcomes and errors are read back through the API, with each delivery's delay (from its event to
// its delivery, both by the server's clock). Last (unless --skip-beside), a healthy webhook next to a hanging
// one under the same load: its deliveries must not be held up by the other's (decision 050): all delivered,
// none later than a hanging attempt's timeout (10 s) after its event, or the script exits 1.
//
//   npm run fault:webhook-target                # PostgreSQL, throw-away database
//   npm run fault:webhook-target -- --pglite    # embedded PGlite
//   --duration S (10 per load), --connections N (8), --modes ok,hang,fail,stall (each between two rounds
//   without webhooks; a list with "none" in it is the exact sequence), --max-slowdown X (1.5: exit 1 when a failing target's p50 exceeds X × the slowest of
//   the healthy target's round and the rounds without webhooks on either side of it, or a request failed)
import { spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  benchArgs,
  type LoadFigures,
  load,
  machine,
  openSeededDatabase,
  origin,
  root,
  seedEmailOf,
  signInAs,
  startServer,
  waitForReady,
  writeResults,
} from "../server-bench.ts";

const args = benchArgs({
  connections: { type: "string" },
  modes: { type: "string" },
  "max-slowdown": { type: "string" },
  "no-results": { type: "boolean" },
  "skip-beside": { type: "boolean" },
});
if (!args.values.tickets && !process.env.BENCH_TICKETS) args.tickets = 2_000;
const connections = Number(args.values.connections ?? 8);
const maxSlowdown = Number(args.values["max-slowdown"] ?? 1.5);
const targets = String(args.values.modes ?? "ok,hang,fail,stall").split(",") as Mode[];
// The machine's own drift shows in the rounds without webhooks around each target round (a list that names
// "none" itself is taken as the whole sequence).
const modes: Mode[] = targets.includes("none")
  ? targets
  : ["none", ...targets.flatMap((mode): Mode[] => [mode, "none"])];
type Mode = "none" | "ok" | "hang" | "fail" | "stall";
/** The sender gives one attempt this long (src/server/features/webhooks/webhook-post.ts). */
const attemptTimeoutMs = 10_000;

/** One HTTP server on loopback playing every kind of target, by path; counts what it was sent. */
async function startTarget() {
  const seen = new Map<string, number>();
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const mode = (request.url ?? "/").slice(1);
    seen.set(mode, (seen.get(mode) ?? 0) + 1);
    request.resume();
    request.on("end", () => {
      if (mode === "ok") response.end("ok");
      else if (mode === "fail") {
        response.writeHead(500, { "content-type": "text/plain" });
        response.end("target failing");
      } else if (mode === "stall") {
        response.writeHead(200, { "content-type": "application/json" });
        response.write('{"received":');
        held.add(response);
      } else held.add(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const database = await openSeededDatabase(args);
const build = spawnSync(process.execPath, [`${root}/scripts/build-server.mjs`], {
  cwd: root,
  stdio: "inherit",
});
if (build.status !== 0) throw new Error("building the server failed");
const server = await startServer(database, { WEBHOOKS_ALLOW_PRIVATE: "true" }, { built: true });
const target = await startTarget();

/** From each delivery's event to its delivery (ms), over the delivered ones. */
interface Delays {
  delivered: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Round {
  mode: Mode;
  create: LoadFigures;
  comment: LoadFigures;
  deliveries?: {
    total: number;
    byStatus: Record<string, number>;
    attempts: number;
    retriesScheduled: number;
    errors: Record<string, number>;
    delays: Delays;
    targetSaw: number;
  };
}

try {
  await waitForReady(server.url);
  const [admin, user, technician] = await Promise.all([
    signInAs(server.url, seedEmailOf("admin", 1)),
    signInAs(server.url, seedEmailOf("user", 1)),
    signInAs(server.url, seedEmailOf("technician", 1)),
  ]);
  const api = async (method: string, path: string, cookie: string, body?: object) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { origin, cookie, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const ticketInput = {
    title: "Webhook fault load",
    description: "Created by fault:webhook-target",
    category: "Hardware",
    priority: "Medium",
    department: "IT",
    floor: "2",
    officeNumber: "201",
  };
  // One ticket per connection to comment on: comments on one ticket queue behind each other (each locks it).
  const ticketIds: string[] = [];
  for (let i = 0; i < connections; i++)
    ticketIds.push(((await api("POST", "/api/tickets", user, ticketInput)) as { ticketId: string }).ticketId);
  let nextTicket = 0;
  const measure = async (duration: number) => ({
    create: await load({
      url: `${server.url}/api/tickets`,
      method: "POST",
      connections,
      duration,
      headers: { "content-type": "application/json", origin, cookie: user },
      body: JSON.stringify(ticketInput),
    }),
    comment: await load({
      url: server.url,
      connections,
      duration,
      requests: [
        {
          method: "POST",
          headers: { "content-type": "application/json", origin, cookie: technician },
          body: JSON.stringify({ message: "Still looking into it" }),
          // The context lives as long as its connection: each connection keeps to one ticket.
          setupRequest: (request, context) => {
            const own = context as { ticketId?: string };
            own.ticketId ??= ticketIds[nextTicket++ % ticketIds.length];
            return { ...request, path: `/api/tickets/${own.ticketId}/comments` };
          },
        },
      ],
    }),
  });
  // A cold server and database are slower for the first seconds: warmed up before anything is measured.
  await measure(3);

  /** A webhook's deliveries as its log in the API shows them, tallied. */
  const deliveriesOf = async (webhookId: string) => {
    const items: Array<{
      status: string;
      attempts: number;
      error: string | null;
      createdAt: string;
      deliveredAt: string | null;
    }> = [];
    for (let cursor: string | null = null; ; ) {
      const page = (await api(
        "GET",
        `/api/admin/webhooks/${webhookId}/deliveries${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`,
        admin,
      )) as { items: typeof items; nextCursor: string | null };
      items.push(...page.items);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    const tally = (values: string[]) => {
      const counts: Record<string, number> = {};
      for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
      return counts;
    };
    const delays = items
      .flatMap((d) => (d.deliveredAt ? [Date.parse(d.deliveredAt) - Date.parse(d.createdAt)] : []))
      .sort((a, b) => a - b);
    const at = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? 0;
    return {
      total: items.length,
      byStatus: tally(items.map((d) => d.status)),
      delays: { delivered: delays.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: delays.at(-1) ?? 0 },
      attempts: items.reduce((sum, d) => sum + d.attempts, 0),
      // Pending after a failed attempt: its retry is set for later (a minute, then 5, 30, …).
      retriesScheduled: items.filter((d) => d.status === "pending" && d.attempts > 0 && d.error).length,
      errors: tally(items.flatMap((d) => (d.error ? [d.error] : []))),
    };
  };
  const addWebhook = async (path: string) =>
    (
      (await api("POST", "/api/admin/webhooks", admin, {
        url: `${target.url}/${path}`,
        description: `fault:webhook-target ${path}`,
        events: ["ticket.created", "ticket.commented"],
      })) as { webhook: { id: string } }
    ).webhook;
  const pause = (webhookId: string) =>
    api("PATCH", `/api/admin/webhooks/${webhookId}`, admin, { active: false });

  const rounds: Round[] = [];
  for (const mode of modes) {
    const webhook = mode === "none" ? null : await addWebhook(mode);
    const seenBefore = target.seen.get(mode) ?? 0;
    const round: Round = { mode, ...(await measure(args.duration)) };
    if (webhook) {
      // Attempts under way end by the sender's timeout; then the webhook is paused (its queue waits) so
      // that the next round's target is the only one.
      if (mode === "hang" || mode === "stall")
        await new Promise((r) => setTimeout(r, attemptTimeoutMs + 2_000));
      await pause(webhook.id);
      round.deliveries = {
        ...(await deliveriesOf(webhook.id)),
        targetSaw: (target.seen.get(mode) ?? 0) - seenBefore,
      };
    }
    rounds.push(round);
    const d = round.deliveries;
    const { create, comment } = round;
    console.log(
      `${mode.padEnd(5)} create ${create.requestsPerSecond}/s p50 ${create.p50Ms} ms p99 ${create.p99Ms} ms; ` +
        `comment ${comment.requestsPerSecond}/s p50 ${comment.p50Ms} ms p99 ${comment.p99Ms} ms; ` +
        `errors ${create.errors + create.non2xx + comment.errors + comment.non2xx}` +
        (d
          ? `; deliveries ${d.total} (${JSON.stringify(d.byStatus)}), ${d.attempts} attempts, target saw ${d.targetSaw}, ` +
            `errors ${JSON.stringify(d.errors)}` +
            (d.delays.delivered > 0
              ? `, event → delivered p50 ${d.delays.p50Ms} ms p99 ${d.delays.p99Ms} ms max ${d.delays.maxMs} ms`
              : "")
          : ""),
    );
  }

  // Each target round against the slower of the rounds without webhooks just before and after it, and a
  // failing target also against the healthy one (a webhook costs the same whether its target works or not:
  // the delivery is queued in the change's own transaction; only the target's behaviour is the fault here).
  const ratio = (value: number, base: number) => Number((value / Math.max(base, 1)).toFixed(2));
  const healthy = rounds.find((r) => r.mode === "ok");
  const table = rounds.map((r, i) => {
    const around = [rounds[i - 1], rounds[i + 1]].filter((n): n is Round => n?.mode === "none");
    const worst = (of: Round[]) => ({
      create: Math.max(...of.map((n) => n.create.p50Ms)),
      comment: Math.max(...of.map((n) => n.comment.p50Ms)),
    });
    const against = (of: Round[]) => {
      if (r.mode === "none" || of.length === 0) return "";
      const base = worst(of);
      return Math.max(ratio(r.create.p50Ms, base.create), ratio(r.comment.p50Ms, base.comment));
    };
    return {
      target: r.mode,
      "create/s": r.create.requestsPerSecond,
      "create p50": r.create.p50Ms,
      "create p99": r.create.p99Ms,
      "comment/s": r.comment.requestsPerSecond,
      "comment p50": r.comment.p50Ms,
      "comment p99": r.comment.p99Ms,
      "p50 × without": against(around),
      "p50 × healthy": r.mode === "ok" || !healthy ? "" : against([...around, healthy]),
      failed: r.create.errors + r.create.non2xx + r.comment.errors + r.comment.non2xx,
    };
  });
  console.log(`\n${database.description}; ${connections} connections, ${args.duration} s per load`);
  console.table(table);

  // A healthy webhook beside a hanging one, under the same load. The sender used to claim ten deliveries
  // across all endpoints and wait for all ten, so the healthy one's waited for the hanging one's timeouts;
  // each endpoint now has places of its own (decision 050). Checked: every delivery of the healthy webhook
  // made, none later than a hanging attempt's timeout after its event.
  type Deliveries = Awaited<ReturnType<typeof deliveriesOf>>;
  let beside: {
    seconds: number;
    hanging: Deliveries;
    healthy: Deliveries;
    healthyAlone: Delays | null;
    heldUp: boolean;
  } | null = null;
  if (!args.values["skip-beside"]) {
    const hangingHook = await addWebhook("hang");
    const healthyHook = await addWebhook("ok");
    const started = performance.now();
    await measure(args.duration);
    // The healthy one's last deliveries go out; a held-up sender would need the hanging attempts' timeouts.
    const until = performance.now() + attemptTimeoutMs + 2_000;
    let healthy = await deliveriesOf(healthyHook.id);
    while ((healthy.byStatus.delivered ?? 0) < healthy.total && performance.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      healthy = await deliveriesOf(healthyHook.id);
    }
    const seconds = Math.round((performance.now() - started) / 1000);
    await Promise.all([pause(hangingHook.id), pause(healthyHook.id)]);
    const hanging = await deliveriesOf(hangingHook.id);
    const heldUp =
      (healthy.byStatus.delivered ?? 0) < healthy.total || healthy.delays.maxMs >= attemptTimeoutMs;
    beside = {
      seconds,
      hanging,
      healthy,
      healthyAlone: rounds.find((r) => r.mode === "ok")?.deliveries?.delays ?? null,
      heldUp,
    };
    const alone = beside.healthyAlone;
    console.log(
      `A healthy webhook beside a hanging one, ${seconds} s after the load began: ` +
        `${healthy.byStatus.delivered ?? 0} of ${healthy.total} delivered, event → delivered p50 ` +
        `${healthy.delays.p50Ms} ms p99 ${healthy.delays.p99Ms} ms max ${healthy.delays.maxMs} ms` +
        (alone
          ? ` (alone, in the ok round: p50 ${alone.p50Ms} ms p99 ${alone.p99Ms} ms max ${alone.maxMs} ms)`
          : "") +
        `; the hanging one: ${hanging.attempts} attempts of ${hanging.total}`,
    );
  }
  if (!args.values["no-results"])
    writeResults(`webhook-target-${database.kind}`, {
      fault: "webhook-target",
      database: database.description,
      connections,
      durationSeconds: args.duration,
      attemptTimeoutMs,
      machine: machine(),
      rounds,
      besideAHangingTarget: beside,
      maxSlowdown,
    });
  const slowed = table.filter((row) => Number(row["p50 × healthy"]) > maxSlowdown);
  const failed = table.filter((row) => row.failed > 0);
  for (const row of slowed)
    console.log(`SLOWER: with a ${row.target} target, p50 ${row["p50 × healthy"]} × a healthy target's`);
  for (const row of failed) console.log(`FAILED REQUESTS: ${row.failed} with target ${row.target}`);
  if (beside?.heldUp)
    console.log(
      `HELD UP: beside a hanging target, the healthy webhook's deliveries were not all made within ` +
        `${attemptTimeoutMs / 1000} s of their events`,
    );
  if (slowed.length > 0 || failed.length > 0 || beside?.heldUp) process.exitCode = 1;
} finally {
  await target.close();
  await server.stop();
  await database.cleanup();
}
