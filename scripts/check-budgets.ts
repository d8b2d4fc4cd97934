// The front end's budgets, measured on the production build (decision 031).
//
//   npm run check:budgets            builds, then measures
//   npm run check:budgets -- --no-build
//
// For /sign-in (signed out), /user-home (a user) and /technician-home (a technician), on the built app
// served the way the browser journeys serve it (scripts/e2e-server.ts, port BUDGET_PORT, default 4310):
// 1. first-load JavaScript: every script Chromium fetches until the page is idle, summed as the gzip size
//    the server sends (dist/client/*.js.gz, or gzip -9 of the file when it is too small to have one);
// 2. no chunk the first screen does not use: the sources of those scripts (from their source maps) hold
//    no other page, no form library, no chart and no editor;
// 3. Lighthouse (mobile preset: simulated slow 4G, 4× CPU slowdown) performance score and LCP, against
//    Debian's Chromium, signed in through a session cookie for the homes.
// Prints a table, writes bench/results/front-end-budgets.json and exits 1 when any budget is exceeded.
// Lighthouse's figures move with the machine's load: each route is measured BUDGET_RUNS times (default 3)
// and the median of each figure is held against the budget (decision 037); the JSON records every run
// with the load average at its start. A run Lighthouse itself cannot record (NO_NAVSTART and the like)
// is tried again, at most twice; it is not a measurement.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { cookiesOf, signedInCookie, startServer, stopServer, waitUntilReady } from "./budget-app.ts";

const root = path.resolve(import.meta.dirname, "..");
const distDir = path.join(root, "dist/client");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const port = Number(process.env.BUDGET_PORT ?? 4310);
const baseURL = `http://localhost:${port}`;
const lighthouseRuns = Number(process.env.BUDGET_RUNS ?? 3);

/** The budgets of decision 031; never loosened to make a run pass. */
const budgets = {
  signInJsKb: 100,
  homeJsKb: 130,
  performance: 95,
  lcpSeconds: 1.5,
};

interface Route {
  path: string;
  /** The page module this route's first screen is drawn by (src/client/pages/…). */
  page: string;
  session: "none" | "user" | "technician";
  jsBudgetKb: number;
}

const routes: Route[] = [
  { path: "/sign-in", page: "sign-in.tsx", session: "none", jsBudgetKb: budgets.signInJsKb },
  { path: "/user-home", page: "user-home.tsx", session: "user", jsBudgetKb: budgets.homeJsKb },
  {
    path: "/technician-home",
    page: "technician-home.tsx",
    session: "technician",
    jsBudgetKb: budgets.homeJsKb,
  },
];

/**
 * Sources no first screen uses: they must load on demand (a form opened, the reports page, the editor).
 * Pages other than the route's own are checked separately.
 */
const onDemandSources: { pattern: RegExp; what: string; usedOn?: string[] }[] = [
  // /sign-in's first screen is a form; other first screens open theirs on demand.
  {
    pattern: /node_modules\/react-hook-form\//,
    what: "react-hook-form (forms load when opened)",
    usedOn: ["/sign-in"],
  },
  {
    pattern: /node_modules\/@hookform\//,
    what: "@hookform/resolvers (forms load when opened)",
    usedOn: ["/sign-in"],
  },
  { pattern: /node_modules\/uplot\//, what: "uPlot (charts load with /reports)" },
  { pattern: /features\/tickets\/components\/create-ticket-form\.tsx$/, what: "the create-ticket form" },
  { pattern: /features\/articles\/components\/article-editor/, what: "the article editor" },
  { pattern: /node_modules\/diff\//, what: "diff (article history)" },
];

const argv = new Set(process.argv.slice(2));

if (!argv.has("--no-build")) {
  console.log("Building…");
  execSync("npx vite build --logLevel warn", { cwd: root, stdio: "inherit" });
}

const server = startServer(root, port);
let exitCode = 1;
try {
  await waitUntilReady(baseURL);
  const cookies = {
    none: "",
    user: await signedInCookie(baseURL, "user"),
    technician: await signedInCookie(baseURL, "technician"),
  };

  const rows: RouteResult[] = [];
  for (const route of routes) {
    const javascript = await measureJavascript(route, cookies[route.session]);
    const lab = await medianLighthouse(route, cookies[route.session]);
    rows.push({ route: route.path, ...javascript, ...lab });
  }

  const failures = rows.flatMap((row, index) => budgetFailures(row, routes[index]!));
  printTable(rows);
  const resultsDir = path.join(root, "bench/results");
  await mkdir(resultsDir, { recursive: true });
  const report = {
    measuredAt: new Date().toISOString(),
    machine: { cpus: os.cpus().length, uptime: execSync("uptime").toString().trim() },
    budgets,
    routes: rows,
    failures,
  };
  await writeFile(path.join(resultsDir, "front-end-budgets.json"), `${JSON.stringify(report, null, 2)}\n`);
  if (failures.length > 0) {
    console.log("\nBudgets exceeded:");
    for (const failure of failures) console.log(`  ✗ ${failure}`);
  } else {
    console.log("\nEvery budget met.");
  }
  exitCode = failures.length > 0 ? 1 : 0;
} catch (error) {
  console.error(error);
} finally {
  await stopServer(server);
}
process.exit(exitCode);

interface RouteResult {
  route: string;
  jsGzipKb: number;
  scripts: { file: string; gzipBytes: number }[];
  unneededSources: string[];
  performance: number;
  lcpSeconds: number;
  fcpSeconds: number;
  tbtMs: number;
  loadAverage: number;
  /** Every Lighthouse run; the figures above are their medians. */
  runs: LabResult[];
}

type LabResult = Awaited<ReturnType<typeof runLighthouse>>;

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Lighthouse `lighthouseRuns` times on the route: the median of each figure, and every run. */
async function medianLighthouse(route: Route, cookie: string) {
  const runs: LabResult[] = [];
  for (let run = 0; run < lighthouseRuns; run++) {
    for (let attempt = 1; ; attempt++) {
      try {
        runs.push(await runLighthouse(route, cookie));
        break;
      } catch (error) {
        const isRuntimeError = (error as { isLighthouseRuntimeError?: boolean }).isLighthouseRuntimeError;
        if (attempt >= 3 || !isRuntimeError) throw error;
        console.log(`${route.path}: ${(error as Error).message}; trying again`);
      }
    }
  }
  const of = (key: keyof LabResult) => median(runs.map((run) => run[key]));
  return {
    performance: of("performance"),
    lcpSeconds: of("lcpSeconds"),
    fcpSeconds: of("fcpSeconds"),
    tbtMs: of("tbtMs"),
    loadAverage: of("loadAverage"),
    runs,
  };
}

/** Lighthouse could not record the page load (not a measurement). */
function LighthouseRuntimeError(message: string) {
  return Object.assign(new Error(message), { isLighthouseRuntimeError: true });
}

function budgetFailures(row: RouteResult, route: Route): string[] {
  const failures: string[] = [];
  if (row.jsGzipKb > route.jsBudgetKb) {
    failures.push(
      `${row.route}: first-load JavaScript ${row.jsGzipKb.toFixed(1)} KB gzip > ${route.jsBudgetKb} KB (by ${(row.jsGzipKb - route.jsBudgetKb).toFixed(1)} KB)`,
    );
  }
  for (const source of row.unneededSources)
    failures.push(`${row.route}: loads ${source} on the first screen`);
  if (row.performance < budgets.performance) {
    failures.push(`${row.route}: Lighthouse performance ${row.performance} < ${budgets.performance}`);
  }
  if (row.lcpSeconds > budgets.lcpSeconds) {
    failures.push(`${row.route}: LCP ${row.lcpSeconds.toFixed(2)} s > ${budgets.lcpSeconds} s`);
  }
  return failures;
}

function printTable(rows: RouteResult[]) {
  const header = [
    "route",
    "JS gzip KB",
    "on-demand leaks",
    "perf",
    "LCP s",
    "FCP s",
    "TBT ms",
    "load avg",
    "perf of each run",
    "LCP s of each run",
  ];
  const lines = rows.map((row) => [
    row.route,
    row.jsGzipKb.toFixed(1),
    String(row.unneededSources.length),
    String(row.performance),
    row.lcpSeconds.toFixed(2),
    row.fcpSeconds.toFixed(2),
    String(Math.round(row.tbtMs)),
    row.loadAverage.toFixed(2),
    row.runs.map((run) => run.performance).join(" "),
    row.runs.map((run) => run.lcpSeconds.toFixed(2)).join(" "),
  ]);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...lines.map((line) => line[column]!.length)),
  );
  const format = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ");
  console.log(`\n${format(header)}`);
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const line of lines) console.log(format(line));
  console.log(`medians of ${lighthouseRuns} Lighthouse runs per route`);
  console.log(
    `budgets: JS /sign-in ≤ ${budgets.signInJsKb} KB, homes ≤ ${budgets.homeJsKb} KB; perf ≥ ${budgets.performance}; LCP ≤ ${budgets.lcpSeconds} s`,
  );
}

/** The gzip size the server sends for a file of the build. */
async function gzipSizeOf(file: string): Promise<number> {
  const gz = `${file}.gz`;
  if (existsSync(gz)) return (await readFile(gz)).length;
  return gzipSync(await readFile(file), { level: 9 }).length;
}

/** The module sources a built chunk was made of, from its source map. */
async function sourcesOf(file: string): Promise<string[]> {
  const map = `${file}.map`;
  if (!existsSync(map)) return [];
  const { sources } = JSON.parse(await readFile(map, "utf8")) as { sources: string[] };
  return sources.map((source) => path.resolve(path.dirname(file), source));
}

async function measureJavascript(route: Route, cookie: string) {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    if (cookie) await context.addCookies(cookiesOf(baseURL, cookie));
    const page = await context.newPage();
    const fetched = new Set<string>();
    page.on("response", (response) => {
      const url = new URL(response.url());
      if (url.origin === baseURL && /\.m?js$/.test(url.pathname)) fetched.add(url.pathname);
    });
    await page.goto(`${baseURL}${route.path}`, { waitUntil: "networkidle" });
    const landed = new URL(page.url()).pathname;
    if (landed !== route.path)
      throw new Error(`${route.path} landed on ${landed} (session: ${route.session})`);
    // What is measured is the page as people get it: the homes drawn by the server for the person.
    if (route.session !== "none" && (await page.locator("#root[data-drawn]").count()) === 0)
      throw new Error(`${route.path} was not drawn by the server for the ${route.session}`);

    const scripts: RouteResult["scripts"] = [];
    const unneeded = new Set<string>();
    for (const pathname of [...fetched].sort()) {
      const file = path.join(distDir, pathname);
      scripts.push({ file: pathname, gzipBytes: await gzipSizeOf(file) });
      for (const source of await sourcesOf(file)) {
        const relative = path.relative(root, source).split(path.sep).join("/");
        const pageModule = /^src\/client\/pages\/([^/]+)$/.exec(relative)?.[1];
        if (pageModule && pageModule !== route.page)
          unneeded.add(`another page (${relative}) in ${pathname}`);
        for (const { pattern, what, usedOn } of onDemandSources) {
          if (pattern.test(relative) && !usedOn?.includes(route.path)) unneeded.add(`${what} in ${pathname}`);
        }
      }
    }
    const total = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
    return { jsGzipKb: total / 1024, scripts, unneededSources: [...unneeded] };
  } finally {
    await browser.close();
  }
}

async function runLighthouse(route: Route, cookie: string) {
  const loadAverage = os.loadavg()[0]!;
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    // The session goes into the browser's cookie jar, as after a sign-in. (Lighthouse's extraHeaders would
    // replace the jar's Cookie header on every request, and the page itself sets a cookie: the time zone's.)
    if (cookie) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      await browser.contexts()[0]!.addCookies(cookiesOf(baseURL, cookie));
      await browser.close();
    }
    const result = await lighthouse(
      `${baseURL}${route.path}`,
      {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance"],
      },
      // Lighthouse's default configuration is the mobile preset (Moto G Power, slow 4G, 4× CPU slowdown).
      undefined,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${route.path}`);
    const { lhr } = result;
    if (lhr.runtimeError)
      throw LighthouseRuntimeError(`Lighthouse on ${route.path}: ${lhr.runtimeError.message}`);
    const landed = new URL(lhr.finalDisplayedUrl).pathname;
    if (landed !== route.path) throw new Error(`Lighthouse: ${route.path} landed on ${landed}`);
    // BUDGET_LHR_DIR=<folder> keeps each run's whole report, to see where a figure comes from.
    if (process.env.BUDGET_LHR_DIR) {
      await mkdir(process.env.BUDGET_LHR_DIR, { recursive: true });
      const name = `${route.path.slice(1) || "root"}-${Date.now()}.json`;
      await writeFile(path.join(process.env.BUDGET_LHR_DIR, name), JSON.stringify(lhr));
    }
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpSeconds: (lhr.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN) / 1000,
      fcpSeconds: (lhr.audits["first-contentful-paint"]?.numericValue ?? Number.NaN) / 1000,
      tbtMs: lhr.audits["total-blocking-time"]?.numericValue ?? Number.NaN,
      loadAverage,
    };
  } finally {
    chrome.kill();
  }
}
