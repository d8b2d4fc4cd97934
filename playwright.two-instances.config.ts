import { defineConfig } from "@playwright/test";
import base from "./playwright.config.ts";

// The whole browser suite against two app instances on one PostgreSQL database, behind a loopback balancer
// that alternates requests between them (scripts/e2e-server.ts with E2E_INSTANCES=2), each running the server
// compiled as production runs it (E2E_BUILT=1).
export default defineConfig({
  ...base,
  webServer: {
    ...(base.webServer as object),
    command: "node --import tsx scripts/e2e-server.ts",
    // Shows the balancer's line and, at the end, how many requests each instance answered.
    stdout: "pipe",
    env: { ...(base.webServer as { env: Record<string, string> }).env, E2E_INSTANCES: "2", E2E_BUILT: "1" },
  },
});
