import { expect, test } from "@playwright/test";
import { screens, unique } from "./support.ts";
import { adminInNewBrowser } from "./ticket-support.ts";

// Decision 081: an admin creates a SCIM token in Admin settings › Provisioning (SCIM), an identity provider
// provisions a person with it, the panel shows its last use, and a revoked token is refused.

test("an admin creates a SCIM token, a person is provisioned with it, and the revoked token is refused", async ({
  browser,
}) => {
  const admin = await adminInNewBrowser(browser, "Ada");
  const page = admin.page;
  try {
    await page.goto("/admin/settings?tab=provisioning");
    await expect(page.getByRole("tab", { name: "Provisioning (SCIM)", selected: true })).toBeVisible();
    const baseUrl = await page.getByLabel("SCIM base URL (Tenant URL)", { exact: true }).inputValue();
    expect(baseUrl).toMatch(/\/scim\/v2$/);
    await page.getByRole("button", { name: "New SCIM token" }).click();
    const form = page.getByRole("dialog", { name: "New SCIM token" });
    await form.getByLabel("Name", { exact: true }).fill("Microsoft Entra ID");
    await form.getByRole("button", { name: "Create token" }).click();
    const shown = page.getByRole("dialog", { name: 'SCIM token "Microsoft Entra ID" created' });
    const token = await shown.getByLabel("SCIM token", { exact: true }).inputValue();
    expect(token).toMatch(/^scim_[0-9a-f]{16}_/);
    await screens(page, "scim-token-created");
    await shown.getByRole("button", { name: "Done" }).click();

    const email = `${unique("grace")}@contoso.test`;
    const created = await page.request.post(`${baseUrl}/Users`, {
      headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" },
      data: JSON.stringify({
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
        userName: email,
        name: { givenName: "Grace", familyName: "Hopper" },
        active: true,
      }),
    });
    expect(created.status()).toBe(201);

    await page.reload();
    const list = page.getByRole("list", { name: "SCIM tokens" });
    await expect(list.getByText("Microsoft Entra ID")).toBeVisible();
    await expect(list.getByText(/Last used (?!never)/)).toBeVisible();
    await screens(page, "scim-settings");

    await page.goto(`/admin/user-management`);
    await expect(page.getByText(email)).toBeVisible();

    await page.goto("/admin/settings?tab=provisioning");
    await page.getByRole("button", { name: "Revoke Microsoft Entra ID" }).click();
    await page
      .getByRole("dialog", { name: "Revoke this SCIM token?" })
      .getByRole("button", { name: "Revoke" })
      .click();
    await expect(page.getByText("No SCIM tokens yet.")).toBeVisible();
    const refused = await page.request.get(`${baseUrl}/Users`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status()).toBe(401);
  } finally {
    await admin.close();
  }
});
