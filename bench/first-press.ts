// How soon a press on /sign-in works on a slow phone: Chromium at 4× CPU slowdown on DevTools' "Fast 3G"
// and "Slow 3G", a fresh browser each run (nothing cached). For each run it prints when the page was first
// painted, when the Sign In button could be pressed (enabled: a press then does something), when the app's
// code had taken the page over, and, for a press made at that moment with a right password, when the home
// was on screen. Run against any running Helpdesk (its own or an older build), so both can be compared:
//
//   BENCH_BASE_URL=http://localhost:3000 npx tsx bench/first-press.ts
//
// It signs up one user through the API first (the instance must allow sign-ups from loopback).
import { type Browser, type CDPSession, chromium, type Page } from "playwright-core";

const baseURL = process.env.BENCH_BASE_URL ?? "http://localhost:3000";
const runs = Number(process.env.BENCH_RUNS ?? 3);

/** DevTools' presets (its network panel): latency in ms, throughput in bytes per second. */
const networks = {
  "fast 3G": {
    latency: 562.5,
    downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
    uploadThroughput: (750 * 1024 * 0.9) / 8,
  },
  "slow 3G": {
    latency: 2000,
    downloadThroughput: (500 * 1024 * 0.8) / 8,
    uploadThroughput: (500 * 1024 * 0.8) / 8,
  },
} as const;

async function slowPhone(page: Page, network: (typeof networks)[keyof typeof networks]): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, ...network });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  return cdp;
}

async function signUp(email: string, password: string) {
  const answer = await fetch(`${baseURL}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: new URL(baseURL).origin },
    body: JSON.stringify({ name: "First Press", email, password, role: "user" }),
  });
  if (!answer.ok) throw new Error(`sign-up failed: ${answer.status} ${await answer.text()}`);
}

interface Run {
  /** From the navigation's start, in ms: first contentful paint, Sign In pressable, the app has the page. */
  firstPaint: number;
  pressable: number;
  appReady: number;
  /** A second load: pressed as soon as it could be, until the home's heading was on screen (wall clock). */
  untilHome: number;
}

/**
 * Watches the sign-in page from its start: when its button can be pressed, when the app has it. A string,
 * not a function: tsx would wrap a function in helpers the page does not have.
 */
const watchSignIn = `(() => {
  const marks = { pressable: 0, appReady: 0 };
  window.benchMarks = marks;
  const timer = setInterval(() => {
    const button = [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Sign In");
    if (!marks.pressable && button && !button.disabled) marks.pressable = performance.now();
    // The app says so (document.helpdeskReady); builds before it: React's container key on the root.
    const ready = document.helpdeskReady === true ||
      Object.keys(document.getElementById("root") || {}).some((key) => key.startsWith("__reactContainer"));
    if (!marks.appReady && ready && button) marks.appReady = performance.now();
    if (marks.pressable && marks.appReady) clearInterval(timer);
  }, 10);
})();`;

async function newPhone(browser: Browser, network: keyof typeof networks) {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 412, height: 823 },
    isMobile: true,
  });
  const page = await context.newPage();
  await slowPhone(page, networks[network]);
  return { page, close: () => context.close() };
}

async function measure(
  browser: Browser,
  network: keyof typeof networks,
  email: string,
  password: string,
): Promise<Run> {
  const watched = await newPhone(browser, network);
  await watched.page.addInitScript(watchSignIn);
  await watched.page.goto("/sign-in", { waitUntil: "commit" });
  await watched.page.waitForFunction(
    () => {
      const marks = (window as unknown as { benchMarks?: { pressable: number; appReady: number } })
        .benchMarks;
      return marks && marks.pressable > 0 && marks.appReady > 0;
    },
    undefined,
    { timeout: 60_000, polling: 100 },
  );
  const seen = await watched.page.evaluate(() => ({
    ...(window as unknown as { benchMarks: { pressable: number; appReady: number } }).benchMarks,
    firstPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
  }));
  await watched.close();

  const pressing = await newPhone(browser, network);
  const started = Date.now();
  await pressing.page.goto("/sign-in", { waitUntil: "commit" });
  await pressing.page.getByLabel("Email").fill(email, { timeout: 60_000 });
  await pressing.page.getByLabel("Password", { exact: true }).fill(password);
  // Pressed as soon as it can be: a disabled button makes this wait, as a person would press again.
  await pressing.page.getByRole("button", { name: "Sign In", exact: true }).click({ timeout: 60_000 });
  await pressing.page.getByRole("heading", { name: "My Dashboard" }).waitFor({ timeout: 60_000 });
  const untilHome = Date.now() - started;
  await pressing.close();
  return { ...seen, untilHome };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const seconds = (ms: number) => (ms / 1000).toFixed(2);

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
    ],
  });
  const password = "a long password for the bench";
  const email = `first-press-${Date.now().toString(36)}@example.test`;
  await signUp(email, password);
  try {
    for (const network of Object.keys(networks) as (keyof typeof networks)[]) {
      const results: Run[] = [];
      for (let run = 0; run < runs; run++) results.push(await measure(browser, network, email, password));
      const of = (key: keyof Run) => median(results.map((result) => result[key]));
      console.log(
        `${network.padEnd(8)} first paint ${seconds(of("firstPaint"))} s · Sign In pressable ${seconds(of("pressable"))} s` +
          ` (${seconds(Math.max(0, of("pressable") - of("firstPaint")))} s after the first paint) · app has the page ${seconds(of("appReady"))} s` +
          ` · pressed at once, home on screen after ${seconds(of("untilHome"))} s   (medians of ${runs})`,
      );
    }
  } finally {
    await browser.close();
  }
}

await main();
