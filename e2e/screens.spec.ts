import { type Browser, expect, type Page, test } from "@playwright/test";
import {
  advanceServerClock,
  runDueJobs,
  setOidcPerson,
  setTicketDueTimes,
  settings,
  unique,
} from "./support.ts";
import {
  adminInNewBrowser,
  createTicketThroughApi,
  type Person,
  signUpInNewBrowser,
} from "./ticket-support.ts";

// Every screen works at 375 px and 1280 px wide and by keyboard alone. Each screen is
// photographed at both widths into e2e/.artifacts/screens/ (for a person to look at) and checked for what
// a person would notice: a page wider than the phone, a control a screen reader cannot name, a script error.

const widths = [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
] as const;

/** Script errors; Chromium's own lines about refused requests (401 signed out, 400 bad token) are not. */
function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      errors.push(message.text());
    }
  });
  return errors;
}

/**
 * Controls with no accessible name, described so a failure says which. A small stand-in for the
 * accessible-name algorithm: aria-labelledby, aria-label, <label>, the text inside a button, title.
 */
function unnamedControls() {
  const textOf = (element: Element | null) => (element?.textContent ?? "").trim();
  const nameOf = (element: HTMLElement) => {
    const labelledBy = element.getAttribute("aria-labelledby");
    const byIds = labelledBy
      ? labelledBy
          .split(/\s+/)
          .map((id) => textOf(document.getElementById(id)))
          .join(" ")
          .trim()
      : "";
    const labels =
      element instanceof HTMLInputElement ||
      element instanceof HTMLSelectElement ||
      element instanceof HTMLTextAreaElement
        ? [...(element.labels ?? [])].map(textOf).join(" ").trim()
        : "";
    const ownText = element instanceof HTMLButtonElement ? textOf(element) : "";
    return byIds || element.getAttribute("aria-label")?.trim() || labels || ownText || element.title.trim();
  };
  return [...document.querySelectorAll<HTMLElement>("input:not([type=hidden]), select, textarea, button")]
    .filter((element) => element.getClientRects().length > 0 && !nameOf(element))
    .map((element) => element.outerHTML.slice(0, 160));
}

/** Text shortened with an ellipsis (one line or clamped lines) that does not fit: the rest is never seen. */
function cutOffText() {
  return [...document.querySelectorAll<HTMLElement>("body *")]
    .filter((element) => {
      const style = getComputedStyle(element);
      const clamped = style.webkitLineClamp !== "none" && element.scrollHeight > element.clientHeight;
      return (style.textOverflow === "ellipsis" && element.scrollWidth > element.clientWidth) || clamped;
    })
    .map((element) => element.textContent?.trim().slice(0, 80));
}

/** Boxes (not form fields) whose content is wider than they are, so part of it needs scrolling sideways. */
function sidewaysScrollers() {
  return [...document.querySelectorAll<HTMLElement>("body *")]
    .filter((element) => {
      if (element.matches("input, textarea, select")) return false;
      const { overflowX } = getComputedStyle(element);
      return (
        (overflowX === "auto" || overflowX === "scroll") && element.scrollWidth > element.clientWidth + 1
      );
    })
    .map((element) => element.outerHTML.slice(0, 120));
}

/** Photographs the open screen at both widths and checks it at each. */
async function checkScreen(page: Page, name: string, errors: string[]) {
  for (const size of widths) {
    await page.setViewportSize(size);
    await expect(page.locator(".animate-spin")).toHaveCount(0);
    // Toasts and dialogs animate in: let them settle so the picture shows what a person sees.
    await page.waitForTimeout(300);
    await page.screenshot({ path: `e2e/.artifacts/screens/${name}-${size.width}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect.soft(overflow, `${name} at ${size.width} px is wider than the window by`).toBeLessThanOrEqual(0);
    expect.soft(await page.evaluate(unnamedControls), `${name}: controls without a name`).toEqual([]);
    expect.soft(await page.evaluate(cutOffText), `${name} at ${size.width} px: text cut off`).toEqual([]);
    if (size.width === 1280) {
      // On a phone a wide table may scroll inside its box; on a desktop nothing should hide sideways.
      expect.soft(await page.evaluate(sidewaysScrollers), `${name}: boxes that scroll sideways`).toEqual([]);
    }
  }
  expect.soft(errors, `${name}: script errors`).toEqual([]);
  errors.length = 0;
  await page.setViewportSize(widths[0]);
}

async function visit(page: Page, errors: string[], name: string, path: string, heading: string | RegExp) {
  await page.setViewportSize(widths[0]);
  await page.goto(path);
  await expect(page.getByRole("heading", { name: heading }).first()).toBeVisible();
  await checkScreen(page, name, errors);
}

async function signedOut(browser: Browser) {
  const context = await browser.newContext({ baseURL: settings.baseURL });
  return { page: await context.newPage(), close: () => context.close() };
}

/** The focused element shows it: an outline or a ring (box-shadow) that is not "none". */
async function expectVisibleFocus(page: Page, { mayBeOnBody = false } = {}) {
  const focus = await page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    return {
      element: element.outerHTML.slice(0, 120),
      outline: style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0,
      ring: style.boxShadow !== "none",
    };
  });
  if (focus === null && mayBeOnBody) return;
  expect(focus, "something has focus").not.toBeNull();
  expect(focus!.outline || focus!.ring, `focus is visible on ${focus!.element}`).toBe(true);
}

/** Presses Tab until the focused element matches, checking each stop shows its focus. */
async function tabTo(page: Page, matches: (page: Page) => Promise<boolean>, limit = 40) {
  for (let press = 0; press < limit; press++) {
    await page.keyboard.press("Tab");
    // Tab past the last control leaves the page for a moment before it wraps round to the first.
    await expectVisibleFocus(page, { mayBeOnBody: true });
    if (await matches(page)) return;
  }
  throw new Error("never reached the control by Tab");
}

const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return (element?.getAttribute("aria-label") ?? element?.textContent ?? "").trim();
  });
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return element instanceof HTMLInputElement ||
      element instanceof HTMLSelectElement ||
      element instanceof HTMLTextAreaElement
      ? [...(element.labels ?? [])].map((label) => label.textContent?.trim()).join(" ")
      : "";
  });

test.describe.configure({ timeout: 300_000 });

test("every screen at 1280 px and 375 px: no overflow, every control named, no script errors", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Ursula", "User");
  const tech = await signUpInNewBrowser(browser, "Tomas", "Technician");
  const admin = await adminInNewBrowser(browser, "Ada");
  const ticketId = await createTicketThroughApi(user.page, {
    title: "The printer on the third floor prints only blank pages since Monday",
    description: "Every job comes out blank. Toner was replaced last week.",
    department: "Finance",
    floor: "3",
  });
  const comment = await user.page.request.post(`/api/tickets/${ticketId}/comments`, {
    data: { message: "It also happens with the colour printer next to it." },
  });
  expect(comment.status()).toBe(201);
  // The escalation job told staff that the first response is overdue and the resolution due soon
  // (decision 020): the technician's ticket page and notifications show it; the user's show nothing of it.
  const minute = 60_000;
  await setTicketDueTimes(ticketId, {
    firstResponse: { warnInMs: -20 * minute, dueInMs: -minute },
    resolution: { warnInMs: -minute, dueInMs: 3 * 60 * minute },
  });
  await advanceServerClock(2 * minute);
  expect(await runDueJobs()).toContain("sla-escalation");

  const anon = await signedOut(browser);
  const anonErrors = collectErrors(anon.page);
  await visit(anon.page, anonErrors, "root", "/", "Sign In");
  await visit(anon.page, anonErrors, "sign-in", "/sign-in", "Sign In");
  await visit(anon.page, anonErrors, "sign-up", "/sign-up", "Create Account");
  await visit(anon.page, anonErrors, "forgot-password", "/forgot-password", "Forgot Password");
  await visit(anon.page, anonErrors, "reset-password", "/reset-password?token=x", "Set a new password");
  await visit(anon.page, anonErrors, "admin-signup", "/admin-signup", "Admin Registration");
  await visit(anon.page, anonErrors, "unsubscribe", "/unsubscribe?token=x", "Unsubscribe");
  await visit(anon.page, anonErrors, "demo-user-management", "/demo/user-management", "User Management Demo");
  await anon.page.getByRole("button", { name: "Add User" }).click();
  await expect(anon.page.getByRole("dialog")).toBeVisible();
  await checkScreen(anon.page, "demo-user-management-dialog", anonErrors);
  await visit(anon.page, anonErrors, "knowledge-base", "/Knowledge-base", "Knowledge Base");
  await visit(anon.page, anonErrors, "not-found", "/no-such-page", "Page not found");
  // The mobile menu, open, signed out.
  await anon.page.setViewportSize(widths[1]);
  await anon.page.getByRole("button", { name: "Toggle menu" }).click();
  await expect(anon.page.getByRole("navigation", { name: "Mobile" })).toBeVisible();
  await anon.page.screenshot({
    path: "e2e/.artifacts/screens/mobile-menu-signed-out-375.png",
    fullPage: true,
  });

  // A person signed in by OpenID Connect who has no role yet.
  const id = unique("olga");
  await setOidcPerson({ sub: id, email: `${id}@org.test`, name: "Olga Oidc" });
  const oidc = await signedOut(browser);
  const oidcErrors = collectErrors(oidc.page);
  await oidc.page.goto("/sign-in");
  await oidc.page.getByRole("button", { name: "Sign in with Contoso" }).click();
  await expect(oidc.page).toHaveURL(/\/role-selection$/);
  await visit(oidc.page, oidcErrors, "role-selection", "/role-selection", "Choose Your Role");
  await oidc.close();

  const userErrors = collectErrors(user.page);
  await visit(user.page, userErrors, "user-home", "/user-home", "My Dashboard");
  await user.page
    .getByRole("button", { name: /Create/ })
    .first()
    .click();
  await expect(user.page.getByRole("region", { name: "Create New Ticket" })).toBeVisible();
  await checkScreen(user.page, "user-home-create-ticket", userErrors);
  await visit(user.page, userErrors, "tickets-user", "/tickets", /Tickets/);
  await visit(user.page, userErrors, "ticket-user", `/tickets/${ticketId}`, /printer/);
  await visit(user.page, userErrors, "profile", "/profile", "My Profile");
  await user.page.getByRole("button", { name: "New token" }).click();
  await expect(user.page.getByRole("dialog", { name: "New API token" })).toBeVisible();
  await checkScreen(user.page, "profile-new-api-token-dialog", userErrors);
  await user.page.keyboard.press("Escape");
  await visit(user.page, userErrors, "notifications", "/notifications", "Notifications");
  await visit(user.page, userErrors, "knowledge-base-signed-in", "/Knowledge-base", "Knowledge Base");
  await visit(user.page, userErrors, "test-notifications", "/test-notifications", "Test Notifications");
  await visit(user.page, userErrors, "debug-notifications", "/debug-notifications", "Debug Notifications");
  await visit(user.page, userErrors, "user-management-denied", "/admin/user-management", "Access denied");
  await user.page.getByRole("button", { name: /^Open notifications/ }).click();
  await expect(user.page.getByRole("region", { name: "Notifications", exact: true })).toBeVisible();
  await checkScreen(user.page, "bell-dropdown", userErrors);

  const techErrors = collectErrors(tech.page);
  await visit(tech.page, techErrors, "technician-home", "/technician-home", "Technician Dashboard");
  await visit(tech.page, techErrors, "tickets-technician", "/tickets", /Tickets/);
  await visit(tech.page, techErrors, "ticket-technician", `/tickets/${ticketId}`, /printer/);
  await visit(tech.page, techErrors, "notifications-technician", "/notifications", "Notifications");
  await visit(tech.page, techErrors, "canned-responses", "/canned-responses", "Canned Responses");
  await tech.page.getByRole("button", { name: "New response" }).click();
  await expect(tech.page.getByRole("dialog", { name: "New personal response" })).toBeVisible();
  await checkScreen(tech.page, "canned-responses-new-dialog", techErrors);
  await tech.page.keyboard.press("Escape");
  await tech.page.goto(`/tickets/${ticketId}`);
  await tech.page.getByRole("button", { name: /Insert response/ }).click();
  await expect(tech.page.getByRole("combobox", { name: "Search canned responses" })).toBeFocused();
  await checkScreen(tech.page, "ticket-technician-picker", techErrors);
  await visit(tech.page, techErrors, "reports-technician", "/reports", "Reports");

  const adminErrors = collectErrors(admin.page);
  for (const tab of ["overview", "tickets", "users"]) {
    await visit(admin.page, adminErrors, `admin-home-${tab}`, `/admin-home?tab=${tab}`, "Admin Dashboard");
  }
  await visit(admin.page, adminErrors, "tickets-admin", "/tickets", /Tickets/);
  await visit(admin.page, adminErrors, "ticket-admin", `/tickets/${ticketId}`, /printer/);
  await visit(
    admin.page,
    adminErrors,
    "canned-responses-shared",
    "/canned-responses?tab=shared",
    "Canned Responses",
  );
  await visit(admin.page, adminErrors, "reports-admin", "/reports?range=90&group=week", "Reports");
  // Admin settings: one screenshot per section (decision 023).
  for (const tab of [
    "service-levels",
    "business-hours",
    "departments",
    "auto-close",
    "on-hold",
    "custom-fields",
    "history",
  ]) {
    await visit(
      admin.page,
      adminErrors,
      `admin-settings-${tab}`,
      `/admin/settings?tab=${tab}`,
      "Admin Settings",
    );
  }
  await visit(admin.page, adminErrors, "admin-teams", "/admin/teams", "Teams");
  await admin.page.getByRole("button", { name: "New team" }).click();
  await expect(admin.page.getByRole("dialog", { name: "New team" })).toBeVisible();
  await checkScreen(admin.page, "admin-teams-new-team-dialog", adminErrors);
  await admin.page.keyboard.press("Escape");
  await visit(admin.page, adminErrors, "admin-user-management", "/admin/user-management", "User Management");
  await admin.page.getByRole("button", { name: "Add user" }).click();
  await expect(admin.page.getByRole("dialog", { name: "Add user" })).toBeVisible();
  await checkScreen(admin.page, "admin-user-management-add-dialog", adminErrors);

  await Promise.all([anon.close(), user.close(), tech.close(), admin.close()]);
});

test("by keyboard alone: sign in, the mobile menu, the bell, a new ticket; focus always visible", async ({
  browser,
}) => {
  const person: Person = await signUpInNewBrowser(browser, "Kim", "User");
  await person.close();
  const { page, close } = await signedOut(browser);
  const errors = collectErrors(page);

  // Sign in without the mouse.
  await page.goto("/sign-in");
  await tabTo(page, async (p) => (await focusedLabel(p)) === "Email");
  await page.keyboard.type(person.email);
  await tabTo(page, async (p) => (await focusedLabel(p)) === "Password");
  await page.keyboard.type("a long password");
  await tabTo(page, async (p) => (await focusedName(p)) === "Sign In");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/user-home$/);
  // As a person would, act once the home is drawn (its page code arrives after the address changes).
  await expect(page.getByRole("heading", { level: 1, name: "My Dashboard" })).toBeVisible();
  await expect(page.locator("main .animate-spin")).toHaveCount(0);

  // At 375 px the mobile menu opens with Enter and leads to Notifications.
  await page.setViewportSize(widths[1]);
  await page.locator("body").focus();
  await tabTo(page, async (p) => (await focusedName(p)) === "Toggle menu");
  await page.keyboard.press("Enter");
  const menu = page.getByRole("navigation", { name: "Mobile" });
  await expect(menu).toBeVisible();
  await tabTo(page, async (p) => (await focusedName(p)) === "Notifications");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(menu).toBeHidden();

  // The bell opens with Enter; Escape closes it and gives focus back to the bell.
  await page.setViewportSize(widths[0]);
  await page.locator("body").focus();
  await tabTo(page, async (p) => (await focusedName(p)).startsWith("Open notifications"));
  await page.keyboard.press("Enter");
  const panel = page.getByRole("region", { name: "Notifications", exact: true });
  await expect(panel).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(page.getByRole("button", { name: /^Open notifications/ })).toBeFocused();

  // A ticket raised by keyboard only.
  await page.goto("/user-home");
  await expect(page.getByRole("heading", { level: 1, name: "My Dashboard" })).toBeVisible();
  await page.locator("body").focus();
  await tabTo(page, async (p) => /Create/.test(await focusedName(p)));
  await page.keyboard.press("Enter");
  const form = page.getByRole("region", { name: "Create New Ticket" });
  await expect(form).toBeVisible();
  const title = `Keyboard-only ticket ${unique("kb")}`;
  await tabTo(page, async (p) => (await focusedLabel(p)).startsWith("Title"));
  await page.keyboard.type(title);
  await tabTo(page, async (p) => (await focusedLabel(p)).startsWith("Description"));
  await page.keyboard.type("Typed without touching the mouse.");
  await tabTo(page, async (p) => (await focusedLabel(p)).startsWith("Office Number"));
  await page.keyboard.type("12");
  await tabTo(page, async (p) => (await focusedName(p)) === "Submit Ticket");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Ticket created successfully!")).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(title) })).toBeVisible();

  expect(errors).toEqual([]);
  await close();
});
