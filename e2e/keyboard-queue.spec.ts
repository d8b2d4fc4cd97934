import { expect, type Page, test } from "@playwright/test";
import { unique } from "./support.ts";
import { createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 016: the queue driven by keyboard alone. After signing in, the technician never clicks:
// page.keyboard only, and after each action focus is somewhere sensible.

const statusOf = (page: Page) => page.locator("[data-ticket-status]");
const row = (page: Page, title: string) => page.getByRole("link", { name: new RegExp(title) });

test("a technician works the queue by keyboard alone: move, open, assign, comment, resolve, back, help, palette", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Uma", "User");
  const run = unique("kb");
  const older = `Scanner offline ${run}`;
  const middle = `Printer jams ${run}`;
  const newest = `VPN drops ${run}`;
  const olderId = await createTicketThroughApi(user.page, { title: older });
  await createTicketThroughApi(user.page, { title: middle });
  await createTicketThroughApi(user.page, { title: newest });

  const tech = await signUpInNewBrowser(browser, "Kira", "Technician");
  const { page } = tech;
  await expect(row(page, newest)).toBeVisible();
  const { keyboard } = page;

  // Move through the queue: newest first.
  await keyboard.press("j");
  await expect(row(page, newest)).toBeFocused();
  await keyboard.press("j");
  await expect(row(page, middle)).toBeFocused();
  await keyboard.press("j");
  await keyboard.press("k");
  await expect(row(page, middle)).toBeFocused();
  await page.screenshot({ path: "e2e/.artifacts/screens/keyboard-queue-selection-1280.png" });

  // Open it: the title has focus.
  await keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: middle })).toBeFocused();

  // a: Assign to Me, with the button's toast; focus on the new status.
  await keyboard.press("a");
  await expect(page.getByText("Ticket assigned successfully")).toBeVisible();
  await expect(statusOf(page)).toHaveText("Status: In Progress");
  await expect(statusOf(page)).toBeFocused();

  // c: the comment box; write, then Ctrl+Enter sends. Focus lands on the new comment.
  await keyboard.press("c");
  const comments = page.getByRole("region", { name: /Comments/ });
  await expect(comments.getByRole("combobox", { name: "Add a comment" })).toBeFocused();
  const reply = "Restarted the print spooler; try again please.";
  await keyboard.type(reply);
  await keyboard.press("Control+Enter");
  await expect(page.getByText("Comment added successfully")).toBeVisible();
  await expect(comments.getByRole("listitem").filter({ hasText: reply })).toBeFocused();

  // r: Resolved, with the buttons' toast; focus on the new status.
  await keyboard.press("r");
  await expect(page.getByText("Ticket status updated to Resolved")).toBeVisible();
  await expect(statusOf(page)).toHaveText("Status: Resolved");
  await expect(statusOf(page)).toBeFocused();
  await page.screenshot({ path: "e2e/.artifacts/screens/keyboard-queue-resolved-1280.png" });

  // u: back to the queue, with the same row selected again.
  await keyboard.press("u");
  await expect(page).toHaveURL(/\/technician-home$/);
  await expect(row(page, middle)).toBeFocused();

  // ?: the help dialog; Escape closes it and focus goes back to the row.
  await keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help.getByText("Assign to Me (technicians, Open and unassigned tickets)")).toBeVisible();
  await keyboard.press("Escape");
  await expect(help).toHaveCount(0);
  await expect(row(page, middle)).toBeFocused();

  // Ctrl+K: jump to a ticket by its id.
  await keyboard.press("Control+k");
  const palette = page.getByRole("dialog", { name: "Search" });
  const box = palette.getByRole("combobox", { name: "Search tickets and people" });
  await expect(box).toBeFocused();
  await keyboard.type(olderId);
  await expect(palette.getByRole("option", { name: new RegExp(older) })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/tickets/${olderId}$`));
  await expect(page.getByRole("heading", { level: 1, name: older })).toBeFocused();

  await user.close();
  await tech.close();
});

test("the palette and the shortcut help at 1280 and 375 px, the palette opened from the header button", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Ursula", "User");
  const run = unique("pal");
  await createTicketThroughApi(user.page, { title: `Docking station ${run}` });
  await createTicketThroughApi(user.page, { title: `Docking screen flickers ${run}` });
  const tech = await signUpInNewBrowser(browser, "Pia", "Technician");
  const { page } = tech;

  for (const size of [
    { width: 1280, height: 800 },
    { width: 375, height: 667 },
  ]) {
    await page.setViewportSize(size);
    await page.goto("/technician-home");
    await page.getByRole("button", { name: "Search tickets and people" }).click();
    const palette = page.getByRole("dialog", { name: "Search" });
    await palette.getByRole("combobox").fill(`docking ${run}`);
    await expect(palette.getByRole("option")).toHaveCount(2);
    await expect(palette.getByRole("status")).toHaveText("2 tickets");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await page.screenshot({ path: `e2e/.artifacts/screens/command-palette-${size.width}.png` });
    // Tapping a result opens it, on a phone too.
    await palette.getByRole("option", { name: new RegExp(`Docking station ${run}`) }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Docking station ${run}` })).toBeVisible();

    await page.keyboard.press("?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    await page.screenshot({ path: `e2e/.artifacts/screens/keyboard-help-${size.width}.png` });
    await page.keyboard.press("Escape");
  }

  await user.close();
  await tech.close();
});

test("a pressed on a ticket that is still loading is held, and assigns it once it is there", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Ulf", "User");
  const title = `Headset crackles ${unique("held")}`;
  const ticketId = await createTicketThroughApi(user.page, { title });
  const tech = await signUpInNewBrowser(browser, "Hana", "Technician");
  const { page } = tech;
  // A slow connection: the ticket's answer comes 1.5 s after it was asked for.
  await page.route(`**/api/tickets/${ticketId}`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await row(page, title).click();
  await expect(page.getByText("Loading ticket")).toBeAttached();
  await page.keyboard.press("a");

  await expect(page.getByText("Ticket assigned successfully")).toBeVisible();
  await expect(statusOf(page)).toHaveText("Status: In Progress");
  await expect(statusOf(page)).toBeFocused();
  await user.close();
  await tech.close();
});
