// `npm run dev`: the API with reload on change (tsx watch, port 3000) and the client with hot module
// replacement (Vite, port 5173, proxying /api). Open http://localhost:5173.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const env = { BASE_URL: "http://localhost:5173", ...process.env, NODE_ENV: "development" };
const children = [
  spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "watch", "src/server/main.ts"], {
    cwd: root,
    stdio: "inherit",
    env,
  }),
  spawn(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js")], {
    cwd: root,
    stdio: "inherit",
    env,
  }),
];
const stop = (signal) => {
  for (const child of children) child.kill(signal);
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
for (const child of children)
  child.on("exit", (code) => {
    stop("SIGTERM");
    process.exitCode = code ?? 0;
  });
