import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { linguiPlugins } from "./vite.config.ts";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "shared",
          // scripts/: the build and CI tools' own logic (e.g. the advisory check).
          include: ["src/shared/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "server",
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
