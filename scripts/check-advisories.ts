// `npm run check:advisories`: no known high or critical advisory in the packages the app ships with
// (docs/security.md "Dependency advisories"). Two sources, the first available wins:
//   ADVISORY_DB=<directory>  an OSV snapshot read offline: osv.dev's npm/all.zip unzipped, or a clone of
//                            github/advisory-database (its advisories/github-reviewed folder);
//   the npm registry's advisory endpoint, through `npm audit --omit=dev`.
// Exits 1 on a blocking advisory (high, critical, or unrated). When neither source can be read, it says so
// loudly and exits 0, or 1 with ADVISORIES_REQUIRED=1: a machine that cannot see any advisory data cannot
// check, and a CI that only reaches a registry mirror without that endpoint would otherwise never pass.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  type Finding,
  isBlocking,
  productionPackages,
  type Severity,
  scanOsvDirectory,
} from "./advisories.ts";

const root = path.resolve(import.meta.dirname, "..");
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
const packages = productionPackages(lock);
const required = process.env.ADVISORIES_REQUIRED === "1";

function report(source: string, findings: readonly Finding[]) {
  const blocking = findings.filter(isBlocking);
  console.log(`Advisories (${source}): ${packages.length} production packages checked.`);
  for (const finding of findings) {
    const mark = isBlocking(finding) ? "BLOCKING" : "note";
    console.log(
      `  ${mark.padEnd(8)} ${finding.package.name}@${finding.package.version}  ${finding.id} (${finding.severity})  ${finding.summary}`,
    );
  }
  if (blocking.length > 0) {
    console.error(`${blocking.length} high, critical or unrated advisories in production dependencies.`);
    process.exit(1);
  }
  console.log(`No high or critical advisory (${findings.length} lower).`);
}

function notChecked(reason: string): never {
  console.error(`Advisories NOT CHECKED: ${reason}`);
  console.error(
    "Give an offline OSV snapshot with ADVISORY_DB=<directory> (osv.dev's npm/all.zip, unzipped), or run where the registry's advisory endpoint answers.",
  );
  process.exit(required ? 1 : 0);
}

const snapshot = process.env.ADVISORY_DB;
if (snapshot) {
  const { advisories, findings } = await scanOsvDirectory(path.resolve(snapshot), packages).catch((error) =>
    notChecked(`could not read ADVISORY_DB=${snapshot}: ${(error as Error).message}`),
  );
  if (advisories === 0) notChecked(`ADVISORY_DB=${snapshot} holds no advisory file`);
  report(`OSV snapshot ${snapshot}, ${advisories} advisories`, findings);
} else {
  const audit = spawnSync("npm", ["audit", "--omit=dev", "--json"], { cwd: root, encoding: "utf8" });
  let answer: {
    error?: unknown;
    statusCode?: number;
    message?: string;
    vulnerabilities?: Record<string, { name: string; severity: Severity; via: unknown[]; range?: string }>;
  };
  try {
    answer = JSON.parse(audit.stdout);
  } catch {
    notChecked(`npm audit gave no report (exit ${audit.status}): ${audit.stderr.trim().split("\n").at(-1)}`);
  }
  if (!answer.vulnerabilities) {
    notChecked(
      `the registry's advisory endpoint refused: ${answer.message ?? `status ${answer.statusCode}`}`,
    );
  }
  const installed = new Map(packages.map((pkg) => [pkg.name, pkg]));
  const findings = Object.values(answer.vulnerabilities).map((vulnerability) => {
    const advisory = vulnerability.via.find(
      (via): via is { url?: string; title?: string } => typeof via === "object" && via !== null,
    );
    return {
      package: installed.get(vulnerability.name) ?? {
        name: vulnerability.name,
        version: vulnerability.range ?? "?",
      },
      id: advisory?.url ?? `via ${vulnerability.via.join(", ")}`,
      severity: vulnerability.severity,
      summary: advisory?.title ?? "",
    };
  });
  report("npm audit", findings);
}
