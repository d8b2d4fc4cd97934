import { availableParallelism } from "node:os";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { linguiPlugins } from "./vite.config.ts";

// A test left focused with .only would skip the rest of the suite and still pass: under CI (CI set) a
// focused test fails the run instead. Each project resolves this for itself, so each says it.
const allowOnly = !process.env.CI;

// Test files share their worker's loaded modules instead of loading the app, PGlite and React again for
// each file: that loading was most of the suite's time (a client file took 0.1 s to run and 2 s to load).
// Each file still gets its own database and app (src/server/test), its own DOM cleanup (src/client/test),
// and no test replaces a module (no vi.mock), so nothing one file does is seen by the next.
const isolate = false;

export default defineConfig({
  test: {
    allowOnly,
    // Vitest's default on two cores is one worker; the server's tests wait on the database and on
    // password hashing often enough that two use both cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: "shared",
          allowOnly,
          isolate,
          // scripts/: the build and CI tools' own logic (e.g. the advisory check).
          include: ["src/shared/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "server",
          allowOnly,
          isolate,
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
          isolate,
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
