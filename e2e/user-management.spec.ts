import { type Browser, expect, type Page, test } from "@playwright/test";
import { createAdmin, latestMailTo, password, signIn, signUp, toast, unique } from "./support.ts";

// Decision 009: an admin searches, filters, edits a person's role and department, deactivates
// them (they are signed out and cannot sign in), reactivates them, and invites a new person who sets their
// own password from the mailed link. Screenshots at 1280 and 375 px.

async function shot(page: Page, name: string) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `/tmp/um-${name}.png`, fullPage: true });
}

async function bothWidths(page: Page, name: string) {
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 812 });
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function newPage(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

test("an admin searches, filters, edits, deactivates and reactivates a person, and invites another", {
  tag: "@instances",
}, async ({ browser }) => {
  const admin = await newPage(browser);
  const person = await newPage(browser);
  const adminEmail = `${unique("ada")}@example.test`;
  const personName = unique("Pat Person");
  const personEmail = `${unique("pat")}@example.test`;

  await createAdmin(admin, "Ada Admin", adminEmail);
  await signUp(person, personName, personEmail, "User");
  await expect(person).toHaveURL(/\/user-home$/);

  await signIn(admin, adminEmail);
  await expect(admin).toHaveURL(/\/admin-home$/);
  await expect(admin.getByRole("region", { name: "User counts" })).toContainText("Total Users");
  await bothWidths(admin, "admin-home-overview");
  await admin.getByRole("tab", { name: "User Management" }).click();
  await expect(admin.getByRole("table")).toContainText(personEmail);
  await bothWidths(admin, "admin-home-users");
  await admin.getByRole("link", { name: "Open User Management" }).click();
  await expect(admin).toHaveURL(/\/admin\/user-management$/);

  // Search and filter on the server.
  await admin.getByLabel("Search users").fill(personName);
  const row = admin.getByRole("row", { name: new RegExp(personName) });
  await expect(row).toBeVisible();
  await expect(admin.getByText("Showing 1 of 1 users")).toBeVisible();
  await admin.getByLabel("Role").selectOption({ label: "Technician" });
  await expect(admin.getByText("No users found")).toBeVisible();
  await admin.getByLabel("Role").selectOption({ label: "User" });
  await expect(row).toBeVisible();
  await admin.getByLabel("Role").selectOption({ label: "All Roles" });
  await bothWidths(admin, "user-management-search");

  // Edit role and department, by keyboard inside the dialog.
  await row.getByRole("button", { name: "Edit" }).click();
  const edit = admin.getByRole("dialog", { name: "Edit user" });
  await expect(edit.getByLabel("Full Name")).toBeFocused();
  await edit.getByLabel("Role").selectOption({ label: "Technician" });
  await edit.getByLabel("Department").fill("Finance");
  await bothWidths(admin, "user-management-edit");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(toast(admin, "User updated successfully")).toBeVisible();
  await expect(row).toContainText("Technician");
  await expect(row).toContainText("Finance");

  // Deactivate: the person is signed out at once and cannot sign in.
  await row.getByRole("button", { name: "Deactivate" }).click();
  await admin
    .getByRole("dialog", { name: `Deactivate ${personName}?` })
    .getByRole("button", { name: "Deactivate" })
    .click();
  await expect(toast(admin, `${personName} was deactivated`)).toBeVisible();
  await expect(row).toContainText("Inactive");
  await person.reload();
  // Signed out at once; the sign-in page remembers where they were.
  await expect(person).toHaveURL(/\/sign-in\?next=%2Fuser-home$/);
  await signIn(person, personEmail);
  await expect(toast(person, "This account has been deactivated. Contact your administrator.")).toBeVisible();
  await expect(person).toHaveURL(/\/sign-in$/);

  // Activate: access comes back, with the new role.
  await row.getByRole("button", { name: "Activate" }).click();
  await expect(toast(admin, `${personName} was activated`)).toBeVisible();
  await signIn(person, personEmail);
  await expect(person).toHaveURL(/\/technician-home$/);

  await row.getByRole("button", { name: "History" }).click();
  const history = admin.getByRole("dialog", { name: `History of ${personName}` });
  await expect(history).toContainText("Activated");
  await expect(history).toContainText("Deactivated");
  await expect(history).toContainText("Role: user → technician");
  await expect(history).toContainText("Ada Admin");
  await bothWidths(admin, "user-management-history");
  await admin.keyboard.press("Escape");
  await expect(history).toBeHidden();
  await expect(row.getByRole("button", { name: "History" })).toBeFocused();

  // Reset password mails the person.
  await row.getByRole("button", { name: "Reset password" }).click();
  await expect(toast(admin, "Reset email was sent successfully")).toBeVisible();
  expect(await latestMailTo(personEmail)).toContain("An administrator asked for a password reset");

  // Invite: the new person sets their own password from the mailed link and signs in.
  const inviteeName = unique("Nina New");
  const inviteeEmail = `${unique("nina")}@example.test`;
  await admin.getByLabel("Search users").fill("");
  await admin.getByRole("button", { name: "Add user" }).click();
  const invite = admin.getByRole("dialog", { name: "Add user" });
  await invite.getByLabel("Full Name").fill(inviteeName);
  await invite.getByLabel("Email").fill(inviteeEmail);
  await invite.getByLabel("Role").selectOption({ label: "User" });
  await invite.getByLabel("Department").fill("Sales");
  await bothWidths(admin, "user-management-invite");
  await invite.getByRole("button", { name: "Send invitation" }).click();
  await expect(toast(admin, `Invitation sent to ${inviteeEmail}`)).toBeVisible();
  await expect(admin.getByRole("row", { name: new RegExp(inviteeName) })).toContainText("Sales");
  await bothWidths(admin, "user-management");

  const mail = await latestMailTo(inviteeEmail);
  expect(mail).toContain("Subject: You are invited to Helpdesk");
  const link = mail.match(
    /https?:\/\/[^\s"<>]+\/api\/auth\/reset-password\/[\w-]+\?callbackURL=[^\s"<>]+/,
  )?.[0];
  expect(link, "the invitation carries a link").toBeTruthy();
  const invitee = await newPage(browser);
  await invitee.goto(link!);
  await expect(invitee).toHaveURL(/\/reset-password\?token=/);
  await invitee.getByLabel("New password").fill(password);
  await invitee.getByLabel("Confirm password").fill(password);
  await invitee.getByRole("button", { name: "Set Password" }).click();
  await expect(invitee).toHaveURL(/\/sign-in$/);
  await signIn(invitee, inviteeEmail);
  await expect(invitee).toHaveURL(/\/user-home$/);
});

test("a person who is not an admin sees access denied on /admin/user-management", async ({ page }) => {
  await signUp(page, "Ulla User", `${unique("ulla")}@example.test`, "User");
  await page.goto("/admin/user-management");
  await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add user" })).toHaveCount(0);
  await bothWidths(page, "user-management-denied");
});
