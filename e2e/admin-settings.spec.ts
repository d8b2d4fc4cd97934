import { expect, test } from "@playwright/test";
import { defaultBusinessCalendar } from "#shared/service-levels/business-calendar.schemas.ts";
import { screens, toast } from "./support.ts";
import { adminInNewBrowser, signUpInNewBrowser } from "./ticket-support.ts";

// Decisions 017 and 023: an admin adds the department Finance and shortens Friday to 09:00–13:00 with a
// holiday in Admin settings; the change history shows both; a user's create form then offers Finance.

test("an admin adds a department and sets Friday's hours and a holiday; a user's create form offers the department", async ({
  browser,
}) => {
  const admin = await adminInNewBrowser(browser, "Ada");
  const user = await signUpInNewBrowser(browser, "Ursula", "User");
  const page = admin.page;

  try {
    // Departments: add Finance, save.
    await page.goto("/admin/settings?tab=departments");
    await expect(page.getByRole("tab", { name: "Departments", selected: true })).toBeVisible();
    await expect(page.getByLabel("Department 1")).toHaveValue("General");
    await page.getByLabel("New department").fill("Finance");
    await page.getByRole("button", { name: "Add department" }).click();
    await expect(page.getByLabel("Department 2")).toHaveValue("Finance");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "Settings saved")).toBeVisible();

    // Business hours: an hour that does not exist is marked at its field and nothing is saved.
    await page.getByRole("tab", { name: "Business hours" }).click();
    const fridayCloses = page.getByLabel("Friday closes");
    await fridayCloses.fill("25:00");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(fridayCloses).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Closing time must be a time like 09:00 (00:00 to 24:00)")).toBeVisible();
    await screens(page, "admin-settings-business-hours-error");

    // Friday 09:00–13:00 and Christmas Eve off.
    await fridayCloses.fill("13:00");
    await page.getByRole("button", { name: "Add holiday" }).click();
    await page.getByLabel("Date").fill("2026-12-24");
    await page.getByLabel("Name (optional)").fill("Christmas Eve");
    const saved = page.waitForResponse(
      (response) =>
        response.url().endsWith("/api/admin/settings/business-calendar") &&
        response.request().method() === "PUT",
    );
    await page.getByRole("button", { name: "Save" }).click();
    expect((await saved).status()).toBe(200);
    // The departments' toast may still be showing: the newest is this save's.
    await expect(toast(page, "Settings saved").last()).toBeVisible();

    // Stored: a reload shows them again.
    await page.reload();
    await expect(page.getByLabel("Friday opens")).toHaveValue("09:00");
    await expect(page.getByLabel("Friday closes")).toHaveValue("13:00");
    await expect(page.getByLabel("Date")).toHaveValue("2026-12-24");
    await expect(page.getByLabel("Name (optional)")).toHaveValue("Christmas Eve");
    await screens(page, "admin-settings-business-hours-saved");

    // The history, filtered to departments, says what changed in words.
    await page.getByRole("tab", { name: "Change history" }).click();
    const changes = page.getByRole("list", { name: "Settings changes" });
    await expect(changes).toContainText("Changed the business hours");
    await page.getByLabel("Area").selectOption({ label: "Departments" });
    await expect(changes).toContainText("Changed the departments");
    await expect(changes).toContainText("Added Finance");
    await expect(changes).not.toContainText("Changed the business hours");
    await changes.getByText("Before and after").first().click();
    await screens(page, "admin-settings-history-departments");

    // The user's create form offers Finance (and still takes free text).
    await user.page.goto("/user-home");
    await user.page.getByRole("button", { name: "Create New Ticket" }).click();
    const department = user.page
      .getByRole("region", { name: "Create New Ticket" })
      .getByRole("combobox", { name: "Department" });
    await expect(department).toHaveValue("General");
    const listId = await department.getAttribute("list");
    expect(listId).toBeTruthy();
    await expect(user.page.locator(`datalist[id="${listId}"] option`)).toHaveCount(2);
    await expect(user.page.locator(`datalist[id="${listId}"] option[value="Finance"]`)).toHaveCount(1);

    await user.page.getByLabel("Title").fill("Expense reports do not print");
    await user.page.getByLabel("Description").fill("The finance printer skips every second page.");
    await department.fill("Finance");
    await user.page.getByLabel("Office Number").fill("12");
    await user.page.getByRole("button", { name: "Submit Ticket" }).click();
    await expect(toast(user.page, "Ticket created successfully!")).toBeVisible();
  } finally {
    // Other journeys count service levels on this server: give them back the default calendar.
    const restored = await page.request.put("/api/admin/settings/business-calendar", {
      data: defaultBusinessCalendar,
    });
    expect(restored.status()).toBe(200);
    await Promise.all([admin.close(), user.close()]);
  }
});
