import { defineConfig } from "@playwright/test";
import base from "./playwright.config.ts";

// The journeys about several instances (tagged @instances: live push across instances, sessions and their
// end, sign-in and password-reset links, files, scheduled jobs and webhook deliveries, the Assign to Me race)
// against two app instances on one PostgreSQL database, behind a loopback balancer that alternates requests
// between them (scripts/e2e-server.ts with E2E_INSTANCES=2), each running the server compiled as production
// runs it (E2E_BUILT=1). The other journeys run once, on one instance (playwright.config.ts): what they check
// takes the same path on either.
export default defineConfig({
  ...base,
  grep: /@instances/,
  webServer: {
    ...(base.webServer as object),
    command: "node --import tsx scripts/e2e-server.ts",
    // Shows the balancer's line and, at the end, how many requests each instance answered.
    stdout: "pipe",
    env: { ...(base.webServer as { env: Record<string, string> }).env, E2E_INSTANCES: "2", E2E_BUILT: "1" },
  },
});
