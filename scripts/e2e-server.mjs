// The server the browser journeys run against: a fresh embedded database in a temporary folder.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "helpdesk-e2e-"));
const port = process.env.E2E_PORT ?? "3999";
const server = spawn(process.execPath, ["--import", "tsx", path.join(root, "src/server/main.ts")], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: port,
    BASE_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
  },
});
const stop = (signal) => server.kill(signal);
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
server.on("exit", (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
