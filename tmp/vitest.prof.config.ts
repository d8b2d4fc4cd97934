import { defineConfig } from "vitest/config";
export default defineConfig({
  test: {
    include: ["src/server/**/*.test.ts"],
    environment: "node",
    globalSetup: ["src/server/test/global-setup.ts"],
    setupFiles: ["tmp/prof-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
