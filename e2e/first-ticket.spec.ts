import { expect, test } from "@playwright/test";
import { signOut, signUp } from "./support.ts";

// Foundation journey: a user signs up and raises a ticket; a technician signs up and finds it unassigned.
const run = Date.now().toString(36);
const ticketTitle = `Monitor flickers ${run}`;

test("a user raises a ticket and a technician finds it unassigned", async ({ page }) => {
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  // Every CSP violation, even one the page catches (zod's eval probe; it is jitless, decision 037).
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`CSP refused ${event.violatedDirective}: ${event.blockedURI}`),
    );
  });

  await signUp(page, "Uma User", `uma-${run}@example.test`, "User");
  await expect(page).toHaveURL(/\/user-home$/);
  await expect(page.getByText("No tickets yet")).toBeVisible();

  await page.getByRole("button", { name: "Create Your First Ticket" }).click();
  const form = page.getByRole("region", { name: "Create New Ticket" });
  await expect(form.getByLabel("Category")).toHaveValue("Hardware");
  await expect(form.getByLabel("Priority")).toHaveValue("Low");
  expect(consoleErrors.filter((e) => /Content Security Policy|CSP refused/i.test(e))).toEqual([]);

  // The form refuses to submit until every required field is filled.
  await form.getByRole("button", { name: "Submit Ticket" }).click();
  await expect(form.getByText("Title is required")).toBeVisible();

  await form.getByLabel("Title").fill(ticketTitle);
  await form.getByLabel("Description").fill("The left monitor flickers every few seconds.");
  await form.getByLabel("Category").selectOption("Hardware");
  await form.getByLabel("Priority").selectOption("Medium");
  await form.getByLabel("Office Number").fill("214");
  await form.getByRole("button", { name: "Submit Ticket" }).click();
  await expect(page.getByText("Ticket created successfully!")).toBeVisible();

  const row = page.getByRole("link", { name: new RegExp(ticketTitle) });
  await expect(row).toBeVisible();
  // The form closed: focus went on to the new ticket's row, which a screen reader reads (decision 036).
  await expect(row).toBeFocused();
  await expect(row).toContainText(/TKT[0-9A-Z]+/);
  const ticketId = (await row.textContent())?.match(/TKT[0-9A-Z]+/)?.[0];
  expect(ticketId).toBeTruthy();
  await page.screenshot({ path: "e2e/.artifacts/user-home.png", fullPage: true });

  await signOut(page);

  await signUp(page, "Theo Tech", `theo-${run}@example.test`, "Technician");
  await expect(page).toHaveURL(/\/technician-home$/);
  await page.getByRole("tab", { name: "Unassigned" }).click();
  const techRow = page.getByRole("link", { name: new RegExp(ticketTitle) });
  await expect(techRow).toContainText(ticketId!);
  await expect(techRow).toContainText("Unassigned");
  await page.screenshot({ path: "e2e/.artifacts/technician-home.png", fullPage: true });

  expect(consoleErrors.filter((e) => /Content Security Policy|CSP refused/i.test(e))).toEqual([]);
});
