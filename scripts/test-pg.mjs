// `npm run test:pg`: the server suite against a real PostgreSQL server. Each run creates a template
// database there, each test file clones and drops its own (src/server/test/global-setup.ts).
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const url = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
console.log(`Server suite on PostgreSQL: ${url.replace(/\/\/[^@]*@/, "//***@")}`);
const run = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--project", "server", ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit", env: { ...process.env, TEST_DATABASE_URL: url } },
);
process.exit(run.status ?? 1);
