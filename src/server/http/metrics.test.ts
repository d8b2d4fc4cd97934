import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox } from "../db/schema/index.ts";
import { signedInAs } from "../test/factories.ts";
import { createTestApp, request, type TestApp } from "../test/test-app.ts";
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
