import { expect, test } from "@playwright/test";
import { settings, unique } from "./support.ts";
import { createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Issue 12 item 4: a person creates a personal API token in /profile, sees it once, and uses it the way the
// README's curl example does (here from Node, outside the browser: no cookie, no Origin).

test("a person creates a token in /profile, copies it once, and lists their tickets with it from a script", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Tia", "User");
  const title = `Printer offline ${unique("tok")}`;
  await createTicketThroughApi(user.page, { title });

  await user.page.goto("/profile");
  const card = user.page.getByRole("region", { name: "API tokens" });
  await expect(card.getByText("You have no API tokens.")).toBeVisible();
  await card.getByRole("button", { name: "New token" }).click();
  const dialog = user.page.getByRole("dialog", { name: "New API token" });
  await dialog.getByRole("button", { name: "Create token" }).click();
  await expect(dialog.getByText("Name is required")).toBeVisible();
  await dialog.getByLabel("Name").fill("Nightly report");
  await dialog.getByLabel("Access").selectOption("read");
  await dialog.getByLabel("Expires after").selectOption("30");
  await dialog.getByRole("button", { name: "Create token" }).click();

  const shown = user.page.getByRole("dialog", { name: 'Token "Nightly report" created' });
  const token = await shown.getByLabel("Your token").inputValue();
  expect(token).toMatch(/^hd_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  await expect(
    shown.getByText(`curl -H "Authorization: Bearer ${token}" ${settings.baseURL}/api/tickets`),
  ).toBeVisible();
  await user.page.screenshot({ path: "e2e/.artifacts/screens/api-token-created.png" });
  await shown.getByRole("button", { name: "Done" }).click();

  // Listed without its secret: the page never shows the token again.
  await expect(card.getByText("Nightly report")).toBeVisible();
  await expect(card.getByText("Read only")).toBeVisible();
  await expect(user.page.getByText(token)).toHaveCount(0);
  await user.page.screenshot({ path: "e2e/.artifacts/screens/profile-api-tokens.png", fullPage: true });

  // The curl of the docs, from Node.
  const answer = await fetch(`${settings.baseURL}/api/tickets`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.status).toBe(200);
  const list = (await answer.json()) as { items: { title: string }[] };
  expect(list.items.map((ticket) => ticket.title)).toContain(title);
  const write = await fetch(`${settings.baseURL}/api/tickets`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "From a script" }),
  });
  expect(write.status).toBe(403);

  // Revoked after a confirmation, the token is refused.
  await card.getByRole("button", { name: "Revoke Nightly report" }).click();
  await user.page
    .getByRole("dialog", { name: "Revoke this token?" })
    .getByRole("button", { name: "Revoke" })
    .click();
  await expect(user.page.getByText("Token revoked")).toBeVisible();
  await expect(card.getByText("You have no API tokens.")).toBeVisible();
  const refused = await fetch(`${settings.baseURL}/api/tickets`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(refused.status).toBe(401);
});
