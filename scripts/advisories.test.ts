import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { affects, type OsvAdvisory, productionPackages, scanOsvDirectory } from "./advisories.ts";

const root = path.resolve(import.meta.dirname, "..");
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
const installed = productionPackages(lock);
const fastify = installed.find((pkg) => pkg.name === "fastify")!;

const advisory = (id: string, events: OsvAdvisory["affected"], severity = "HIGH"): OsvAdvisory => ({
  id,
  summary: `${id} summary`,
  affected: events,
  database_specific: { severity },
});
const npmRange = (name: string, ...events: Array<Record<string, string>>) => [
  { package: { ecosystem: "npm", name }, ranges: [{ type: "SEMVER", events }] },
];

describe("the packages the app ships with", () => {
  it("are the lockfile's production packages, not its dev tools", () => {
    expect(fastify?.version).toMatch(/^\d+\.\d+\.\d+/);
    const names = new Set(installed.map((pkg) => pkg.name));
    expect(names.has("@electric-sql/pglite")).toBe(true);
    expect(names.has("vitest")).toBe(false);
    expect(names.has("@playwright/test")).toBe(false);
  });
});

describe("whether an OSV advisory names a version", () => {
  const pkg = { name: "left-pad", version: "1.2.3" };
  it.each([
    ["introduced 0, fixed later", npmRange("left-pad", { introduced: "0" }, { fixed: "1.2.4" }), true],
    ["fixed at or before it", npmRange("left-pad", { introduced: "0" }, { fixed: "1.2.3" }), false],
    ["introduced after it", npmRange("left-pad", { introduced: "1.3.0" }), false],
    ["last affected is it", npmRange("left-pad", { introduced: "1.0.0" }, { last_affected: "1.2.3" }), true],
    [
      "last affected before it",
      npmRange("left-pad", { introduced: "1.0.0" }, { last_affected: "1.2.2" }),
      false,
    ],
    [
      "a second range reopens it",
      npmRange(
        "left-pad",
        { introduced: "0" },
        { fixed: "1.0.0" },
        { introduced: "1.2.0" },
        { fixed: "1.2.5" },
      ),
      true,
    ],
    ["another package", npmRange("right-pad", { introduced: "0" }), false],
    ["another ecosystem", [{ package: { ecosystem: "PyPI", name: "left-pad" }, versions: ["1.2.3"] }], false],
    ["listed by version", [{ package: { ecosystem: "npm", name: "left-pad" }, versions: ["1.2.3"] }], true],
  ])("%s", (_, affected, expected) => {
    expect(affects(advisory("GHSA-test", affected), pkg)).toBe(expected);
  });

  it("ignores a withdrawn advisory", () => {
    expect(
      affects(
        { ...advisory("GHSA-w", npmRange("left-pad", { introduced: "0" })), withdrawn: "2026-01-01" },
        pkg,
      ),
    ).toBe(false);
  });
});

describe("npm run check:advisories with an OSV snapshot", () => {
  let directory: string;
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  function snapshot(advisories: OsvAdvisory[]) {
    directory = mkdtempSync(path.join(tmpdir(), "osv-"));
    for (const entry of advisories)
      writeFileSync(path.join(directory, `${entry.id}.json`), JSON.stringify(entry));
    return directory;
  }
  const check = (db: string) =>
    spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts/check-advisories.ts")], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, ADVISORY_DB: db },
    });

  it("fails on a high advisory for an installed production version, naming it", async () => {
    const db = snapshot([
      advisory("GHSA-high-fastify", npmRange("fastify", { introduced: "0" }, { fixed: "999.0.0" })),
      advisory("GHSA-old-fastify", npmRange("fastify", { introduced: "0" }, { fixed: "0.0.1" })),
      advisory("GHSA-dev-only", npmRange("vitest", { introduced: "0" })),
    ]);
    const { findings } = await scanOsvDirectory(db, installed);
    expect(findings.map((finding) => finding.id)).toEqual(["GHSA-high-fastify"]);

    const run = check(db);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`BLOCKING fastify@${fastify.version}  GHSA-high-fastify (high)`);
  });

  it("passes when the only advisories are low or for other versions", () => {
    const run = check(
      snapshot([
        advisory("GHSA-low-fastify", npmRange("fastify", { introduced: "0" }), "LOW"),
        advisory("GHSA-old-fastify", npmRange("fastify", { introduced: "0" }, { fixed: "0.0.1" })),
      ]),
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("No high or critical advisory (1 lower).");
  });

  it("treats an advisory nobody rated as blocking", () => {
    const run = check(snapshot([advisory("GHSA-unrated", npmRange("fastify", { introduced: "0" }), "")]));
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("GHSA-unrated (unknown)");
  });
});
