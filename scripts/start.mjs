// `npm start`: builds the client and the server (dist/server/main.js) when missing or older than their
// sources, then serves the app on the embedded database (or on DATABASE_URL when set).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const builtIndex = path.join(root, "dist/client/index.html");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

const sources = ["src/client", "src/shared", "vite.config.ts", "package-lock.json"].map((p) =>
  path.join(root, p),
);
const newestSource = Math.max(
  ...sources.map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)),
);
if (!existsSync(builtIndex) || statSync(builtIndex).mtimeMs < newestSource) {
  console.log("Building the client…");
  const build = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The server runs compiled (decision 039): rebuilt when missing or older than its sources.
const builtServer = path.join(root, "dist/server/main.js");
const serverSources = ["src/server", "src/shared", "package-lock.json"].map((p) => path.join(root, p));
const newestServerSource = Math.max(
  ...serverSources.map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)),
);
if (!existsSync(builtServer) || statSync(builtServer).mtimeMs < newestServerSource) {
  console.log("Building the server…");
  const { buildServer } = await import("./build-server.mjs");
  await buildServer();
}

const server = spawn(process.execPath, ["--enable-source-maps", builtServer], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
