import { createRequire } from "node:module";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { createAdmin, settings, signIn, signUp, unique } from "./support.ts";
import { createTicketThroughApi } from "./ticket-support.ts";

// Issue 13 item 4, decision 036: axe-core (WCAG 2.1 A and AA rules) on every route of src/client/app/router.tsx
// for each role, at a desktop and a phone width; one page per route per role. axe is injected from
// node_modules (no @axe-core/playwright): the same engine, without a dependency.
const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const wcagTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const widths = [1280, 375];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Opens the route, waits for its h1 and for its data (no spinner left), and answers axe's violations as lines. */
async function audit(page: Page, route: string, width: number): Promise<string[]> {
  await page.setViewportSize({ width, height: width > 600 ? 900 : 800 });
  await page.goto(route);
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.locator("main .animate-spin")).toHaveCount(0);
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
        `${route} @${width}px: ${violation.id} (${violation.impact}) ${violation.help}\n    at ${node.target.join(" ")}\n    ${(node.failureSummary ?? "").replaceAll("\n", "\n    ")}`,
    ),
  );
}

async function auditAll(page: Page, routes: string[]) {
  const found: string[] = [];
  for (const width of widths) {
    for (const route of routes) found.push(...(await audit(page, route, width)));
  }
  expect(found, `axe violations:\n${found.join("\n")}`).toEqual([]);
}

async function newPage(browser: Browser) {
  // The app's CSP (script-src 'self') refuses the injected axe; bypassing it changes nothing axe checks.
  const context = await browser.newContext({ baseURL: settings.baseURL, bypassCSP: true });
  return context.newPage();
}

test("the signed-out pages have no axe violations", async ({ browser }) => {
  const page = await newPage(browser);
  await auditAll(page, [
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

test("a user's pages have no axe violations", async ({ browser }) => {
  const page = await newPage(browser);
  await signUp(page, `Una ${unique("a11y")}`, `${unique("una")}@example.test`, "User");
  await expect(page).toHaveURL(/\/user-home$/);
  const ticketId = await createTicketThroughApi(page, { title: "The printer on floor 2 jams" });
  await auditAll(page, [
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

test("a technician's pages have no axe violations", async ({ browser }) => {
  const user = await newPage(browser);
  await signUp(user, `Ugo ${unique("a11y")}`, `${unique("ugo")}@example.test`, "User");
  const ticketId = await createTicketThroughApi(user, { title: "Wi-Fi drops every hour" });
  const page = await newPage(browser);
  await signUp(page, `Tess ${unique("a11y")}`, `${unique("tess")}@example.test`, "Technician");
  await expect(page).toHaveURL(/\/technician-home$/);
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
  await auditAll(page, [
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
    "/reports",
    "/profile",
  ]);
});

test("an administrator's pages have no axe violations", async ({ browser }) => {
  const page = await newPage(browser);
  const email = `${unique("ada")}@example.test`;
  await createAdmin(page, `Ada ${unique("a11y")}`, email);
  await page.context().clearCookies();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/admin-home$/);
  const ticketId = await createTicketThroughApi(page, { title: "The projector in room 4 is dim" });
  await auditAll(page, [
    "/admin-home",
    "/admin/settings",
    "/admin/user-management",
    "/user-home",
    "/tickets",
    `/tickets/${ticketId}`,
    "/notifications",
    "/kb",
    "/canned-responses",
    "/reports",
    "/profile",
  ]);
});

test("the skip link is the first Tab stop and moves focus to the page; a new page's heading takes focus", async ({
  browser,
}) => {
  const page = await newPage(browser);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
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
