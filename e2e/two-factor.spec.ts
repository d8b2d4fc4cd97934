import { expect, test } from "@playwright/test";
import { totpCode } from "#server/test/totp.ts";
import { password, settings, signIn, toast } from "./support.ts";
import { signUpInNewBrowser } from "./ticket-support.ts";

// Decision 046: a technician turns on two-factor sign-in in /profile with an authenticator
// app (the code is computed here from the setup key, as the app would), ends a session on another browser,
// and signs in again with password and code.

test("a technician sets up two-factor sign-in, revokes another browser, and signs in with a code", {
  tag: "@instances",
}, async ({ browser }) => {
  const laptop = await signUpInNewBrowser(browser, "Tessa", "Technician");
  const phoneContext = await browser.newContext({ baseURL: settings.baseURL });
  const phone = await phoneContext.newPage();
  await signIn(phone, laptop.email);
  await expect(phone).toHaveURL(/\/technician-home$/);

  const page = laptop.page;
  await page.goto("/profile");
  const twoFactor = page.getByRole("region", { name: /Two-factor sign-in/ });
  await expect(twoFactor.getByText("Off", { exact: true })).toBeVisible();
  await twoFactor.getByRole("button", { name: "Set up" }).click();

  const dialog = page.getByRole("dialog", { name: "Set up two-factor sign-in" });
  await dialog.getByLabel("Password", { exact: true }).fill(password);
  await dialog.getByRole("button", { name: "Continue" }).click();
  const secret = await dialog.getByLabel("Setup key").inputValue();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await dialog.getByLabel("Authentication code").fill("123");
  await dialog.getByRole("button", { name: "Turn on" }).click();
  await expect(dialog.getByText("Enter the 6-digit code from your authenticator app")).toBeVisible();
  await dialog.getByLabel("Authentication code").fill(totpCode(secret));
  await dialog.getByRole("button", { name: "Turn on" }).click();
  await expect(dialog.getByText("Two-factor sign-in is on.")).toBeVisible();
  const recoveryCodes = dialog.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(recoveryCodes).toHaveCount(10);
  await dialog.getByRole("button", { name: "I have saved them" }).click();
  await expect(twoFactor.getByText("On", { exact: true })).toBeVisible();

  // The phone's session is listed beside this one; revoking it signs the phone out.
  const sessions = page.getByRole("region", { name: "Where you're signed in" });
  await expect(sessions.getByRole("listitem")).toHaveCount(2);
  await expect(sessions.getByRole("listitem").filter({ hasText: "This device" })).toHaveCount(1);
  await sessions.getByRole("button", { name: /^Revoke / }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
  await expect(toast(page, "Session revoked")).toBeVisible();
  await expect(sessions.getByRole("listitem")).toHaveCount(1);
  await phone.goto("/tickets");
  await expect(phone).toHaveURL(/\/sign-in/);

  // Signing in again now asks for the code after the password.
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await signIn(page, laptop.email);
  const code = page.getByLabel("Authentication code");
  await expect(code).toBeVisible();
  await code.fill("000000" === totpCode(secret) ? "111111" : "000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText(/That code is not right/)).toBeVisible();
  await code.fill(totpCode(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/technician-home$/);

  await phoneContext.close();
  await laptop.close();
});
