// The server the browser journeys run against: a fresh embedded database in a known temporary folder
// (journeys read DATA_DIR/outbox for mails), a fixed admin key, and a real OpenID Connect provider
// (oauth2-mock-server, src/server/test/oidc.ts) on loopback whose next signed-in person journeys set
// through a control port (127.0.0.1 only). The app runs in a child process (scripts/e2e-app.ts) on a
// clock the journeys move through the same port: POST /clock/advance {ms}, POST /jobs/tick, and
// POST /tickets/due-times {ticketId, firstResponse?, resolution?} (each {warnInMs?, dueInMs?}).
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { e2eSettings } from "../e2e/settings.mjs";
import { startOidcProvider } from "../src/server/test/oidc.ts";
import { type AppControlReply, type AppControlRequest, appControlRoutes } from "./e2e-control.ts";

const root = path.resolve(import.meta.dirname, "..");
const settings = e2eSettings();
rmSync(settings.dataDir, { recursive: true, force: true });

const oidc = await startOidcProvider(settings.oidcPort);

// Requests to the app process over IPC, answered by id.
let nextRequestId = 0;
const pending = new Map<number, (reply: AppControlReply) => void>();
function askApp(request: AppControlRequest): Promise<AppControlReply> {
  const id = ++nextRequestId;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    server.send({ ...request, id });
  });
}

// POST /oidc-person {sub, email, name}: who the next organisation sign-in is; the app's routes (see the
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

const server = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/e2e-app.ts")], {
  cwd: root,
  stdio: ["inherit", "inherit", "inherit", "ipc"],
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(settings.port),
    BASE_URL: settings.baseURL,
    DATA_DIR: settings.dataDir,
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
  },
});
server.on("message", (reply: AppControlReply) => {
  pending.get(reply.id)?.(reply);
  pending.delete(reply.id);
});
const stop = (signal: NodeJS.Signals) => server.kill(signal);
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
server.on("exit", async (code) => {
  control.close();
  await oidc.stop();
  rmSync(settings.dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
