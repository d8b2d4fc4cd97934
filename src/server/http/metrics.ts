import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "#server/db/client.ts";
import { isDatabaseUnavailable } from "#server/db/connection-errors.ts";

/**
 * Prometheus metrics (prom-client): requests by route pattern and status, the pool, open push streams,
 * scheduled job runs and the queues of mail and webhook deliveries. Never public: served on the main port
 * only with METRICS_TOKEN as a Bearer token, or on a port of its own (METRICS_PORT) the operator firewalls.
 */
export interface AppMetrics {
  registry: Registry;
  jobRun(job: string, outcome: "ok" | "failed"): void;
}

export interface MetricsSources {
  database: Database;
  openStreams: () => number;
  /** The embedded database's disk: bytes free in DATA_DIR (absent on PostgreSQL). */
  dataDirFreeBytes?: () => Promise<number>;
}

/**
 * How often prom-client's event-loop monitor samples (its default, written out). Node's monitor records
 * the whole time between two samples, so every reading of `…eventloop_lag_*` includes this interval: an
 * idle loop reads about 10 ms, and the delay beyond the interval is the reading minus it.
 */
export const eventLoopSamplingMs = 10;

/**
 * prom-client's gauges named like counters (promtool: "non-counter metrics should not have _total
 * suffix"). Left out: `nodejs_active_handles`, `…_requests` and `…_resources`, by type, hold the same
 * numbers (`sum(nodejs_active_handles)`), under names that follow the rules (decision 055).
 */
const gaugesNamedLikeCounters = [
  "nodejs_active_handles_total",
  "nodejs_active_requests_total",
  "nodejs_active_resources_total",
];

export function createMetrics({ database, openStreams, dataDirFreeBytes }: MetricsSources): AppMetrics {
  const registry = new Registry();
  // No prefix: Node's metrics keep the names every Node dashboard and alert queries
  // (`process_cpu_user_seconds_total`, `nodejs_eventloop_lag_seconds`); ours all begin with `helpdesk_`.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: eventLoopSamplingMs });
  for (const name of gaugesNamedLikeCounters) registry.removeSingleMetric(name);
  const jobRuns = new Counter({
    name: "helpdesk_job_runs_total",
    help: "Scheduled job runs on this instance, by job and outcome (ok or failed)",
    labelNames: ["job", "outcome"] as const,
    registers: [registry],
  });
  new Gauge({
    name: "helpdesk_push_streams_open",
    help: "Live-push (Server-Sent Events) streams open on this instance",
    registers: [registry],
    collect() {
      this.set(openStreams());
    },
  });
  const pool = database.poolStats;
  if (pool) {
    new Gauge({
      name: "helpdesk_db_pool_connections",
      help: "PostgreSQL pool connections on this instance, by state (total, idle, waiting requests)",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        const stats = pool();
        this.set({ state: "total" }, stats.total);
        this.set({ state: "idle" }, stats.idle);
        this.set({ state: "in_use" }, stats.total - stats.idle);
        this.set({ state: "waiting" }, stats.waiting);
      },
    });
  }
  const { health } = database;
  if (health) {
    new Gauge({
      name: "helpdesk_db_available",
      help: "1 while PostgreSQL answers the health gate's pings, 0 while the gate is closed and requests that need the database answer 503",
      registers: [registry],
      collect() {
        this.set(health.isAvailable() ? 1 : 0);
      },
    });
    let counted = 0;
    new Counter({
      name: "helpdesk_db_unavailable_total",
      help: "Times the health gate closed because PostgreSQL did not answer a ping in time (a flapping gate shows here)",
      registers: [registry],
      collect() {
        const closures = health.closures();
        this.inc(closures - counted);
        counted = closures;
      },
    });
  }
  if (dataDirFreeBytes) {
    new Gauge({
      name: "helpdesk_data_dir_free_bytes",
      help: "Bytes free on the disk that holds DATA_DIR (the embedded database); changes are refused below 64 MB",
      registers: [registry],
      async collect() {
        this.set(await dataDirFreeBytes());
      },
    });
  }
  new Gauge({
    name: "helpdesk_queue_depth",
    help: "Items waiting to be sent (the whole database, not this instance): mail outbox and webhook deliveries",
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      // The metrics matter most while the database is out: then this one is left out, not the whole page.
      this.reset();
      if (health && !health.isAvailable()) return;
      // Both counts use the (status, next_attempt_at) indexes; the queues are short when all is well.
      const result = await database.db
        .execute<{ mail: number | string; webhooks: number | string }>(sql`
        select (select count(*) from mail_outbox where status = 'pending') as mail,
               (select count(*) from webhook_deliveries where status = 'pending') as webhooks`)
        .catch((error: unknown) => {
          if (isDatabaseUnavailable(error)) return null;
          throw error;
        });
      if (!result) return;
      const row = (result as unknown as { rows: { mail: number | string; webhooks: number | string }[] })
        .rows[0];
      this.set({ queue: "mail_outbox" }, Number(row?.mail ?? 0));
      this.set({ queue: "webhook_deliveries" }, Number(row?.webhooks ?? 0));
    },
  });
  return { registry, jobRun: (job, outcome) => jobRuns.inc({ job, outcome }) };
}

/** Counts and times every request by its route pattern (`/api/tickets/:id`, never the raw URL). */
export function registerRequestMetrics(app: FastifyInstance, metrics: AppMetrics) {
  const requests = new Counter({
    name: "helpdesk_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [metrics.registry],
  });
  const duration = new Histogram({
    name: "helpdesk_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metrics.registry],
  });
  app.addHook("onResponse", async (request, reply) => {
    // Unmatched URLs (scanners, the SPA's own paths) share one label, so they cannot grow the series.
    const route = request.routeOptions.url ?? "unmatched";
    if (route === "/metrics") return;
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** GET /metrics on the main port: 404 without METRICS_TOKEN, 401 without the right Bearer token. */
export function registerMetricsRoute(app: FastifyInstance, metrics: AppMetrics, token: string | undefined) {
  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    if (!token) {
      return reply.status(404).send({
        code: "not_found",
        message:
          "Metrics are not served on this port: set METRICS_TOKEN, or METRICS_PORT for a port of their own",
      });
    }
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
    if (!timingSafeEqual(digest(given), digest(token))) {
      return reply
        .status(401)
        .header("www-authenticate", 'Bearer realm="metrics"')
        .send({ code: "unauthorized", message: "Metrics need `Authorization: Bearer <METRICS_TOKEN>`" });
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/** The metrics on a port of their own (METRICS_PORT): anything that reaches it may read them. */
export async function listenForMetrics(
  metrics: AppMetrics,
  port: number,
  host: string,
): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found: metrics are at /metrics\n");
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": metrics.registry.contentType }).end(text),
      (error: Error) => response.writeHead(500, { "content-type": "text/plain" }).end(`${error.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return server;
}
