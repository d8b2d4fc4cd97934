import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox } from "#server/db/schema/index.ts";
import { signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { listenForMetrics } from "./metrics.ts";

const token = "metrics-token-0123456789abcdef";
let withToken: TestApp;
let withoutToken: TestApp;
beforeAll(async () => {
  withToken = await createTestApp({ metricsToken: token });
  withoutToken = await createTestApp();
});
afterAll(async () => {
  await withToken.close();
  await withoutToken.close();
});

const scrape = (app: TestApp, authorization?: string) =>
  request(app.app, {
    method: "GET",
    url: "/metrics",
    headers: authorization ? { authorization } : {},
  });

describe("GET /metrics on the main port", () => {
  it("is not served at all without METRICS_TOKEN", async () => {
    const response = await scrape(withoutToken, `Bearer ${token}`);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toMatch(/METRICS_TOKEN/);
    expect(response.body).not.toMatch(/helpdesk_/);
  });

  it("refuses a scrape without the token or with a wrong one", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-0123456789abc", token, `Basic ${token}`]) {
      const response = await scrape(withToken, authorization);
      expect(response.statusCode).toBe(401);
      expect(response.headers["www-authenticate"]).toMatch(/Bearer/);
      expect(response.body).not.toMatch(/helpdesk_/);
    }
  });

  it("counts requests by route pattern and status, and shows job runs, streams and queue depths", async () => {
    const { app, database } = withToken;
    const { cookie } = await signedInAs(app, database.db, "user");
    for (const id of ["TKT0AAAAAAAAAAAAAA1", "TKT0AAAAAAAAAAAAAA2", "TKT0AAAAAAAAAAAAAA3"])
      await request(app, { method: "GET", url: `/api/tickets/${id}`, cookie });
    await request(app, { method: "GET", url: "/no/such/page/for/metrics" });
    await database.db.insert(mailOutbox).values({
      toAddress: "someone@example.test",
      subject: "Waiting",
      text: "Not yet",
      kind: "test",
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });
    await app.jobs.tick();

    const response = await scrape(withToken, `Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain/);
    const text = response.body;
    // One series for the three tickets, labelled by the pattern: the raw ids never appear.
    expect(text).toMatch(
      /helpdesk_http_requests_total\{method="GET",route="\/api\/tickets\/:ticketId",status="404"\} 3\n/,
    );
    expect(text).not.toMatch(/TKT0AAAAAAAAAAAAAA/);
    expect(text).toMatch(
      /helpdesk_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/tickets\/:ticketId",status="404"\} 3\n/,
    );
    expect(text).toMatch(/route="unmatched",status="404"/);
    expect(text).not.toMatch(/no\/such\/page/);
    expect(text).toMatch(/helpdesk_job_runs_total\{job="[a-z-]+",outcome="ok"\} 1\n/);
    expect(text).toMatch(/helpdesk_push_streams_open 0\n/);
    expect(text).toMatch(/helpdesk_queue_depth\{queue="mail_outbox"\} 1\n/);
    expect(text).toMatch(/helpdesk_queue_depth\{queue="webhook_deliveries"\} 0\n/);
    if (database.kind === "postgres")
      expect(text).toMatch(/helpdesk_db_pool_connections\{state="total"\} \d+\n/);
  });
});

/**
 * The naming rules `promtool check metrics` applies (client_golang's promlint), over the exposition text:
 * HELP and TYPE for every family; counters end `_total` and nothing else does; `_bucket`/`_count`/`_sum`
 * only on histograms and summaries; base units (`_seconds`, `_bytes`), never an abbreviation or a
 * prefixed unit; snake_case, no colon, no type in the name.
 */
function namingProblems(text: string): string[] {
  const help = new Map<string, string>();
  const type = new Map<string, string>();
  const sampled = new Set<string>();
  for (const line of text.split("\n")) {
    const comment = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (comment) (comment[1] === "HELP" ? help : type).set(comment[2]!, comment[3]!);
    else if (line && !line.startsWith("#")) sampled.add(/^[^{ ]+/.exec(line)![0]);
  }
  const problems: string[] = [];
  const familyOf = (sample: string) =>
    type.has(sample) ? sample : sample.replace(/_(bucket|count|sum)$/, "");
  for (const sample of sampled) {
    if (!type.has(familyOf(sample))) problems.push(`${sample}: no TYPE`);
  }
  const prefixedUnits =
    /^(pico|nano|micro|milli|centi|deci|deca|hecto|kilo|kibi|mega|mibi|giga|gibi|tera|tebi|peta|pebi)(seconds|bytes)$/;
  const otherUnits = /^(minutes|hours|days|weeks|bits)$/;
  const abbreviations = new Set("s ms us ns sec b kb mb gb tb pb m h d".split(" "));
  for (const [name, kind] of type) {
    const say = (problem: string) => problems.push(`${name}: ${problem}`);
    if (!help.get(name)) say("no HELP text");
    if (kind === "counter" && !name.endsWith("_total")) say('counter metrics should have "_total" suffix');
    if (kind !== "counter" && kind !== "untyped" && name.endsWith("_total"))
      say('non-counter metrics should not have "_total" suffix');
    if (kind !== "histogram" && name.endsWith("_bucket"))
      say('non-histogram metrics should not have "_bucket"');
    if (kind !== "histogram" && kind !== "summary" && /_(count|sum)$/.test(name))
      say('non-histogram and non-summary metrics should not have "_count" or "_sum"');
    if (name.includes("process_process_")) say("doubled process_ prefix");
    if (name.includes(":")) say("metric names should not contain ':'");
    if (/[a-z][A-Z]/.test(name)) say("metric names should be written in snake_case");
    for (const word of name.split("_")) {
      if (prefixedUnits.test(word) || otherUnits.test(word)) say(`use the base unit instead of "${word}"`);
      if (abbreviations.has(word)) say(`abbreviated unit "${word}"`);
      if (["counter", "gauge", "histogram", "summary"].includes(word)) say(`type "${word}" in the name`);
    }
  }
  return problems;
}

describe("metric names", () => {
  const scrapeText = async () => {
    const response = await scrape(withToken, `Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it("follow Prometheus's naming rules, as promtool checks them", async () => {
    expect(namingProblems(await scrapeText())).toEqual([]);
  });

  it("keep Node's standard names, which stock dashboards and alerts query", async () => {
    const text = await scrapeText();
    for (const [name, kind] of [
      ["process_cpu_user_seconds_total", "counter"],
      ["process_cpu_system_seconds_total", "counter"],
      ["process_cpu_seconds_total", "counter"],
      ["process_start_time_seconds", "gauge"],
      ["process_resident_memory_bytes", "gauge"],
      ["process_open_fds", "gauge"],
      ["nodejs_eventloop_lag_seconds", "gauge"],
      ["nodejs_eventloop_lag_p99_seconds", "gauge"],
      ["nodejs_heap_size_used_bytes", "gauge"],
      ["nodejs_heap_size_total_bytes", "gauge"],
      ["nodejs_external_memory_bytes", "gauge"],
      ["nodejs_active_handles", "gauge"],
      ["nodejs_gc_duration_seconds", "histogram"],
      ["nodejs_version_info", "gauge"],
    ]) {
      expect(text).toContain(`# TYPE ${name} ${kind}\n`);
    }
    expect(text).not.toMatch(/^helpdesk_process_/m);
  });

  it("are checked by rules that do find what promtool finds", () => {
    const bad = [
      "# HELP app_open_total Open things",
      "# TYPE app_open_total gauge",
      "app_open_total 1",
      "# TYPE app_requests counter",
      "app_requests 2",
      "# HELP app_process_process_duration_milliseconds Time",
      "# TYPE app_process_process_duration_milliseconds gauge",
      "app_process_process_duration_milliseconds 3",
      "# HELP app_wait_ms Wait",
      "# TYPE app_wait_ms gauge",
      "app_wait_ms 4",
      "app_untyped 5",
    ].join("\n");
    expect(namingProblems(bad)).toEqual([
      "app_untyped: no TYPE",
      'app_open_total: non-counter metrics should not have "_total" suffix',
      "app_requests: no HELP text",
      'app_requests: counter metrics should have "_total" suffix',
      "app_process_process_duration_milliseconds: doubled process_ prefix",
      'app_process_process_duration_milliseconds: use the base unit instead of "milliseconds"',
      'app_wait_ms: abbreviated unit "ms"',
    ]);
  });
});

describe("METRICS_PORT", () => {
  it("serves the same metrics, without a token, on a port of its own", async () => {
    const server = await listenForMetrics(withoutToken.app.metrics, 0, "127.0.0.1");
    try {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/helpdesk_queue_depth\{queue="mail_outbox"\} 0\n/);
      const other = await fetch(`http://127.0.0.1:${port}/api/tickets`);
      expect(other.status).toBe(404);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});
