import { defineConfig } from "@playwright/test";
import { e2eSettings } from "./e2e/settings.mjs";

const { port, baseURL } = e2eSettings();

// Browser journeys in Debian's Chromium; Playwright downloads no browser of its own.
export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.ts",
  // A journey left focused with test.only would skip the others and still pass: under CI it fails the run.
  forbidOnly: !!process.env.CI,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Journeys drive two or three browsers through whole flows on a 2-core machine; a slow run is not a failure.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "e2e/.artifacts",
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "node --import tsx scripts/e2e-server.ts",
    url: `http://localhost:${port}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { E2E_PORT: String(port) },
  },
});
