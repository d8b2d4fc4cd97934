// The server the browser journeys run against: a fresh embedded database in a known temporary folder
// (journeys read DATA_DIR/outbox for mails), a fixed admin key, and a real OpenID Connect provider
// (oauth2-mock-server, src/server/test/oidc.ts) on loopback whose next signed-in person journeys set
// through a control port (127.0.0.1 only). The app runs in a child process (scripts/e2e-app.ts) on a
// clock the journeys move through the same port: POST /clock/advance {ms}, POST /jobs/tick, and
// POST /tickets/due-times {ticketId, firstResponse?, resolution?} (each {warnInMs?, dueInMs?}).
//
// E2E_INSTANCES=2 (npm run test:e2e:two-instances): two app processes on one fresh PostgreSQL database
// (E2E_DATABASE_SERVER, the local server by default) sharing DATA_DIR, behind a loopback balancer
// (scripts/e2e-balancer.ts) on the journeys' port that alternates requests between them. The clock moves on
// both; due jobs are run on both (their leases let each run once).
//
// E2E_BUILT=1 (the two-instance suite sets it): the app is compiled first as `npm start` runs the server
// (scripts/build-server.mjs, packages bundled, decision 048) and run as JavaScript, not through tsx.
import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import http, { createServer } from "node:http";
import path from "node:path";
import pg from "pg";
import { startOidcProvider } from "#server/test/oidc.ts";
import { e2eSettings } from "../e2e/settings.mjs";
import { type Balancer, startBalancer } from "./e2e-balancer.ts";
import { type AppControlReply, type AppControlRequest, appControlRoutes } from "./e2e-control.ts";

const root = path.resolve(import.meta.dirname, "..");
const settings = e2eSettings();
rmSync(settings.dataDir, { recursive: true, force: true });

const oidc = await startOidcProvider(settings.oidcPort);

const instanceCount = Number(process.env.E2E_INSTANCES ?? 1);
const apps: ChildProcess[] = [];

// Requests to the app processes over IPC, answered by id.
let nextRequestId = 0;
const pending = new Map<number, (reply: AppControlReply) => void>();
function askOne(app: ChildProcess, request: AppControlRequest): Promise<AppControlReply> {
  const id = ++nextRequestId;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    app.send({ ...request, id });
  });
}
async function askApp(request: AppControlRequest): Promise<AppControlReply> {
  if (request.op === "set-due-times") return askOne(apps[0]!, request);
  // Every instance's clock moves; due jobs are offered to every instance, one after the other.
  const replies: AppControlReply[] = [];
  for (const app of apps) replies.push(await askOne(app, request));
  const failed = replies.find((reply) => !reply.ok);
  if (failed || request.op === "advance-clock") return failed ?? replies[0]!;
  const ran = replies.flatMap((reply) => (reply.ok ? (reply.result as { ran: string[] }).ran : []));
  return { id: 0, ok: true, result: { ran } };
}

// POST /oidc-person {sub, email, name, groups?}: who the next organisation sign-in is; the app's routes (see the
// top) are passed to the app process.
const control = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => {
    body += chunk;
  });
  request.on("end", async () => {
    const appOp = request.url ? appControlRoutes[request.url] : undefined;
    if (request.method === "POST" && request.url === "/oidc-person") {
      oidc.signInAs(JSON.parse(body));
      response.writeHead(204).end();
    } else if (request.method === "POST" && appOp) {
      let fields: object;
      try {
        fields = body ? JSON.parse(body) : {};
      } catch {
        response.writeHead(400).end(JSON.stringify({ message: "The body is not JSON" }));
        return;
      }
      const reply = await askApp({ ...fields, op: appOp } as AppControlRequest);
      response
        .writeHead(reply.ok ? 200 : 400, { "content-type": "application/json" })
        .end(JSON.stringify(reply.ok ? reply.result : { message: reply.error }));
    } else {
      response.writeHead(404).end();
    }
  });
});
control.listen(settings.controlPort, "127.0.0.1");

// Two instances: a fresh PostgreSQL database of their own.
let databaseUrl: string | undefined;
if (instanceCount > 1) {
  const serverUrl = process.env.E2E_DATABASE_SERVER ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `helpdesk_e2e_${settings.port}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
}
const appPorts =
  instanceCount > 1
    ? Array.from({ length: instanceCount }, (_, i) => settings.port + 1 + i)
    : [settings.port];

let appCommand = ["--import", "tsx", path.join(root, "scripts/e2e-app.ts")];
if (process.env.E2E_BUILT === "1") {
  const { buildServer } = await import("./build-server.mjs");
  const outfile = "dist/e2e/app.js";
  await buildServer({ entry: "scripts/e2e-app.ts", outfile });
  appCommand = [path.join(root, outfile)];
}

for (const [index, port] of appPorts.entries()) {
  const app = spawn(process.execPath, appCommand, {
    cwd: root,
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      BASE_URL: settings.baseURL,
      DATA_DIR: settings.dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      // Instances behind one address sign the same sessions and links.
      ...(instanceCount > 1 ? { BETTER_AUTH_SECRET: "e2e-two-instances-secret-0123456789abcdef" } : {}),
      LOG_LEVEL: "warn",
      ADMIN_SIGNUP_KEY: settings.adminKey,
      OIDC_ISSUER: oidc.issuer,
      OIDC_CLIENT_ID: "helpdesk-e2e",
      OIDC_CLIENT_SECRET: "helpdesk-e2e-secret",
      OIDC_LABEL: "Sign in with Contoso",
      // Journeys sign up and in many times from one address; the limit itself is covered by server tests.
      AUTH_RATE_LIMIT_MAX: "1000",
      // The webhook journey's receiver listens on loopback, which the SSRF guard refuses by default.
      WEBHOOKS_ALLOW_PRIVATE: "true",
      // E-mail to ticket (decision 028), which the received-mail journey sends to over SMTP.
      INBOUND_SMTP_PORT: String(settings.inboundPort - index),
      INBOUND_EMAIL_ADDRESS: settings.inboundAddress,
    },
  });
  app.on("message", (reply: AppControlReply) => {
    pending.get(reply.id)?.(reply);
    pending.delete(reply.id);
  });
  // One instance gone ends the run (and the others with it).
  app.on("exit", (code) => void finish(code));
  apps.push(app);
}

let balancer: Balancer | undefined;
if (instanceCount > 1) {
  // The balancer opens only once every instance is ready, so Playwright's readiness check means all of them.
  for (const port of appPorts) await waitUntilReady(port);
  balancer = await startBalancer(settings.port, appPorts);
  console.log(`Two-instance journeys: balancer on ${settings.port} -> instances on ${appPorts.join(", ")}`);
}

/** GET /readyz answers 200. node:http, not fetch: fetch refuses ports browsers block (6000, 6665–6669…). */
function isReady(port: number) {
  return new Promise<boolean>((resolve) => {
    const request = http.get({ host: "127.0.0.1", port, path: "/readyz", timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(false));
  });
}

async function waitUntilReady(port: number) {
  for (;;) {
    if (await isReady(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const stop = (signal: NodeJS.Signals) => {
  for (const app of apps) app.kill(signal);
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));

let finishing = false;
async function finish(code: number | null) {
  if (finishing) return;
  finishing = true;
  for (const app of apps) if (app.exitCode === null) app.kill("SIGTERM");
  await Promise.all(
    apps.map((app) => (app.exitCode === null ? new Promise((resolve) => app.once("exit", resolve)) : null)),
  );
  if (balancer) console.log(`Requests per instance: ${balancer.counts().join(", ")}`);
  await balancer?.close();
  control.close();
  await oidc.stop();
  rmSync(settings.dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
}
