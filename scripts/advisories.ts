import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import semver from "semver";

/**
 * The dependency advisory check (docs/security.md), its parts: which packages ship with the app, and which
 * of them an advisory in the OSV format (https://ossf.github.io/osv-schema/, what osv.dev and GitHub's
 * advisory database publish) names at the installed version. check-advisories.ts runs it.
 */

export interface InstalledPackage {
  name: string;
  version: string;
}

/**
 * The packages the app runs with, read from package-lock.json (lockfile v2/v3): every entry under
 * node_modules but those npm marks `dev` (only the dev tools need it) or `devOptional` (the dev tools need
 * it, and otherwise only as an optional peer nothing installs: vitest, for example). A package installed at
 * two versions is listed twice.
 */
export function productionPackages(lock: {
  packages?: Record<
    string,
    { version?: string; dev?: boolean; devOptional?: boolean; link?: boolean; name?: string }
  >;
}): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  for (const [where, entry] of Object.entries(lock.packages ?? {})) {
    if (!where.includes("node_modules/") || entry.dev || entry.devOptional || entry.link || !entry.version)
      continue;
    const name = entry.name ?? where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length);
    found.set(`${name}@${entry.version}`, { name, version: entry.version });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

type OsvEvent = { introduced?: string; fixed?: string; last_affected?: string; limit?: string };

export interface OsvAdvisory {
  id: string;
  summary?: string;
  aliases?: string[];
  withdrawn?: string;
  affected?: Array<{
    package?: { ecosystem?: string; name?: string };
    ranges?: Array<{ type?: string; events?: OsvEvent[] }>;
    versions?: string[];
  }>;
  database_specific?: { severity?: string };
}

export type Severity = "low" | "moderate" | "high" | "critical" | "unknown";

/**
 * GitHub's entries carry their severity in `database_specific.severity`; an entry without one is "unknown",
 * which the check treats as high: an advisory nobody rated is not taken for a harmless one.
 */
export function severityOf(advisory: OsvAdvisory): Severity {
  const severity = advisory.database_specific?.severity?.toLowerCase();
  if (severity === "medium") return "moderate";
  return severity === "low" || severity === "moderate" || severity === "high" || severity === "critical"
    ? severity
    : "unknown";
}

const versionOf = (value: string) => (value === "0" ? "0.0.0-0" : value);

/** The OSV evaluation of one SEMVER/ECOSYSTEM range: events in version order, the last one passed decides. */
function inRange(version: string, events: readonly OsvEvent[]): boolean {
  const points = events
    .map((event) => {
      const [kind, at] = Object.entries(event)[0] ?? [];
      return kind && typeof at === "string" && semver.valid(versionOf(at))
        ? { kind, at: versionOf(at) }
        : null;
    })
    .filter((point) => point !== null)
    .sort((a, b) => semver.compare(a.at, b.at));
  let affected = false;
  for (const { kind, at } of points) {
    if (kind === "introduced" && semver.gte(version, at)) affected = true;
    else if ((kind === "fixed" || kind === "limit") && semver.gte(version, at)) affected = false;
    else if (kind === "last_affected" && semver.gt(version, at)) affected = false;
  }
  return affected;
}

/** Whether the advisory names this npm package at this version (explicit versions or ranges). */
export function affects(advisory: OsvAdvisory, pkg: InstalledPackage): boolean {
  if (advisory.withdrawn || !semver.valid(pkg.version)) return false;
  return (advisory.affected ?? []).some(
    (entry) =>
      entry.package?.ecosystem === "npm" &&
      entry.package.name === pkg.name &&
      ((entry.versions ?? []).includes(pkg.version) ||
        (entry.ranges ?? []).some(
          (range) =>
            (range.type === "SEMVER" || range.type === "ECOSYSTEM") &&
            inRange(pkg.version, range.events ?? []),
        )),
  );
}

export interface Finding {
  package: InstalledPackage;
  id: string;
  severity: Severity;
  summary: string;
}

/**
 * Matches every production package against an OSV snapshot: a directory of advisory files (osv.dev's
 * `npm/all.zip`, unzipped, or a clone of github/advisory-database), read recursively.
 */
export async function scanOsvDirectory(directory: string, packages: readonly InstalledPackage[]) {
  const byName = new Map<string, InstalledPackage[]>();
  for (const pkg of packages) byName.set(pkg.name, [...(byName.get(pkg.name) ?? []), pkg]);
  const findings: Finding[] = [];
  let advisories = 0;
  for (const file of await jsonFiles(directory)) {
    let advisory: OsvAdvisory;
    try {
      advisory = JSON.parse(await readFile(file, "utf8")) as OsvAdvisory;
    } catch {
      continue;
    }
    advisories += 1;
    const names = new Set((advisory.affected ?? []).map((entry) => entry.package?.name));
    for (const name of names) {
      for (const pkg of (name && byName.get(name)) || []) {
        if (affects(advisory, pkg)) {
          findings.push({
            package: pkg,
            id: advisory.id,
            severity: severityOf(advisory),
            summary: advisory.summary ?? "",
          });
        }
      }
    }
  }
  return { advisories, findings };
}

async function jsonFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".json"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** What fails the check: high, critical, and advisories without a rating. */
export const isBlocking = (finding: Pick<Finding, "severity">) =>
  finding.severity === "high" || finding.severity === "critical" || finding.severity === "unknown";
