import { expect, type Page, test } from "@playwright/test";
import { signUp, unique } from "./support.ts";

const desktop = { width: 1280, height: 900 };
const phone = { width: 375, height: 812 };

async function expectSectionShown(page: Page, id: string, title: string) {
  await expect(page).toHaveURL(new RegExp(`/Knowledge-base#${id}$`));
  const section = page.getByRole("region", { name: title });
  await expect(section).toBeInViewport();
  // The sticky header must not cover the section's heading.
  const heading = await section.getByRole("heading", { name: title }).boundingBox();
  expect(heading?.y).toBeGreaterThanOrEqual(64);
}

test("the knowledge base opens from the header on a desktop and from the mobile menu, with anchors", async ({
  page,
}) => {
  const name = unique("kb");
  await page.setViewportSize(desktop);
  await signUp(page, "Kim Reader", `${name}@example.test`, "User");
  await expect(page).toHaveURL(/\/user-home$/);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Knowledge Base" }).click();
  await expect(page).toHaveURL(/\/Knowledge-base$/);
  await expect(page.getByRole("heading", { level: 1, name: "Knowledge Base" })).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/knowledge-base-1280.png", fullPage: true });

  const contents = page.getByRole("navigation", { name: "On this page" });
  await contents.getByRole("link", { name: "Pages" }).click();
  await expectSectionShown(page, "pages", "Pages");
  await page.getByRole("region", { name: "Pages" }).getByRole("link", { name: "Tickets" }).click();
  await expect(page).toHaveURL(/\/tickets$/);

  // An anchor typed or shared as an address lands on its section too.
  await page.goto("/Knowledge-base#mission");
  await expectSectionShown(page, "mission", "Mission");

  await page.setViewportSize(phone);
  await page.goto("/user-home");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await page.getByRole("button", { name: "Toggle menu" }).click();
  await page
    .getByRole("navigation", { name: "Mobile" })
    .getByRole("link", { name: "Knowledge Base" })
    .click();
  await expect(page).toHaveURL(/\/Knowledge-base$/);
  await expect(page.getByRole("navigation", { name: "Mobile" })).toBeHidden();
  await page.screenshot({ path: "e2e/.artifacts/knowledge-base-375.png", fullPage: true });

  await page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: "Roles" }).click();
  await expectSectionShown(page, "roles", "Roles");
  await expect(page.getByRole("heading", { name: "Director (admin)" })).toBeVisible();
  // Nothing sticks out sideways on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test("the demo user management page adds, edits and resets without saving anything", async ({ page }) => {
  const apiCalls: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/") && url.pathname !== "/api/me") {
      apiCalls.push(`${request.method()} ${url.pathname}`);
    }
  });
  await page.setViewportSize(desktop);
  await page.goto("/demo/user-management");
  await expect(page.getByText("Demo: sample data, nothing is saved")).toBeVisible();
  await expect(page.getByText("Showing 10 of 10 users")).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/demo-user-management-1280.png", fullPage: true });

  // Add: an invalid email is refused inside the modal.
  const addButton = page.getByRole("button", { name: "Add User" });
  await addButton.click();
  const addDialog = page.getByRole("dialog", { name: "Add User" });
  await expect(addDialog.getByLabel("Full Name")).toBeFocused();
  await addDialog.getByLabel("Full Name").fill("Nina Novak");
  await addDialog.getByLabel("Email").fill("nina.example.com");
  await addDialog.getByRole("button", { name: "Add User" }).click();
  await expect(addDialog.getByText("Enter a valid e-mail address")).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/demo-user-dialog-1280.png" });

  await addDialog.getByLabel("Email").fill("nina.novak@example.com");
  await addDialog.getByLabel("Role").selectOption({ label: "Technician" });
  await addDialog.getByLabel("Department").fill("Logistics");
  await addDialog.getByRole("button", { name: "Add User" }).click();
  await expect(addDialog).toBeHidden();
  const added = page.getByRole("dialog", { name: "User added" });
  await expect(added).toContainText("Nina Novak was added with the demo password Demo@1234");
  await expect(added).toContainText("The real app never does");
  await added.getByRole("button", { name: "Done" }).click();
  await expect(addButton).toBeFocused();
  const nina = page.getByRole("row", { name: /Nina Novak/ });
  await expect(nina).toContainText("nina.novak@example.com");
  await expect(nina).toContainText("Technician");
  await expect(page.getByText("Showing 11 of 11 users")).toBeVisible();

  // Edit: the modal starts with the person's details; Escape would leave them unchanged.
  await nina.getByRole("button", { name: "Edit Nina Novak" }).click();
  const editDialog = page.getByRole("dialog", { name: "Edit User" });
  await expect(editDialog.getByLabel("Department")).toHaveValue("Logistics");
  await editDialog.getByLabel("Department").fill("Facilities");
  await editDialog.getByLabel("Status").selectOption("Inactive");
  await editDialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(editDialog).toBeHidden();
  await expect(nina).toContainText("Facilities");
  await expect(nina).toContainText("Inactive");

  await nina.getByRole("button", { name: "Edit Nina Novak" }).click();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(nina.getByRole("button", { name: "Edit Nina Novak" })).toBeFocused();

  // Reset password: the demo shows its default password for that person.
  await page
    .getByRole("row", { name: /Farid Khan/ })
    .getByRole("button", { name: /Reset password/ })
    .click();
  const reset = page.getByRole("dialog", { name: "Password reset" });
  await expect(reset).toContainText("Farid Khan's password was reset to the demo password Demo@1234");
  await page.screenshot({ path: "e2e/.artifacts/demo-password-reset-1280.png" });
  await reset.getByRole("button", { name: "Done" }).click();
  await expect(reset).toBeHidden();

  // Search and role filter narrow the table and its footer.
  await page.getByLabel("Search users").fill("facilities");
  await page.getByLabel("Filter by role").selectOption({ label: "Technician" });
  await expect(page.getByText("Showing 2 of 11 users")).toBeVisible();

  await page.setViewportSize(phone);
  await page.getByLabel("Search users").fill("");
  await page.getByLabel("Filter by role").selectOption({ label: "All Roles" });
  await page.screenshot({ path: "e2e/.artifacts/demo-user-management-375.png", fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page
    .getByRole("row", { name: /Carla Gomez/ })
    .getByRole("button", { name: "Edit Carla Gomez" })
    .click();
  await expect(page.getByRole("dialog", { name: "Edit User" })).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/demo-user-dialog-375.png" });
  await page.keyboard.press("Escape");

  // Nothing was sent to the server, and a reload brings back the ten samples.
  expect(apiCalls).toEqual([]);
  await page.reload();
  await expect(page.getByText("Showing 10 of 10 users")).toBeVisible();
  await expect(page.getByRole("row", { name: /Nina Novak/ })).toHaveCount(0);
});
