import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { unique } from "./support.ts";
import { adminInNewBrowser, createTicketThroughApi } from "./ticket-support.ts";

// Decision 026: an admin filters the ticket list, clicks Export CSV, and the file holds exactly the
// filtered tickets, as a spreadsheet program reads it (BOM, header row, CRLF, formula cells escaped).

test("an admin exports the filtered ticket list and the file holds exactly those tickets", async ({
  browser,
}) => {
  const admin = await adminInNewBrowser(browser, "Ada");
  const { page } = admin;
  const marker = unique("csv");
  const high = await createTicketThroughApi(page, { title: `=VPN drops ${marker}`, priority: "High" });
  const alsoHigh = await createTicketThroughApi(page, { title: `Mail "slow", ${marker}`, priority: "High" });
  const low = await createTicketThroughApi(page, { title: `Mouse broken ${marker}`, priority: "Low" });

  await page.goto(`/tickets?q=${marker}`);
  await page.getByLabel("Priority").selectOption("High");
  await expect(page.getByRole("link", { name: new RegExp(low) })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /TKT[0-9A-Z]+/ })).toHaveCount(2);
  await page.screenshot({ path: "e2e/.artifacts/screens/csv-export-1280.png" });

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^tickets-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile((await download.path())!, "utf8");
  expect(text.startsWith("\uFEFFTicket ID,Title,Status,Priority,")).toBe(true);
  const lines = text.slice(1).split("\r\n");
  expect(lines.at(-1)).toBe("");
  expect(lines).toHaveLength(4); // header, two tickets, the empty string after the last CRLF
  expect(text).toContain(`${high},'=VPN drops ${marker},Open,High,`);
  expect(text).toContain(`${alsoHigh},"Mail ""slow"", ${marker}",Open,High,`);
  expect(text).not.toContain(low);
  await admin.close();
});

test("an admin exports the user list as searched", async ({ browser }) => {
  const admin = await adminInNewBrowser(browser, "Ada");
  const other = await adminInNewBrowser(browser, "Bea");
  const { page } = admin;
  await page.goto("/admin/user-management");
  await page.getByLabel("Search users").fill(admin.email);
  await expect(page.getByRole("cell", { name: admin.email })).toBeVisible();
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
    "href",
    `/api/admin/users/export.csv?q=${encodeURIComponent(admin.email)}`,
  );
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile((await download.path())!, "utf8");
  expect(text.slice(1).split("\r\n")).toEqual([
    "Name,Email,Role,Department,Status,Created,Last login",
    expect.stringMatching(new RegExp(`^${admin.name},${admin.email},admin,`)),
    "",
  ]);
  expect(text).not.toContain(other.email);
  await other.close();
  await admin.close();
});
