import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { linguiPlugins } from "./vite.config.ts";

// A test left focused with .only would skip the rest of the suite and still pass: under CI (CI set) a
// focused test fails the run instead. Each project resolves this for itself, so each says it.
const allowOnly = !process.env.CI;

export default defineConfig({
  test: {
    allowOnly,
    projects: [
      {
        test: {
          name: "shared",
          allowOnly,
          // scripts/: the build and CI tools' own logic (e.g. the advisory check).
          include: ["src/shared/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "server",
          allowOnly,
          include: ["src/server/**/*.test.ts"],
          environment: "node",
          globalSetup: ["src/server/test/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react(), ...linguiPlugins()],
        test: {
          name: "client",
          allowOnly,
          include: ["src/client/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["src/client/test/setup.ts"],
          // jsdom renders whole pages; on a busy 2-core machine a long form test can pass 5 s. A time
          // limit against hangs, not an assertion about speed.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
