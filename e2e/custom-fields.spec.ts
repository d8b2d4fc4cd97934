import { expect, test } from "@playwright/test";
import { isAppReady, unique } from "./support.ts";
import { adminInNewBrowser, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 022: an admin adds a required custom field to Hardware in Admin settings; the create form
// demands it; the value shows on the ticket, a technician corrects it, the list filters on a choice.

test("an admin adds a required Hardware field; the create form demands it and the ticket shows it", async ({
  browser,
}) => {
  const admin = await adminInNewBrowser(browser, "Ada");
  const user = await signUpInNewBrowser(browser, "Uma", "User");
  const tech = await signUpInNewBrowser(browser, "Theo", "Technician");
  const label = `Asset tag ${unique("cf")}`;
  const deviceLabel = `Device ${unique("cf")}`;

  await admin.page.goto("/admin/settings?tab=custom-fields");
  await admin.page.getByRole("button", { name: "Add field" }).click();
  let dialog = admin.page.getByRole("dialog", { name: "Add a custom field" });
  // The shared rules speak before anything is sent.
  await dialog.getByRole("button", { name: "Add field" }).click();
  await expect(dialog.getByText("Label is required")).toBeVisible();
  await dialog.getByLabel("Label").fill(label);
  await dialog.getByLabel("Category").selectOption("Hardware");
  await dialog.getByLabel("Required").check();
  await dialog.getByLabel("Help text").fill("The number on the sticker under the device");
  await dialog.getByRole("button", { name: "Add field" }).click();
  await expect(admin.page.getByText("Custom field added")).toBeVisible();
  await expect(dialog).toHaveCount(0);

  await admin.page.getByRole("button", { name: "Add field" }).click();
  dialog = admin.page.getByRole("dialog", { name: "Add a custom field" });
  await dialog.getByLabel("Label").fill(deviceLabel);
  await dialog.getByLabel("Type").selectOption("single_choice");
  await dialog.getByLabel("Category").selectOption("Hardware");
  await dialog.getByLabel("Choice 1", { exact: true }).fill("Laptop");
  await dialog.getByLabel("Choice 2", { exact: true }).fill("Desktop");
  await dialog.getByRole("button", { name: "Add field" }).click();
  await expect(dialog).toHaveCount(0);
  const list = admin.page.getByRole("list", { name: "Custom fields" });
  await expect(list.getByText(label)).toBeVisible();
  await expect(list.getByText("Laptop, Desktop")).toBeVisible();
  await admin.page.screenshot({
    path: "e2e/.artifacts/screens/custom-fields-settings-1280.png",
    fullPage: true,
  });

  // The user's create form asks for it under Hardware and refuses to submit without it.
  await user.page.goto("/tickets");
  // The page is drawn by the server first (decision 065); what follows is the app's own handling.
  await expect.poll(() => isAppReady(user.page), { timeout: 30_000 }).toBe(true);
  await user.page.getByRole("button", { name: "Create New Ticket" }).click();
  const form = user.page.getByRole("region", { name: "Create New Ticket" });
  const title = `Laptop will not boot ${unique("cf")}`;
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Description").fill("Black screen after the logo.");
  await form.getByLabel("Office Number").fill("301");
  const tagInput = form.getByLabel(`${label} *`);
  await expect(tagInput).toHaveAccessibleDescription("The number on the sticker under the device");
  await form.getByRole("button", { name: "Submit Ticket" }).click();
  await expect(form.getByText(`${label} is required`)).toBeVisible();
  await form.getByLabel("Category").selectOption("Software");
  await expect(form.getByLabel(`${label} *`)).toHaveCount(0);
  await form.getByLabel("Category").selectOption("Hardware");
  await form.getByLabel(`${label} *`).fill("A-1234");
  await form.getByLabel(deviceLabel).selectOption("Laptop");
  await form.getByRole("button", { name: "Submit Ticket" }).click();
  await expect(user.page.getByText("Ticket created successfully!")).toBeVisible();

  const row = user.page.getByRole("link", { name: new RegExp(title) });
  await row.click();
  const details = user.page.getByRole("region", { name: "Additional details" });
  await expect(details.getByText("A-1234")).toBeVisible();
  await expect(details.getByText("Laptop")).toBeVisible();
  await expect(details.getByRole("button", { name: "Edit" })).toHaveCount(0);
  const ticketUrl = user.page.url();

  // A technician corrects the value; the timeline says so.
  await tech.page.goto(ticketUrl);
  // The page is drawn by the server first (decision 065); what follows is the app's own handling.
  await expect.poll(() => isAppReady(tech.page), { timeout: 30_000 }).toBe(true);
  const techDetails = tech.page.getByRole("region", { name: "Additional details" });
  await techDetails.getByRole("button", { name: "Edit" }).click();
  await techDetails.getByLabel(`${label} *`).fill("A-9999");
  await techDetails.getByRole("button", { name: "Save details" }).click();
  await expect(tech.page.getByText("Details saved")).toBeVisible();
  await expect(techDetails.getByText("A-9999")).toBeVisible();
  await expect(
    tech.page.getByRole("list", { name: "Ticket activity" }).getByText(`${label}: A-1234 → A-9999`),
  ).toBeVisible();
  await tech.page.screenshot({
    path: "e2e/.artifacts/screens/custom-fields-ticket-1280.png",
    fullPage: true,
  });

  // The list filters on the choice.
  await tech.page.goto("/tickets");
  // The page is drawn by the server first (decision 065); what follows is the app's own handling.
  await expect.poll(() => isAppReady(tech.page), { timeout: 30_000 }).toBe(true);
  await tech.page.getByLabel(deviceLabel).selectOption("Desktop");
  await expect(tech.page.getByText("No tickets match")).toBeVisible();
  await tech.page.getByLabel(deviceLabel).selectOption("Laptop");
  await expect(tech.page.getByRole("link", { name: new RegExp(title) })).toBeVisible();

  // Retired: gone from the form, still readable on the ticket (and other journeys' Hardware tickets need
  // no asset tag again).
  await admin.page.getByRole("button", { name: `Retire ${label}` }).click();
  await expect(admin.page.getByText("Field retired")).toBeVisible();
  await admin.page.getByRole("button", { name: `Retire ${deviceLabel}` }).click();
  await expect(list.getByText("Retired")).toHaveCount(2);
  await user.page.reload();
  await expect(details.getByText("A-9999")).toBeVisible();
  await expect(details.getByText("Retired").first()).toBeVisible();

  await Promise.all([admin.close(), user.close(), tech.close()]);
});
