import { createRequire } from "node:module";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { createAdmin, isAppReady, settings, signIn, signUp, unique } from "./support.ts";
import { createTicketThroughApi } from "./ticket-support.ts";

// Decision 036: axe-core (WCAG 2.1 A and AA rules) on every route of src/client/app/routes.tsx
// for each role, at a desktop and a phone width, in the light and the dark theme (decision 035: the theme
// follows the device, emulated here); one page per route per role. Each screen is photographed into
// e2e/.artifacts/screens/a11y-<role>-<theme>-<route>-<width>.png for a person to look at. axe is injected
// from node_modules: the same engine as @axe-core/playwright, without going through it.
const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const wcagTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
// Each test audits a dozen routes at two widths; on a loaded 2-core machine that takes minutes.
test.describe.configure({ timeout: 300_000 });

const widths = [1280, 375];
const themes = ["light", "dark"] as const;
type Theme = (typeof themes)[number];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** A file name for a route's screenshot: /tickets/TKT… → tickets-id, /kb/<slug>/edit → kb-article-edit. */
function screenName(route: string) {
  const name = route
    .replace(/\?.*$/, "")
    .replace(/^\/tickets\/[^/]+/, "/tickets/id")
    .replace(/^\/kb\/(?!new$|stats$)[^/]+/, "/kb/article")
    .replace(/[^a-zA-Z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return name || "root";
}

/**
 * Opens the route in the theme, waits for its h1 and for its data (no spinner left), photographs it, and
 * answers axe's violations as lines.
 */
async function audit(
  page: Page,
  role: string,
  theme: Theme,
  route: string,
  width: number,
): Promise<string[]> {
  await page.setViewportSize({ width, height: width > 600 ? 900 : 800 });
  await page.emulateMedia({ colorScheme: theme });
  await page.goto(route);
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.locator("main .animate-spin")).toHaveCount(0);
  if (theme === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  else await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
  await page.screenshot({
    path: `e2e/.artifacts/screens/a11y-${role}-${theme}-${screenName(route)}-${width}.png`,
    fullPage: true,
  });
  await page.addScriptTag({ path: axeSource });
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } }).axe;
    const result = (await axe.run(document, { runOnly: { type: "tag", values: tags } })) as {
      violations: Violation[];
    };
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
    }));
  }, wcagTags);
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${route} @${width}px ${theme}: ${violation.id} (${violation.impact}) ${violation.help}\n    at ${node.target.join(" ")}\n    ${(node.failureSummary ?? "").replaceAll("\n", "\n    ")}`,
    ),
  );
}

async function auditAll(page: Page, role: string, theme: Theme, routes: string[]) {
  const found: string[] = [];
  for (const width of widths) {
    for (const route of routes) found.push(...(await audit(page, role, theme, route, width)));
  }
  expect(found, `axe violations:\n${found.join("\n")}`).toEqual([]);
}

async function newPage(browser: Browser) {
  // The app's CSP (script-src 'self') refuses the injected axe; bypassing it changes nothing axe checks.
  const context = await browser.newContext({ baseURL: settings.baseURL, bypassCSP: true });
  return context.newPage();
}

for (const theme of themes) {
  test(`the signed-out pages have no axe violations (${theme} theme)`, async ({ browser }) => {
    const page = await newPage(browser);
    await auditAll(page, "anonymous", theme, [
      "/sign-in",
      "/sign-up",
      "/forgot-password",
      "/reset-password?error=INVALID_TOKEN",
      "/admin-signup",
      "/Knowledge-base",
      "/demo/user-management",
      "/unsubscribe",
      "/no-such-page",
    ]);
  });

  test(`a user's pages have no axe violations (${theme} theme)`, async ({ browser }) => {
    const page = await newPage(browser);
    await signUp(page, `Una ${unique("a11y")}`, `${unique("una")}@example.test`, "User");
    await expect(page).toHaveURL(/\/user-home$/);
    const ticketId = await createTicketThroughApi(page, { title: "The printer on floor 2 jams" });
    await auditAll(page, "user", theme, [
      "/user-home",
      "/tickets",
      `/tickets/${ticketId}`,
      "/notifications",
      "/kb",
      "/Knowledge-base",
      "/profile",
      "/admin/user-management",
      "/test-notifications",
      "/debug-notifications",
    ]);
  });

  test(`a technician's pages have no axe violations (${theme} theme)`, async ({ browser }) => {
    const page = await newPage(browser);
    await signUp(page, `Tess ${unique("a11y")}`, `${unique("tess")}@example.test`, "Technician");
    await expect(page).toHaveURL(/\/technician-home$/);
    // Raised once the technician exists: its new-ticket notification is unread, so every page is audited
    // with the bell's unread badge showing.
    const user = await newPage(browser);
    await signUp(user, `Ugo ${unique("a11y")}`, `${unique("ugo")}@example.test`, "User");
    const ticketId = await createTicketThroughApi(user, { title: "Wi-Fi drops every hour" });
    await expect(page.getByTestId("notification-badge")).toBeVisible();
    const article = await page.request.post("/api/articles", {
      data: {
        title: `Reconnect the VPN ${unique("kb")}`,
        body: "Open the VPN client and choose **Reconnect**.",
        category: "Network",
        status: "published",
      },
    });
    expect(article.status()).toBe(201);
    const { slug } = (await article.json()) as { slug: string };
    await auditAll(page, "technician", theme, [
      "/technician-home",
      "/tickets",
      `/tickets/${ticketId}`,
      "/notifications",
      "/kb",
      `/kb/${slug}`,
      "/kb/new",
      `/kb/${slug}/edit`,
      `/kb/${slug}/history`,
      "/kb/stats",
      "/canned-responses",
      "/macros",
      "/reports",
      "/profile",
    ]);
  });

  test(`an administrator's pages have no axe violations (${theme} theme)`, async ({ browser }) => {
    const page = await newPage(browser);
    const email = `${unique("ada")}@example.test`;
    await createAdmin(page, `Ada ${unique("a11y")}`, email);
    await page.context().clearCookies();
    await signIn(page, email);
    await expect(page).toHaveURL(/\/admin-home$/);
    const ticketId = await createTicketThroughApi(page, { title: "The projector in room 4 is dim" });
    await auditAll(page, "admin", theme, [
      "/admin-home",
      "/admin/settings",
      "/admin/teams",
      "/admin/user-management",
      "/user-home",
      "/tickets",
      `/tickets/${ticketId}`,
      "/notifications",
      "/kb",
      "/canned-responses",
      "/macros",
      "/reports",
      "/profile",
    ]);
  });
}

test("the skip link is the first Tab stop and moves focus to the page; a new page's heading takes focus", async ({
  browser,
}) => {
  const page = await newPage(browser);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The page is drawn at build time and taken over by the app (decision 043): the focus moves below are the
  // app's, so they start once it has the page.
  await expect.poll(() => isAppReady(page), { timeout: 30_000 }).toBe(true);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
  // Tab order follows the page: from <main> the next stop is inside it, not back in the header.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.querySelector("main")?.contains(document.activeElement))).toBe(
    true,
  );

  // A client-side move (the sign-up link) puts focus on the new page's h1, whose text names the page.
  await page.getByRole("link", { name: "Sign up", exact: true }).click();
  await expect(page).toHaveURL(/\/sign-up$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await expect(page).toHaveTitle(/Helpdesk$/);
  expect(await page.title()).not.toBe("Helpdesk");
});

/** Presses Tab from the top of <main> until focus leaves it; answers each stop's name and page box. */
async function tabStopsInMain(page: Page) {
  await page.locator("main").focus();
  const stops: { name: string; x: number; y: number; bottom: number }[] = [];
  for (let i = 0; i < 80; i += 1) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || !document.querySelector("main")?.contains(element)) return null;
      const box = element.getBoundingClientRect();
      const name = (element.getAttribute("aria-label") ?? element.textContent ?? element.tagName).trim();
      const y = box.top + window.scrollY;
      return { name: name.slice(0, 40), x: box.left + window.scrollX, y, bottom: y + box.height };
    });
    if (!stop) break;
    stops.push(stop);
  }
  return stops;
}

test("on a ticket page, Tab follows what is seen: one column on a phone, left column then right on a desktop", async ({
  browser,
}) => {
  const user = await newPage(browser);
  await signUp(user, `Uli ${unique("tab")}`, `${unique("uli")}@example.test`, "User");
  const ticketId = await createTicketThroughApi(user, { title: "The scanner on floor 3 is offline" });
  const page = await newPage(browser);
  await signUp(page, `Theo ${unique("tab")}`, `${unique("theo")}@example.test`, "Technician");

  // Phone: one column, the actions right under the ticket. Each stop is below the last or beside it (on
  // the same line: their boxes overlap vertically), never wholly above it.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/tickets/${ticketId}`);
  await expect(page.getByRole("button", { name: "Assign to Me" })).toBeVisible();
  // The page is drawn by the server, its actions placed by CSS until the app puts them in the DOM where
  // they are seen (decision 065): the Tab order is the app's, once it has the page.
  await expect.poll(() => isAppReady(page)).toBe(true);
  const narrow = await tabStopsInMain(page);
  expect(narrow.map((stop) => stop.name)).toContain("Assign to Me");
  const upwards = narrow.filter((stop, i) => i > 0 && stop.bottom <= narrow[i - 1]!.y);
  expect(upwards, `stops above the one before:\n${JSON.stringify(narrow, null, 1)}`).toEqual([]);
  // The actions come before the comment box, as they are drawn.
  const names = narrow.map((stop) => stop.name);
  expect(names.indexOf("Assign to Me")).toBeLessThan(
    names.findIndex((name) => name.startsWith("Attach files")),
  );

  // Desktop: the left column (ticket, comments) top to bottom, then the right one (actions, facts).
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.reload();
  await expect(page.getByRole("button", { name: "Assign to Me" })).toBeVisible();
  await expect.poll(() => isAppReady(page)).toBe(true);
  const wide = await tabStopsInMain(page);
  const rightColumnAt = (await page.getByRole("button", { name: "Assign to Me" }).boundingBox())!.x - 40;
  const firstRight = wide.findIndex((stop) => stop.x >= rightColumnAt);
  expect(firstRight).toBeGreaterThan(0);
  const left = wide.slice(0, firstRight);
  const right = wide.slice(firstRight);
  expect(right.filter((stop) => stop.x < rightColumnAt)).toEqual([]);
  for (const column of [left, right]) {
    const up = column.filter((stop, i) => i > 0 && stop.bottom <= column[i - 1]!.y);
    expect(up, `stops above the one before:\n${JSON.stringify(wide, null, 1)}`).toEqual([]);
  }
});
