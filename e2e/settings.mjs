// Shared by the e2e server (scripts/e2e-server.ts), playwright.config.ts and the journeys.
import os from "node:os";
import path from "node:path";

export function e2eSettings() {
  const port = Number(process.env.E2E_PORT ?? 3999);
  return {
    port,
    baseURL: `http://localhost:${port}`,
    dataDir: path.join(os.tmpdir(), `helpdesk-e2e-${port}`),
    adminKey: "e2e-admin-key-0123456789",
    oidcPort: port - 1,
    controlPort: port - 2,
    // The app's inbound SMTP listener (e-mail to ticket); a second instance listens one port lower.
    inboundPort: port - 3,
    inboundAddress: "helpdesk@help.test",
  };
}
