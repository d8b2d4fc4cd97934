import { expect, type Page, test } from "@playwright/test";
import { screens, setOidcPerson, settings, signOut, toast, unique } from "./support.ts";
import { adminInNewBrowser } from "./ticket-support.ts";

// Decision 082: an admin maps the identity provider's group to the technician role in Admin settings ›
// Single sign-on; a person in that group signs in through "Sign in with Contoso" and is a technician
// without ever choosing; out of the group at the provider, their next sign-in makes them a user.

async function signInWithContoso(page: Page) {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with Contoso" }).click();
}

test("an admin maps a group to technicians; a person in it signs in as a technician, and as a user once out of it", async ({
  browser,
}) => {
  const admin = await adminInNewBrowser(browser, "Ada");
  const group = unique("helpdesk-techs");
  const context = await browser.newContext({ baseURL: settings.baseURL });
  const page = await context.newPage();
  try {
    await admin.page.goto("/admin/settings?tab=single-sign-on");
    const adminPage = admin.page;
    await expect(adminPage.getByRole("tab", { name: "Single sign-on", selected: true })).toBeVisible();
    await expect(
      adminPage.getByText(
        "People who match no rule sign in as users; with rules saved, people do not choose their own role.",
      ),
    ).toBeVisible();
    await expect(adminPage.getByLabel("Claim", { exact: true })).toHaveValue("groups");
    await adminPage.getByRole("button", { name: "Add rule" }).click();
    await adminPage.getByLabel("Value of rule 1", { exact: true }).fill(group);
    await expect(adminPage.getByLabel("Role of rule 1", { exact: true })).toHaveValue("technician");
    await adminPage.getByRole("button", { name: "Add rule" }).click();
    await adminPage.getByLabel("Value of rule 2", { exact: true }).fill(`${group}-admins`);
    await adminPage.getByLabel("Role of rule 2", { exact: true }).selectOption({ label: "Admin" });
    await adminPage.getByRole("button", { name: "Save" }).click();
    await expect(toast(adminPage, "Settings saved")).toBeVisible();
    // The toast closed, so the pictures show the whole panel.
    await toast(adminPage, "Settings saved").getByRole("button", { name: "close" }).click();
    await expect(toast(adminPage, "Settings saved")).toBeHidden();
    await screens(adminPage, "admin-settings-single-sign-on");

    // In the group at the provider: straight to the technician's home, never through role selection.
    const visited: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    const id = unique("tia");
    const person = { sub: id, email: `${id}@org.test`, name: "Tia Techgroup" };
    await setOidcPerson({ ...person, groups: ["all-staff", group] });
    await signInWithContoso(page);
    await expect(page).toHaveURL(/\/technician-home$/);
    expect(visited).not.toContain("/role-selection");

    // The provider takes the group away: the next sign-in makes them a user.
    await setOidcPerson({ ...person, groups: ["all-staff"] });
    await signOut(page);
    await signInWithContoso(page);
    await expect(page).toHaveURL(/\/user-home$/);
    expect(visited).not.toContain("/role-selection");
    const me = await page.request.get("/api/me");
    expect((await me.json()).role).toBe("user");
  } finally {
    // Later journeys sign in through Contoso without a mapping and choose their role.
    const cleared = await admin.page.request.put("/api/admin/settings/sso-roles", {
      data: { claim: "groups", rules: [] },
    });
    expect(cleared.status()).toBe(200);
    await context.close();
    await admin.close();
  }
});
