import { expect, type Locator, test } from "@playwright/test";
import { unique } from "./support.ts";
import { adminInNewBrowser, createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// What a new person met on a phone (375 px), checked where it was seen: the admin's user list, the
// ticket filters, the technician's red alert. Each also at 1280 px where a desktop must stay as it was.

const phone = { width: 375, height: 667 };
const desktop = { width: 1280, height: 800 };

/** The element's box lies wholly inside the window, left to right. */
async function expectInsideWindow(element: Locator, what: string) {
  const box = await element.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right edge`).toBeLessThanOrEqual(phone.width);
}

test("the Admin Dashboard's users fit a phone: nothing cut, nothing off to the side", async ({ browser }) => {
  const admin = await adminInNewBrowser(browser, "Ada");
  const { page } = admin;
  await page.setViewportSize(phone);
  await page.goto("/admin-home?tab=users");
  const table = page.getByRole("table");
  await expect(table).toContainText(admin.email);
  await page.screenshot({ path: "e2e/.artifacts/screens/admin-home-users-375.png", fullPage: true });

  const rows = table.locator("tbody tr");
  expect(await rows.count()).toBeGreaterThan(0);
  for (const [index, row] of (await rows.all()).slice(0, 5).entries()) {
    for (const cell of await row.locator("td, td *").all()) {
      await expectInsideWindow(cell, `row ${index + 1}: ${await cell.textContent()}`);
    }
  }
  // No box scrolls sideways to show the rest.
  const scrollsSideways = await table.evaluate((element) => {
    for (let box: Element | null = element; box; box = box.parentElement) {
      if (box.scrollWidth > box.clientWidth + 1) return true;
    }
    return false;
  });
  expect(scrollsSideways).toBe(false);

  // A desktop keeps the table with its column headers.
  await page.setViewportSize(desktop);
  await expect(table.getByRole("columnheader")).toHaveText(["Name", "Email", "Role", "Created"]);
  await admin.close();
});

test("on a phone the ticket filters fold behind Filters (n), and the list starts on the first screen", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Ulla", "User");
  const title = `Phone filters ${unique("ff")}`;
  await createTicketThroughApi(user.page, { title, priority: "High" });
  const tech = await signUpInNewBrowser(browser, "Tarek", "Technician");
  const { page } = tech;
  await page.setViewportSize(phone);
  await page.goto(`/tickets?status=Open&priority=High&q=${encodeURIComponent(title)}`);

  const toggle = page.getByRole("button", { name: "Filters (2)" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByLabel("Status")).toBeHidden();
  await expect(page.getByLabel("Search tickets")).toBeVisible();
  const firstRow = page.getByRole("link", { name: new RegExp(title) });
  await expect(firstRow).toBeVisible();
  const row = await firstRow.boundingBox();
  expect(row!.y + row!.height, "the first ticket's bottom edge").toBeLessThanOrEqual(phone.height);
  await page.screenshot({ path: "e2e/.artifacts/screens/tickets-filters-folded-375.png" });

  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByLabel("Status")).toHaveValue("Open");
  await expect(page.getByLabel("Due")).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/screens/tickets-filters-open-375.png" });
  await toggle.click();
  await expect(page.getByLabel("Status")).toBeHidden();

  // A desktop shows the filters beside the search, as before, and no Filters button.
  await page.setViewportSize(desktop);
  await expect(page.getByRole("button", { name: /^Filters/ })).toBeHidden();
  const search = await page.getByLabel("Search tickets").boundingBox();
  const status = await page.getByLabel("Status").boundingBox();
  expect(status!.y).toBe(search!.y);
  await Promise.all([user.close(), tech.close()]);
});

/** Contrast ratio (WCAG 2.1) of two sRGB colours given as [r, g, b] in 0–255. */
function contrast(a: number[], b: number[]) {
  const luminance = (rgb: number[]) => {
    const [r, g, bl] = rgb.map((value) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

/** An element's text colour and its background, the background's translucent layers laid over the page's. */
const colours = (element: Locator) =>
  element.evaluate((node) => {
    const parse = (value: string) => (value.match(/[\d.]+/g) ?? []).map(Number);
    const layers: number[][] = [];
    for (let box: Element | null = node; box; box = box.parentElement) {
      const [r = 0, g = 0, b = 0, a = 1] = parse(getComputedStyle(box).backgroundColor);
      if (a > 0) layers.unshift([r, g, b, a]);
      if (a === 1) break;
    }
    const background = layers.reduce(
      (under, [r, g, b, a]) => [r!, g!, b!].map((value, i) => value * a! + under[i]! * (1 - a!)),
      [255, 255, 255],
    );
    return { text: parse(getComputedStyle(node).color).slice(0, 3), background };
  });

/** Whether a tap at the middle of `target` reaches it (nothing drawn over it). */
const isTappable = (target: Locator) =>
  target.evaluate((node) => {
    const box = node.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && node.contains(hit);
  });

for (const theme of ["light", "dark"] as const) {
  test(`the technician's red alert on a phone (${theme}): readable, below the header, which stays usable, and closable`, async ({
    browser,
  }) => {
    const tech = await signUpInNewBrowser(browser, "Toni", "Technician");
    const { page } = tech;
    await page.setViewportSize(phone);
    await page.emulateMedia({ colorScheme: theme });
    await page.goto("/test-notifications");
    await page.getByRole("button", { name: "Play technician alert" }).click();
    const alert = page.locator(".toasts--top-center .toast");
    await expect(alert).toContainText("NEW TICKET CREATED - 15 second alert for technician");
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
    await page.screenshot({ path: `e2e/.artifacts/screens/technician-alert-375-${theme}.png` });

    // White on red at WCAG AA for its text (4.5:1), the Silence button's too.
    const text = await colours(alert.getByText("NEW TICKET CREATED - 15 second alert for technician"));
    expect(contrast(text.text, text.background)).toBeGreaterThanOrEqual(4.5);
    const silence = await colours(alert.getByRole("button", { name: "Silence" }));
    expect(contrast(silence.text, silence.background)).toBeGreaterThanOrEqual(4.5);

    // Below the sticky header: the bell and the menu can be pressed meanwhile.
    const header = await page.getByRole("banner").boundingBox();
    const box = await alert.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
    const bell = page.getByRole("button", { name: /^Open notifications/ });
    const menu = page.getByRole("button", { name: "Toggle menu" });
    expect(await isTappable(bell)).toBe(true);
    expect(await isTappable(menu)).toBe(true);
    await menu.click();
    const mobileMenu = page.getByRole("navigation", { name: "Mobile" });
    await expect(mobileMenu).toBeVisible();
    // The open menu is drawn over the alert, not under it.
    expect(await isTappable(mobileMenu.getByRole("link").first())).toBe(true);
    await menu.click();

    // Closable by a target a finger can hit.
    const close = alert.getByRole("button", { name: "close" });
    const closeBox = await close.boundingBox();
    expect(Math.min(closeBox!.width, closeBox!.height)).toBeGreaterThanOrEqual(24);
    await close.click();
    await expect(alert).toHaveCount(0);
    await tech.close();
  });
}
