// The structure rules `npm run lint` checks after Biome (docs/architecture.md, "Where code goes"):
// - the import rules in .dependency-cruiser.cjs (no circles, src/shared pure, client features independent);
// - no two server folders that import each other (a feature folder under src/server/features, or a folder
//   directly under src/server): arrows between them run one way, so each can be read from the bottom up;
// - no source file over 400 lines (tests, test helpers and migrations aside). Functions over 120 lines are
//   Biome's rule (complexity/noExcessiveLinesPerFunction in biome.json).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const maxFileLines = 400;
const isTest = (file) => /\.test\.tsx?$/.test(file) || /^src\/(server|client)\/test\//.test(file);

const problems = [];

const graph = JSON.parse(
  execFileSync(
    process.execPath,
    [
      path.join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"),
      "src",
      "--config",
      ".dependency-cruiser.cjs",
      "--output-type",
      "json",
    ],
    { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  ),
);

for (const violation of graph.summary.violations) {
  const via = violation.cycle?.length
    ? ` (circle: ${violation.cycle.map((step) => step.name ?? step).join(" → ")})`
    : "";
  problems.push(`${violation.rule.name}: ${violation.from} → ${violation.to}${via}`);
}

/** The server folder a module belongs to: features/<name>, or the folder or file right under src/server. */
function serverFolder(file) {
  const match = /^src\/server\/(features\/[^/]+|[^/]+)/.exec(file);
  return match?.[1];
}

const arrows = new Map();
for (const module of graph.modules) {
  if (isTest(module.source)) continue;
  const from = serverFolder(module.source);
  if (!from) continue;
  for (const dependency of module.dependencies) {
    const to = serverFolder(dependency.resolved);
    if (!to || to === from || isTest(dependency.resolved)) continue;
    const key = `${from} → ${to}`;
    if (!arrows.has(key)) arrows.set(key, `${module.source} → ${dependency.resolved}`);
  }
}
for (const [key, example] of arrows) {
  const [from, to] = key.split(" → ");
  if (from < to && arrows.has(`${to} → ${from}`)) {
    problems.push(
      `server folders import each other: ${from} ↔ ${to} (${example}; ${arrows.get(`${to} → ${from}`)})`,
    );
  }
}

const files = execFileSync(
  "git",
  ["ls-files", "--cached", "--others", "--exclude-standard", "src", "scripts"],
  {
    cwd: root,
    encoding: "utf8",
  },
)
  .split("\n")
  .filter((file) => /\.(ts|tsx|mjs|js)$/.test(file) && !isTest(file));
for (const file of files) {
  let text;
  try {
    text = readFileSync(path.join(root, file), "utf8");
  } catch {
    continue; // deleted in the work tree
  }
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > maxFileLines) problems.push(`file over ${maxFileLines} lines: ${file} has ${lines}`);
}

if (problems.length > 0) {
  console.error(problems.map((problem) => `✗ ${problem}`).join("\n"));
  console.error(`\n${problems.length} structure problem(s); see docs/architecture.md, "Where code goes".`);
  process.exit(1);
}
console.log(
  `Structure: ${graph.summary.totalCruised} modules, ${graph.summary.totalDependenciesCruised} imports, no problems.`,
);
