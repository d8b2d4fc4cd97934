import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { adminInNewBrowser, createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 027: a technician opens /reports from their dashboard, sees the charts (uPlot canvases,
// loaded only on this route), switches a chart to its table view and reads the figures, and downloads
// its CSV. An administrator also sees satisfaction per technician, which a technician never does.

test("a technician opens /reports, sees the charts, reads a table view and downloads its CSV", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Rita", "User");
  await createTicketThroughApi(user.page, {
    title: "Laptop fan is loud",
    category: "Hardware",
    department: "Finance",
  });
  await createTicketThroughApi(user.page, {
    title: "Mail rule lost",
    category: "Software",
    department: "Finance",
  });

  const tech = await signUpInNewBrowser(browser, "Remy", "Technician");
  const chartRequests: string[] = [];
  tech.page.on("request", (request) => {
    if (/uPlot/i.test(request.url())) chartRequests.push(request.url());
  });
  // The dashboard does not load the charting library; the Reports link does.
  await expect(tech.page.getByRole("heading", { name: "Technician Dashboard" })).toBeVisible();
  expect(chartRequests).toEqual([]);
  await tech.page.getByRole("link", { name: "Reports", exact: true }).click();
  await expect(tech.page).toHaveURL(/\/reports$/);
  await expect(tech.page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();

  const flow = tech.page.getByRole("region", { name: "Tickets opened and resolved" });
  await expect(flow.locator("canvas")).toBeVisible();
  await expect(
    tech.page.getByRole("region", { name: "Tickets by category" }).locator("canvas"),
  ).toBeVisible();
  expect(chartRequests.length).toBeGreaterThan(0);
  await expect(tech.page.getByRole("region", { name: "Satisfaction per technician" })).toHaveCount(0);

  // Table view: a real table with a caption, today's row counting at least the two new tickets.
  await flow.getByRole("button", { name: "Table view" }).click();
  const table = flow.getByRole("table", { name: "Tickets opened and resolved" });
  await expect(table).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Opened" })).toBeVisible();
  const today = new Date().toLocaleDateString("en", { month: "short", day: "numeric" });
  const todayRow = table.getByRole("row", { name: new RegExp(`^${today}\\b`) });
  const opened = Number(await todayRow.getByRole("cell").first().textContent());
  expect(opened).toBeGreaterThanOrEqual(2);

  const byCategory = tech.page.getByRole("region", { name: "Tickets by category" });
  await byCategory.getByRole("button", { name: "Table view" }).click();
  await expect(byCategory.getByRole("row", { name: /^Hardware \d+/ })).toBeVisible();
  await expect(byCategory.getByRole("row", { name: /^Software \d+/ })).toBeVisible();

  // Download CSV: UTF-8 with a byte order mark, the table's columns.
  const [download] = await Promise.all([
    tech.page.waitForEvent("download"),
    flow.getByRole("button", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^report-tickets-opened-and-resolved-.*\.csv$/);
  const csv = readFileSync(await download.path(), "utf8");
  expect(csv.startsWith("\uFEFFDay,Opened,Resolved\r\n")).toBe(true);
  const [png] = await Promise.all([
    tech.page.waitForEvent("download"),
    flow.getByRole("button", { name: "Download PNG" }).click(),
  ]);
  expect(png.suggestedFilename()).toMatch(/\.png$/);
  expect(
    readFileSync(await png.path())
      .subarray(1, 4)
      .toString(),
  ).toBe("PNG");

  // Week grouping and a preset range change the address (shareable) and the charts.
  await tech.page.getByLabel("Group", { exact: true }).selectOption("week");
  await tech.page.getByLabel("Range", { exact: true }).selectOption("7");
  await expect(tech.page).toHaveURL(/range=7/);
  await expect(tech.page).toHaveURL(/group=week/);
  await expect(flow.getByRole("table", { name: "Tickets opened and resolved" })).toBeVisible();
  await expect(flow.getByRole("columnheader", { name: "Week of" })).toBeVisible();

  for (const width of [1280, 375]) {
    await tech.page.setViewportSize({ width, height: 900 });
    await tech.page.waitForTimeout(300);
    const overflow = await tech.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `/reports at ${width} px is wider than the window by`).toBeLessThanOrEqual(0);
    await tech.page.screenshot({ path: `/tmp/reports-${width}.png`, fullPage: true });
    await tech.page.screenshot({ path: `e2e/.artifacts/screens/reports-${width}.png`, fullPage: true });
  }

  // An administrator also sees how each technician was rated.
  const admin = await adminInNewBrowser(browser, "Ria");
  await admin.page.getByRole("link", { name: "Reports", exact: true }).click();
  await expect(admin.page.getByRole("region", { name: "Satisfaction per technician" })).toBeVisible();
  await admin.close();
  await tech.close();
  await user.close();
});
