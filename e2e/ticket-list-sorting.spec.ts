import { expect, test } from "@playwright/test";
import { isAppReady, unique } from "./support.ts";
import { createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 034: a technician orders the queue by priority (the order is kept in the address), sees who
// raised each ticket and from where, and how many match; on a phone the rows stay short.

test("a technician sorts the queue by priority and reads who raised each ticket and from where", async ({
  browser,
}) => {
  const requester = await signUpInNewBrowser(browser, "Rita", "User");
  const marker = unique("sorting");
  const raised = [
    {
      title: `Mouse squeaks ${marker}`,
      priority: "Low",
      department: "Finance",
      floor: "3",
      officeNumber: "301",
    },
    {
      title: `Server room hot ${marker}`,
      priority: "High",
      department: "Facilities",
      floor: "B",
      officeNumber: "B12",
    },
    {
      title: `VPN drops at noon ${marker}`,
      priority: "Medium",
      department: "Sales",
      floor: "2",
      officeNumber: "214",
    },
  ] as const;
  for (const ticket of raised) await createTicketThroughApi(requester.page, ticket);

  const tech = await signUpInNewBrowser(browser, "Theo", "Technician");
  const { page } = tech;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/tickets?q=${marker}`);
  const rows = page.getByRole("list", { name: "Tickets" }).getByRole("listitem");
  await expect(rows).toHaveCount(3);
  await expect(page.getByText("3 tickets", { exact: true })).toBeVisible();
  // Newest first until asked otherwise.
  await expect(rows.first()).toContainText("VPN drops at noon");

  // The page is drawn by the server; what is tested here is what the app does with the choice (decision
  // 065). A choice made on the drawn page, before the app has it, is the early-change tests' own case: a
  // script's choice in the very moment the app hydrates the select (which a person's tap on it does first)
  // is lost to hydration.
  await expect.poll(() => isAppReady(page)).toBe(true);
  await page.getByLabel("Sort by").selectOption({ label: "Priority: High to Low" });
  await expect(page).toHaveURL(/[?&]sort=priority&dir=desc/);
  await expect(rows.nth(0)).toContainText("Server room hot");
  await expect(rows.nth(1)).toContainText("VPN drops at noon");
  await expect(rows.nth(2)).toContainText("Mouse squeaks");
  await expect(rows.nth(0)).toContainText(requester.name);
  await expect(rows.nth(0)).toContainText("Facilities, floor B, office B12");
  await expect(rows.nth(2)).toContainText("Finance, floor 3, office 301");
  await page.screenshot({ path: "e2e/.artifacts/screens/ticket-list-sorting-1280.png", fullPage: true });

  // The order survives a reload: it lives in the address, with the search.
  await page.reload();
  await expect(page.getByLabel("Sort by")).toHaveValue("priority.desc");
  await expect(rows.nth(0)).toContainText("Server room hot");

  await page.setViewportSize({ width: 375, height: 667 });
  await expect(rows.nth(0)).toContainText("Server room hot");
  await page.screenshot({ path: "e2e/.artifacts/screens/ticket-list-sorting-375.png", fullPage: true });
  // Measured in lines of the title's text, so the bound does not hang on how this run's random names wrap:
  // a compact row is the title (up to three lines beside its status badge and, for staff, a "Due soon" or
  // "Overdue" badge, which a High ticket raised in business hours has at once) over one flowing line of
  // priority, who and where (up to three on a phone): fewer than seven lines with its padding. A row that
  // put each field on a line of its own would take eight or more.
  const lineHeight = await rows
    .nth(0)
    .getByText(raised[1].title)
    .evaluate((title) => Number.parseFloat(getComputedStyle(title).lineHeight));
  expect(lineHeight).toBeGreaterThan(10);
  for (const row of await rows.all()) {
    const box = await row.boundingBox();
    expect(box, "a visible row").not.toBeNull();
    expect(box!.height).toBeLessThan(7 * lineHeight);
  }

  // The dashboard's list sorts the same way.
  await page.goto("/technician-home?sort=status&dir=asc");
  await expect(page.getByLabel("Sort by")).toHaveValue("status.asc");
  await expect(page.getByText(/^\d[\d,]*\+? tickets?$/)).toBeVisible();
  await page.screenshot({
    path: "e2e/.artifacts/screens/ticket-list-sorting-dashboard-375.png",
    fullPage: true,
  });

  await tech.close();
  await requester.close();
});
