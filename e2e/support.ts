import { readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { decodeMail } from "#server/test/smtp.ts";
import type { NotificationPage } from "#shared/notifications/notification.schemas.ts";
import { appReadyKey } from "#shared/theme/theme-script.ts";
import { e2eSettings } from "./settings.mjs";

export const settings = e2eSettings();
export const password = "a long password";

/** A name unique to this run, so journeys never collide on the shared e2e database. */
export const unique = (label: string) =>
  `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A slow phone: every script of the app reaches this page `ms` after it was asked for (the HTML at once). */
export const delayCode = (page: Page, ms: number) =>
  page.route("**/assets/*.js", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });

/** Whether the app has taken the page over yet (it says so on `document`, as the head script asks). */
export const isAppReady = (page: Page) =>
  page.evaluate((key) => (document as unknown as Record<string, unknown>)[key] === true, appReadyKey);

/** Opens a page drawn by the server and waits until the app has taken it over (decision 065). */
export async function openAppPage(page: Page, path: string) {
  await page.goto(path);
  await expect.poll(() => isAppReady(page), { timeout: 30_000 }).toBe(true);
}

/** Opens a page and waits until its live stream answered, so what follows is pushed, not polled. */
export async function openWithLiveStream(page: Page, path: string) {
  const stream = page.waitForResponse((response) => response.url().includes("/api/notifications/stream"));
  await page.goto(path);
  expect((await stream).status()).toBe(200);
}

/** The messages of a person's notifications, newest first, as the API gives them to their own browser. */
export async function notificationMessages(page: Page) {
  const response = await page.request.get("/api/notifications?limit=50");
  expect(response.status()).toBe(200);
  return ((await response.json()) as NotificationPage).items.map((item) => item.message);
}

/**
 * The screen for a person to look at, light and dark at each width (1280 and 375 px unless told), in
 * e2e/.artifacts/screens/<name>-<theme>-<width>.png; the whole page, or its top when `fullPage` is false.
 * The page is left as it was: light, at its size before.
 */
export async function screens(
  page: Page,
  name: string,
  { widths = [1280, 375], fullPage = true }: { widths?: number[]; fullPage?: boolean } = {},
) {
  const before = page.viewportSize();
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const width of widths) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      if (!fullPage) await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `e2e/.artifacts/screens/${name}-${theme}-${width}.png`, fullPage });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  if (before) await page.setViewportSize(before);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * axe's WCAG 2.1 A and AA violations on the page as it is now, one line each ("rule: help at target"),
 * and whether anything is wider than the window (a soft failure named by `what`). axe is evaluated in the
 * page from node_modules, since the app's CSP would refuse a script tag.
 */
export async function axeViolations(page: Page, what: string): Promise<string[]> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect.soft(overflow, `${what} is wider than the window by`).toBeLessThanOrEqual(0);
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } }).axe;
    const result = (await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    })) as { violations: { id: string; help: string; nodes: { target: string[] }[] }[] };
    return result.violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id}: ${v.help} at ${n.target.join(" ")}`),
    );
  });
  return violations.map((line) => `${what}: ${line}`);
}

/**
 * A toast with this text. Successes and information are statuses (read politely), errors alerts (read at
 * once), decision 036; a journey that cares which asks for the role itself.
 */
export const toast = (page: Page, text: string) =>
  page.getByRole("status").or(page.getByRole("alert")).filter({ hasText: text });

export async function signUp(page: Page, name: string, email: string, role: "User" | "Technician") {
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Role").selectOption({ label: role });
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Registration was a success")).toBeVisible();
}

export async function signIn(page: Page, email: string, secret = password) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(secret);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

export async function signOut(page: Page) {
  await page.getByRole("link", { name: "Profile" }).click();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Sign In", exact: true }).first()).toBeVisible();
}

/** Creates an administrator through the real /api/admin-signup with the e2e server's key. */
export async function createAdmin(page: Page, name: string, email: string) {
  const response = await page.request.post("/api/admin-signup", {
    data: { name, email, password, adminKey: settings.adminKey },
  });
  expect(response.status()).toBe(201);
}

/**
 * Sets who the next "Sign in with Contoso" (the loopback OIDC provider) signs in as, and the groups its
 * `groups` claim names (none given: no such claim).
 */
export async function setOidcPerson(person: { sub: string; email: string; name: string; groups?: string[] }) {
  const response = await fetch(`http://127.0.0.1:${settings.controlPort}/oidc-person`, {
    method: "POST",
    body: JSON.stringify(person),
  });
  expect(response.status).toBe(204);
}

/** The newest mail the server wrote to DATA_DIR/outbox for this address (no SMTP_URL in e2e). */
export async function latestMailTo(email: string): Promise<string> {
  const outbox = path.join(settings.dataDir, "outbox");
  for (let attempt = 0; attempt < 50; attempt++) {
    const files = (await readdir(outbox).catch(() => [] as string[])).sort().reverse();
    for (const file of files) {
      const raw = await readFile(path.join(outbox, file), "utf8");
      if (raw.includes(`To: ${email}`)) {
        return decodeMail(raw);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${email} in ${outbox}`);
}

/** Asks the e2e server's app process (over the control port) to do something only journeys may. */
async function controlApp(pathName: string, body: object = {}) {
  const response = await fetch(`http://127.0.0.1:${settings.controlPort}${pathName}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return answer as unknown;
}

/**
 * Moves the server's clock forward (system time + an offset, so sessions keep working). The offset only
 * grows during a run: journeys after this one see a server ahead of real time.
 */
export async function advanceServerClock(ms: number) {
  return (await controlApp("/clock/advance", { ms })) as { now: string; offsetMs: number };
}

/**
 * Runs the scheduled jobs that are due at the server's clock now (the timer is off in e2e); answers the
 * names that ran. A job runs at most once per interval (escalation: 1 minute of the server's clock), so
 * advance the clock past it before running the jobs again.
 */
export async function runDueJobs() {
  return ((await controlApp("/jobs/tick")) as { ran: string[] }).ran;
}

/** Sets a ticket's warning and due times directly, in ms from the server's clock now (until the SLA policy computes them). */
export async function setTicketDueTimes(
  ticketId: string,
  targets: {
    firstResponse?: { warnInMs?: number; dueInMs?: number };
    resolution?: { warnInMs?: number; dueInMs?: number };
  },
) {
  await controlApp("/tickets/due-times", { ticketId, ...targets });
}

/**
 * Pastes a freshly drawn 640×400 PNG showing `caption` into the element, as a screenshot tool's clipboard
 * would hold it.
 */
export async function pasteScreenshot(page: Page, selector: string, caption = "Error 0x80070005") {
  await page.evaluate(
    async ({ target, caption }) => {
      const canvas = document.createElement("canvas");
      canvas.width = 640;
      canvas.height = 400;
      const context = canvas.getContext("2d")!;
      context.fillStyle = "#4f46e5";
      context.fillRect(0, 0, 640, 400);
      context.fillStyle = "#fff";
      context.font = "48px sans-serif";
      context.fillText(caption, 40, 200);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/png"));
      const data = new DataTransfer();
      data.items.add(new File([blob], "image.png", { type: "image/png" }));
      const element = document.querySelector(target)!;
      element.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    },
    { target: selector, caption },
  );
}
