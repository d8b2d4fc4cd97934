// `npm run test:faults`: the fault scripts with short settings, as a check (docs/faults.md). Each asserts
// its own criterion and exits non-zero when it fails; this runs them one after the other and exits 1 if
// any failed. The full runs, whose figures docs/faults.md quotes, are the scripts' defaults.
//
//   npm run test:faults                 # PostgreSQL at BENCH_DATABASE_URL (a throw-away database each)
//   npm run test:faults -- --pglite     # the two that take --pglite run on embedded PGlite instead
//
// full-disk mounts a tmpfs and so needs root; without it, it says so and counts as skipped, not failed.
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const pglite = process.argv.includes("--pglite") ? ["--pglite"] : [];
const checks: Array<{ name: string; args: string[] }> = [
  // A cut of every stream and a kill -9 of the server; every notification stored must have arrived.
  { name: "push-reconnect", args: [...pglite, "--cuts", "1", "--restarts", "1", "--gap", "4"] },
  // Targets that hang or fail must cost requests no more than a healthy one (2×: shared CI machines drift),
  // and a hanging one must not hold up a healthy webhook's deliveries.
  {
    name: "webhook-target",
    args: [...pglite, "--duration", "2", "--modes", "none,ok,hang,fail,none", "--max-slowdown", "2"],
  },
  // Changes refused with 507 at once, space freed → changes again, restart → everything acknowledged there.
  { name: "full-disk", args: [] },
];

const outcomes: Array<{ check: string; outcome: string; seconds: number }> = [];
for (const { name, args } of checks) {
  console.log(`\n━━ ${name} ${args.join(" ")}`);
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(root, `bench/faults/${name}.ts`), ...args, "--no-results"],
    { cwd: root, stdio: "inherit" },
  );
  const outcome =
    run.status === 0 ? "passed" : name === "full-disk" && run.status === 2 ? "skipped (not root)" : "FAILED";
  outcomes.push({ check: name, outcome, seconds: Math.round((performance.now() - started) / 1000) });
}
console.log();
console.table(outcomes);
if (outcomes.some((o) => o.outcome === "FAILED")) process.exitCode = 1;
