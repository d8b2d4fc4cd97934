// `npm run test:pg`: the server suite against a real PostgreSQL server. Each run creates a template
// database there, each test file clones and drops its own (src/server/test/global-setup.ts).
//
// Only the files that use a database run here: a test of pure code (the env parser, reply addresses,
// Markdown) takes the same path on PGlite in `npm test`, and running it again here would prove nothing new.
// A file given on the command line runs whatever it holds.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const url = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** What a test file that reaches a database says: the test app or database, a child server, or the URL. */
const usesDatabase =
  /createTestApp|createDrawingTestApp|createTestDatabase|startChildServer|createDatabase|TEST_DATABASE_URL|pgTemplateUrl/;

function serverTestFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverTestFiles(full);
    return entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

const args = process.argv.slice(2);
const namesFiles = args.some((arg) => !arg.startsWith("-"));
const files = namesFiles
  ? []
  : serverTestFiles(path.join(root, "src/server"))
      .filter((file) => usesDatabase.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(root, file));

console.log(
  `Server suite on PostgreSQL: ${url.replace(/\/\/[^@]*@/, "//***@")}` +
    (namesFiles ? "" : ` (${files.length} files that use a database)`),
);
const run = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--project", "server", ...files, ...args],
  { cwd: root, stdio: "inherit", env: { ...process.env, TEST_DATABASE_URL: url } },
);
process.exit(run.status ?? 1);
