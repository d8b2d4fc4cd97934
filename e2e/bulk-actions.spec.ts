import { expect, type Page, test } from "@playwright/test";
import { isAppReady, unique } from "./support.ts";
import { adminInNewBrowser, createTicketThroughApi } from "./ticket-support.ts";

// Decision 015: staff tick several tickets and change their status in one step; the answer says how
// many changed and why the others did not, and the list agrees. Done on a phone-sized screen, where the
// checkboxes must still work, and photographed at both widths.

const row = (page: Page, title: string) => page.getByRole("listitem").filter({ hasText: title });

test("an admin resolves several tickets in one step; a Closed one is refused and says why", async ({
  browser,
}) => {
  const admin = await adminInNewBrowser(browser, "Ada");
  const marker = unique("bulk");
  const titles = [`VPN drops ${marker}`, `Mail slow ${marker}`, `Old printer ${marker}`];
  const ids: string[] = [];
  for (const title of titles) ids.push(await createTicketThroughApi(admin.page, { title }));
  const closed = await admin.page.request.patch(`/api/tickets/${ids[2]}/status`, {
    data: { status: "Closed" },
  });
  expect(closed.status()).toBe(200);

  const { page } = admin;
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto(`/tickets?q=${marker}`);
  // Bulk actions are the app's (the list drawn by the server works without them): once it has the page.
  await expect.poll(() => isAppReady(page)).toBe(true);
  await expect(page.getByRole("checkbox", { name: /^Select TKT/ })).toHaveCount(3);
  await page.getByRole("checkbox", { name: "Select all" }).check();
  await expect(page.getByText("3 selected")).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/screens/bulk-actions-375.png", fullPage: true });
  await page.getByLabel("Action for the selected tickets").selectOption({ label: "Set status: Resolved" });
  await page.getByRole("button", { name: "Apply" }).click();

  const outcome = page.getByRole("status").filter({ hasText: "changed" });
  await expect(outcome).toContainText("2 tickets changed; 1 not:");
  await expect(outcome).toContainText(`${ids[2]}: This ticket is closed; its status can no longer change.`);
  await expect(outcome).toBeFocused();
  await expect(page.getByText("0 selected")).toBeVisible();
  // The list, read again from the server, agrees with the answer.
  await expect(row(page, titles[0]!).getByText("Resolved")).toBeVisible();
  await expect(row(page, titles[1]!).getByText("Resolved")).toBeVisible();
  await expect(row(page, titles[2]!).getByText("Closed")).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/screens/bulk-actions-result-375.png", fullPage: true });

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("checkbox", { name: new RegExp(`Select ${ids[0]}`) }).check();
  await page.screenshot({ path: "e2e/.artifacts/screens/bulk-actions-1280.png", fullPage: true });
  await admin.close();
});
