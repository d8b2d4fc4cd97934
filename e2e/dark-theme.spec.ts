import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { settings, signIn } from "./support.ts";
import {
  adminInNewBrowser,
  createTicketThroughApi,
  type Person,
  signUpInNewBrowser,
} from "./ticket-support.ts";

// Decision 035: a dark theme that follows the device, with a choice kept per person,
// readable (WCAG 2.1 AA colour contrast, checked by axe) on the main screens at 1280 and 375 px.

/** The page's background as the person sees it, as [r, g, b] (the browser resolves oklch for us). */
async function pageBackground(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext("2d")!;
    context.fillStyle = getComputedStyle(document.documentElement).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  });
}
const isDark = (rgb: number[]) => Math.max(...rgb) < 60;
const isLight = (rgb: number[]) => Math.min(...rgb) > 230;

/** Refused inline scripts and other CSP reports: the theme script must run under the strict CSP. */
function collectCspViolations(page: Page) {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

async function chooseTheme(page: Page, label: "System" | "Light" | "Dark") {
  await page.goto("/profile");
  const choice = page.getByRole("radio", { name: label });
  // A person clicks the segment (its label); the radio itself is visually hidden.
  await choice.locator("xpath=ancestor::label").click();
  await expect(choice).toBeChecked();
  // The choice is saved on the person (not only in this browser) before we look elsewhere.
  await expect
    .poll(async () => ((await (await page.request.get("/api/me")).json()) as { theme: string }).theme)
    .toBe(label.toLowerCase());
}

test("a person's dark theme applies at once, survives a reload, follows them to another browser, and goes back", async ({
  browser,
}) => {
  const ada = await signUpInNewBrowser(browser, "Ada", "User");
  const cspViolations = collectCspViolations(ada.page);
  expect(isLight(await pageBackground(ada.page))).toBe(true);

  await chooseTheme(ada.page, "Dark");
  expect(isDark(await pageBackground(ada.page))).toBe(true);
  await expect(ada.page.locator("html")).toHaveClass(/\bdark\b/);

  // A reload paints dark from the first frame: the inline script (allowed by its CSP hash) sets the class
  // before the app's code has run.
  await ada.page.reload();
  expect(await ada.page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  expect(isDark(await pageBackground(ada.page))).toBe(true);

  // Another browser, light system setting, nothing stored: signing in brings the person's own choice.
  const context = await browser.newContext({ baseURL: settings.baseURL, colorScheme: "light" });
  const elsewhere = await context.newPage();
  await signIn(elsewhere, ada.email);
  await expect(elsewhere).toHaveURL(/\/user-home$/);
  await expect(elsewhere.locator("html")).toHaveClass(/\bdark\b/);
  expect(isDark(await pageBackground(elsewhere))).toBe(true);

  // And back to light, from the other browser; the first one sees it on its next load.
  await chooseTheme(elsewhere, "Light");
  await expect(elsewhere.locator("html")).not.toHaveClass(/\bdark\b/);
  expect(isLight(await pageBackground(elsewhere))).toBe(true);
  await ada.page.goto("/user-home");
  await expect(ada.page.locator("html")).not.toHaveClass(/\bdark\b/);
  expect(isLight(await pageBackground(ada.page))).toBe(true);

  // The header's quick switch saves the same choice.
  const quickSwitch = ada.page.getByRole("button", { name: "Dark theme" });
  await expect(quickSwitch).toHaveAttribute("aria-pressed", "false");
  await quickSwitch.click();
  await expect(quickSwitch).toHaveAttribute("aria-pressed", "true");
  expect(isDark(await pageBackground(ada.page))).toBe(true);
  await expect
    .poll(async () => ((await (await elsewhere.request.get("/api/me")).json()) as { theme: string }).theme)
    .toBe("dark");
  await quickSwitch.click();
  await expect(quickSwitch).toHaveAttribute("aria-pressed", "false");
  expect(isLight(await pageBackground(ada.page))).toBe(true);

  expect(cspViolations).toEqual([]);
  await context.close();
  await ada.close();
});

test("the sign-in page follows the device's dark setting, and back to light when it changes", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: settings.baseURL, colorScheme: "dark" });
  const page = await context.newPage();
  const cspViolations = collectCspViolations(page);
  await page.goto("/sign-in");
  await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  expect(isDark(await pageBackground(page))).toBe(true);
  await page.emulateMedia({ colorScheme: "light" });
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
  expect(isLight(await pageBackground(page))).toBe(true);
  expect(cspViolations).toEqual([]);
  await context.close();
});

test("the header's switch turns the dark theme on and off on the sign-in page and on a ticket page", async ({
  browser,
}) => {
  // Signed out: this browser keeps the choice (the next visit paints dark from the first frame).
  const context = await browser.newContext({ baseURL: settings.baseURL, colorScheme: "light" });
  const visitor = await context.newPage();
  const cspViolations = collectCspViolations(visitor);
  await visitor.goto("/sign-in");
  const visitorSwitch = visitor.getByRole("button", { name: "Dark theme" });
  await expect(visitorSwitch).toHaveAttribute("aria-pressed", "false");
  await visitorSwitch.click();
  await expect(visitor.locator("html")).toHaveClass(/\bdark\b/);
  await expect(visitorSwitch).toHaveAttribute("aria-pressed", "true");
  expect(isDark(await pageBackground(visitor))).toBe(true);
  await visitor.reload();
  await expect(visitor.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  expect(await visitor.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  await visitor.getByRole("button", { name: "Dark theme" }).click();
  await expect(visitor.locator("html")).not.toHaveClass(/\bdark\b/);
  expect(isLight(await pageBackground(visitor))).toBe(true);
  expect(cspViolations).toEqual([]);
  await context.close();

  // Signed in, on a ticket page: the switch saves the person's choice.
  const { user, ticketId } = await personWithTicket(browser);
  await user.page.goto(`/tickets/${ticketId}`);
  await expect(user.page.getByRole("heading", { name: "Printer on floor 3 jams" })).toBeVisible();
  const personSwitch = user.page.getByRole("button", { name: "Dark theme" });
  await personSwitch.click();
  await expect(user.page.locator("html")).toHaveClass(/\bdark\b/);
  expect(isDark(await pageBackground(user.page))).toBe(true);
  await expect
    .poll(async () => ((await (await user.page.request.get("/api/me")).json()) as { theme: string }).theme)
    .toBe("dark");
  await user.page.reload();
  await expect(user.page.getByRole("heading", { name: "Printer on floor 3 jams" })).toBeVisible();
  await expect(user.page.locator("html")).toHaveClass(/\bdark\b/);
  await user.page.getByRole("button", { name: "Dark theme" }).click();
  await expect(user.page.locator("html")).not.toHaveClass(/\bdark\b/);
  await expect
    .poll(async () => ((await (await user.page.request.get("/api/me")).json()) as { theme: string }).theme)
    .toBe("light");
  await user.close();
});

const widths = [
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
] as const;

/** Photographs a screen in dark at both widths (for a person to look at) and runs axe's colour contrast on it. */
async function checkInDark(page: Page, name: string, path: string, ready: (page: Page) => Promise<void>) {
  await page.emulateMedia({ colorScheme: "dark" });
  const failures: string[] = [];
  for (const size of widths) {
    await page.setViewportSize(size);
    await page.goto(path);
    await ready(page);
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    await page.screenshot({ path: `e2e/.artifacts/screens/dark-${name}-${size.width}.png`, fullPage: true });
    const results = await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze();
    for (const violation of results.violations) {
      for (const node of violation.nodes) {
        failures.push(`${name} @${size.width}: ${node.target.join(" ")}: ${node.failureSummary ?? ""}`);
      }
    }
  }
  return failures;
}

async function personWithTicket(browser: Browser): Promise<{ user: Person; ticketId: string }> {
  const user = await signUpInNewBrowser(browser, "Grace", "User");
  const ticketId = await createTicketThroughApi(user.page, {
    title: "Printer on floor 3 jams",
    description: "Every second page jams in tray 2.",
    priority: "High",
  });
  return { user, ticketId };
}

test("the main screens in dark are photographed and pass axe's colour contrast (WCAG 2.1 AA)", async ({
  browser,
}) => {
  const failures: string[] = [];
  const context = await browser.newContext({ baseURL: settings.baseURL, colorScheme: "dark" });
  const visitor = await context.newPage();
  failures.push(
    ...(await checkInDark(visitor, "sign-in", "/sign-in", async (page) => {
      await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
    })),
  );
  await context.close();

  const { user, ticketId } = await personWithTicket(browser);
  failures.push(
    ...(await checkInDark(user.page, "user-home", "/user-home", async (page) => {
      await expect(page.getByText("Printer on floor 3 jams").first()).toBeVisible();
    })),
    ...(await checkInDark(user.page, "ticket", `/tickets/${ticketId}`, async (page) => {
      await expect(page.getByRole("heading", { name: "Printer on floor 3 jams" })).toBeVisible();
    })),
    ...(await checkInDark(user.page, "profile", "/profile", async (page) => {
      await expect(page.getByRole("radio", { name: "Dark" })).toBeAttached();
    })),
  );
  await user.close();

  const technician = await signUpInNewBrowser(browser, "Linus", "Technician");
  failures.push(
    ...(await checkInDark(technician.page, "technician-home", "/technician-home", async (page) => {
      await expect(page.getByText("Printer on floor 3 jams").first()).toBeVisible();
    })),
  );
  await technician.close();

  const admin = await adminInNewBrowser(browser, "Barbara");
  failures.push(
    ...(await checkInDark(admin.page, "admin-users", "/admin/user-management", async (page) => {
      await expect(page.getByText(technician.name).first()).toBeVisible();
    })),
    ...(await checkInDark(admin.page, "reports", "/reports", async (page) => {
      await expect(page.getByRole("heading", { name: "Reports" })).toBeVisible();
      // The charts drawn (their canvas reads the theme's colours when drawn), not their spinners.
      await expect(page.locator(".uplot canvas").first()).toBeVisible();
      await expect(page.getByRole("button", { name: "Download PNG" }).first()).toBeEnabled();
    })),
  );
  await admin.close();

  expect(failures).toEqual([]);
});
