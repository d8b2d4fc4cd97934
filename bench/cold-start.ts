// Cold start (decision 040): the time from `npm start` (scripts/start.mjs: client build check, then
// src/server/main.ts with migrations) to the first 200 from /readyz, on an existing seeded database.
// Three runs, after building the client once if dist/ has none.
//
//   BENCH_REUSE_URL=postgres://postgres@127.0.0.1:5432/bench_1m npm run bench:cold-start   # 1M tickets
//   npm run bench:cold-start -- --pglite --reuse                                          # PGlite
//   --runs N (3)
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import {
  benchArgs,
  machine,
  openSeededDatabase,
  origin,
  root,
  waitForReady,
  writeResults,
} from "./server-bench.ts";

const args = benchArgs({ runs: { type: "string" }, port: { type: "string" } });
const runs = Number(args.values.runs ?? 3);
const port = Number(args.values.port ?? 4391);
const database = await openSeededDatabase(args);
const timings: Array<{ readyMs: number; listeningMs: number | null }> = [];
// The client is built once beforehand (npm start builds it when missing or stale): the runs time the
// server's start, not Vite.
if (!existsSync(path.join(root, "dist/client/index.html"))) {
  console.log("Building the client once (vite build)…");
  spawnSync(
    process.execPath,
    [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
}
try {
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    let listeningMs: number | null = null;
    const child = spawn(process.execPath, [path.join(root, "scripts/start.mjs")], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: "127.0.0.1",
        BASE_URL: origin,
        BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
        ADMIN_SIGNUP_KEY: "bench-admin-key-0123456789",
        ...database.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.stdout.on("data", (chunk: Buffer) => {
      if (listeningMs === null && chunk.toString().includes("Server listening"))
        listeningMs = performance.now() - started;
    });
    child.stderr.on("data", () => {});
    await waitForReady(`http://127.0.0.1:${port}`);
    const readyMs = performance.now() - started;
    timings.push({ readyMs: Math.round(readyMs), listeningMs: listeningMs && Math.round(listeningMs) });
    console.log(
      `run ${run + 1}: listening after ${timings.at(-1)!.listeningMs} ms, /readyz 200 after ${timings.at(-1)!.readyMs} ms`,
    );
    child.kill("SIGTERM");
    await exited;
  }
  console.log(`\n${database.description}`);
  console.table(
    timings.map((t, i) => ({ run: i + 1, "listening ms": t.listeningMs, "/readyz ms": t.readyMs })),
  );
  writeResults(`cold-start-${database.kind}`, {
    bench: "cold-start",
    database: database.description,
    tickets: database.tickets,
    machine: machine(),
    runs: timings,
  });
} finally {
  await database.cleanup();
}
