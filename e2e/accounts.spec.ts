import { expect, type Page, test } from "@playwright/test";
import {
  delayCode,
  isAppReady,
  latestMailTo,
  password,
  setOidcPerson,
  settings,
  signIn,
  signOut,
  signUp,
  toast,
  unique,
} from "./support.ts";
import { createTicketThroughApi } from "./ticket-support.ts";

// Decision 005: every way in and out — sign-up, sign-in, password reset by mail, admin registration,
// a real OpenID Connect login through /role-selection, and the profile.

async function shot(page: Page, name: string) {
  // Toasts bounce in: wait until they have settled, or the picture catches them transparent.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
  // From the top, or a full-page picture draws the sticky header where the page was scrolled to.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `/tmp/t3-${name}.png`, fullPage: true });
}

test("a person signs up, signs out, is refused a wrong password, and signs in again", {
  tag: "@instances",
}, async ({ page }) => {
  const email = `${unique("sam")}@example.test`;
  await page.goto("/sign-up");
  // This server has an organisation sign-in and no Google (GOOGLE_CLIENT_ID unset): only Contoso is offered.
  await expect(page.getByRole("button", { name: "Sign in with Contoso" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue with Google" })).toHaveCount(0);
  await shot(page, "sign-up");

  await signUp(page, "Sam Signup", email, "User");
  await expect(page).toHaveURL(/\/user-home$/);
  await signOut(page);
  await shot(page, "sign-in");

  await signIn(page, email, "not the password");
  // An error interrupts (an alert); a success waits its turn (a status): decision 036.
  await expect(page.getByRole("alert").filter({ hasText: "Wrong user credentials" })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in$/);
  await shot(page, "sign-in-wrong-password");

  await signIn(page, email);
  await expect(page).toHaveURL(/\/user-home$/);
});

test("/sign-in is drawn with the sign-in methods this server offers, from its first paint: no Google here", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/auth/providers")) asked.push(request.url());
  });
  // A slow phone: the page is painted a good while before its code runs.
  await delayCode(page, 1500);
  const response = await page.goto("/sign-in", { waitUntil: "domcontentloaded" });
  const html = (await response?.text()) ?? "";
  expect(html).toContain("Sign in with Contoso");
  expect(html).not.toContain("Continue with Google");

  const below = page.getByRole("link", { name: "Sign up" });
  await expect(page.getByRole("button", { name: "Sign in with Contoso" })).toBeVisible();
  expect(await isAppReady(page)).toBe(false);
  const drawn = await below.boundingBox();
  // React takes the page over as it was drawn: nothing appears, goes or moves.
  await expect.poll(() => isAppReady(page)).toBe(true);
  expect(await below.boundingBox()).toEqual(drawn);
  await expect(page.getByRole("button", { name: "Continue with Google" })).toHaveCount(0);

  // /sign-up is drawn by the code, from what its page said: the same buttons at once, nothing asked.
  await page.goto("/sign-up");
  await expect(page.getByRole("button", { name: "Sign in with Contoso" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue with Google" })).toHaveCount(0);
  expect(asked).toEqual([]);
  expect(errors).toEqual([]);
});

test("a signed-out visitor is sent to sign in from the profile and from role selection", async ({ page }) => {
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fprofile$/);
  await page.goto("/role-selection");
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(toast(page, "Please sign in first")).toBeVisible();
});

test("a sign-in the provider refused comes back to /sign-in with a message", async ({ page }) => {
  await page.goto("/sign-in?error=oauth&error=access_denied");
  await expect(toast(page, "Could not authorize with Google.")).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/sign-in?error=oauth&provider=oidc&error=access_denied");
  await expect(toast(page, "Could not authorize with Contoso.")).toBeVisible();
  await shot(page, "sign-in-oauth-error");
});

test("while the next page's code downloads, the page left takes no input", async ({ page }) => {
  // A slow network: the Forgot Password page's chunk takes 1.5 s. The sign-in page stays on screen
  // meanwhile (a transition) with its own Email field; what was typed there used to be lost with it.
  await page.route(/forgot-password[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto("/sign-in");
  // The link is followed by the app, not the browser: the drawn page has been taken over by React.
  await page.waitForFunction(() =>
    Object.keys(document.getElementById("root") ?? {}).some((key) => key.startsWith("__reactContainer")),
  );
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // (Inert content leaves the accessibility tree, so it is found by its markup here.)
  await expect(page.locator("main#main")).toHaveAttribute("aria-busy", "true");
  await expect(page.locator("main#main h1", { hasText: "Sign In" })).toBeVisible();
  await page.getByLabel("Email").fill("someone@example.test");
  await expect(page.getByRole("heading", { name: "Forgot Password" })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("someone@example.test");
  await expect(page.locator("main#main")).not.toHaveAttribute("aria-busy");
});

test("a person resets a forgotten password by mail, and the link works only once", {
  tag: "@instances",
}, async ({ page }) => {
  const email = `${unique("rita")}@example.test`;
  const newPassword = "a brand new password";
  await signUp(page, "Rita Reset", email, "User");
  await signOut(page);

  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // A move keeps the page on screen until the next one's code is in (a transition): the address changes
  // first, so filling at once could type into the sign-in form's Email, which then leaves.
  await expect(page.getByRole("heading", { name: "Forgot Password" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send Reset Password" }).click();
  await expect(toast(page, "Reset email was sent successfully.")).toBeVisible();
  await shot(page, "forgot-password");

  const mail = await latestMailTo(email);
  const link = mail.match(
    /https?:\/\/[^\s"<>]+\/api\/auth\/reset-password\/[\w-]+\?callbackURL=[^\s"<>]+/,
  )?.[0];
  expect(link, "the mail carries a reset link").toBeTruthy();

  await page.goto(link!);
  await expect(page).toHaveURL(/\/reset-password\?token=/);
  await expect(page.getByRole("heading", { name: "Set a new password" })).toBeVisible();
  await page.getByLabel("New password").fill(newPassword);
  await page.getByLabel("Confirm password").fill(`${newPassword}!`);
  await page.getByRole("button", { name: "Set Password" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await shot(page, "reset-password-mismatch");

  await page.getByLabel("Confirm password").fill(newPassword);
  await page.getByRole("button", { name: "Set Password" }).click();
  await expect(toast(page, "Your password has been reset. Sign in with your new password.")).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in$/);

  await signIn(page, email, password);
  await expect(toast(page, "Wrong user credentials")).toBeVisible();
  await signIn(page, email, newPassword);
  await expect(page).toHaveURL(/\/user-home$/);
  await signOut(page);

  await page.goto(link!);
  await expect(page).toHaveURL(/\/reset-password\?error=/);
  await expect(page.getByText("This reset link is invalid or has expired.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Set Password" })).toHaveCount(0);
  await shot(page, "reset-password-used-link");
  await page.getByRole("link", { name: "Request a new link" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test("an administrator registers with the server's admin key", async ({ page }) => {
  const email = `${unique("adam")}@example.test`;
  await page.goto("/admin-signup");
  await expect(page.getByText("A valid admin key is needed.")).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "admin-signup-mobile");
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByLabel("Name").fill("Adam Admin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Admin Secret Key").fill("not-the-key");
  await page.getByRole("button", { name: "Create Admin Account" }).click();
  await expect(toast(page, "Invalid admin key. Access denied.")).toBeVisible();
  await expect(page).toHaveURL(/\/admin-signup$/);
  await shot(page, "admin-signup-wrong-key");

  await page.getByLabel("Admin Secret Key").fill(settings.adminKey);
  await page.getByRole("button", { name: "Create Admin Account" }).click();
  await expect(toast(page, "Admin account created successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/admin-home$/);
  await expect(page.getByRole("link", { name: "Profile" })).toBeVisible();

  // The address is taken now: a second registration is refused with the generic message.
  await signOut(page);
  await page.goto("/admin-signup");
  await page.getByLabel("Name").fill("Adam Again");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Admin Secret Key").fill(settings.adminKey);
  await page.getByRole("button", { name: "Create Admin Account" }).click();
  await expect(toast(page, "Something went wrong with the admin registration")).toBeVisible();
});

test("a first organisation sign-in chooses a role and lands on that role's home", {
  tag: "@instances",
}, async ({ page }) => {
  const id = unique("olive");
  await setOidcPerson({ sub: id, email: `${id}@org.test`, name: "Olive Oidc" });

  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with Contoso" }).click();
  await expect(page).toHaveURL(/\/role-selection$/);
  await expect(page.getByRole("heading", { name: "Choose Your Role" })).toBeVisible();
  const roles = page.getByRole("radiogroup", { name: "Role" });
  await expect(roles.getByRole("radio", { name: "User" })).toBeChecked();
  await expect(page.getByText("An administrator can change your role later.")).toBeVisible();
  await shot(page, "role-selection");

  // Without a role, no other page opens.
  for (const path of ["/tickets", "/profile", "/user-home"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/role-selection$/);
  }

  await roles.getByRole("radio", { name: "Technician" }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(toast(page, "Role selected successfully!")).toBeVisible();
  await expect(page).toHaveURL(/\/technician-home$/);

  // The role is kept: the next organisation sign-in goes straight home, and role selection is closed.
  await signOut(page);
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in with Contoso" }).click();
  await expect(page).toHaveURL(/\/technician-home$/);
  await page.goto("/role-selection");
  await expect(page).toHaveURL(/\/technician-home$/);
});

test("a person renames themselves on the profile and signs out", async ({ page }) => {
  const email = `${unique("pat")}@example.test`;
  await signUp(page, "Pat Profile", email, "Technician");
  await page.getByRole("link", { name: "Profile" }).click();
  await expect(page.getByRole("heading", { name: "My Profile" })).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  await expect(page.getByText("Technician", { exact: true })).toBeVisible();
  await shot(page, "profile");

  const patches: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "PATCH" && request.url().endsWith("/api/me")) patches.push(request.url());
  });

  // Apply changes without a change sends nothing.
  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByRole("button", { name: "Apply changes" }).click();
  await expect(page.getByRole("button", { name: "Edit" })).toBeVisible();
  expect(patches).toHaveLength(0);

  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByRole("textbox", { name: "Name" }).fill("Pat Renamed");
  await shot(page, "profile-editing");
  await page.getByRole("button", { name: "Apply changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Profile updated successfully" })).toBeVisible();
  expect(patches).toHaveLength(1);
  await page.reload();
  await expect(page.getByText("Pat Renamed").first()).toBeVisible();

  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Sign In" })).toBeVisible();
});

test("a deep link to a ticket opened while signed out lands on that ticket after sign-in", async ({
  page,
}) => {
  const email = `${unique("dee")}@example.test`;
  await signUp(page, "Dee Deeplink", email, "User");
  const ticketId = await createTicketThroughApi(page, { title: "Monitor flickers after lunch" });
  await signOut(page);

  await page.goto(`/tickets/${ticketId}`);
  await expect(page).toHaveURL(new RegExp(`/sign-in\\?next=%2Ftickets%2F${ticketId}$`));
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${ticketId}$`));
  await expect(page.getByText("Monitor flickers after lunch").first()).toBeVisible();

  // Only paths of this site: a next that leads elsewhere is ignored.
  await signOut(page);
  await page.goto("/sign-in?next=%2F%2Fevil.example%2Fsteal");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/localhost:\d+\/user-home$/);
});

test("on a phone, a failed sign-up says so once and the toast never covers the button", async ({ page }) => {
  const email = `${unique("twice")}@example.test`;
  await signUp(page, "Tess Twice", email, "User");
  await signOut(page);
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Tess Again");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  const button = page.getByRole("button", { name: "Sign Up" });
  // Where a thumb leaves it: the button at the very bottom of the screen, where the toast appears.
  await button.evaluate((element) =>
    window.scrollBy(0, element.getBoundingClientRect().bottom - window.innerHeight),
  );
  await button.click();

  const message = toast(page, "Something went wrong with the registration");
  await expect(message).toBeVisible();
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
  await expect(page.getByText("Something went wrong with the registration")).toHaveCount(1);
  const [buttonBox, toastBox] = [await button.boundingBox(), await message.boundingBox()];
  expect(buttonBox!.y + buttonBox!.height).toBeLessThanOrEqual(toastBox!.y);
  await page.screenshot({ path: "/tmp/t3-sign-up-failed-mobile.png" });
});
