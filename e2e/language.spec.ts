import { type Browser, expect, type Page, test } from "@playwright/test";
import { delayCode, isAppReady, settings } from "./support.ts";
import { createTicketThroughApi, detail, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 038: two languages. English (the source texts) and German, chosen from the
// browser's languages, switched on the sign-in page (kept in the browser) and in /profile (kept on the
// person); dates in the active language; the dark theme alongside.

const germanDateTime = /\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/;
const englishDateTime = /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M/;

async function signedOutPage(browser: Browser, locale: string) {
  const context = await browser.newContext({ baseURL: settings.baseURL, locale, colorScheme: "light" });
  return { page: await context.newPage(), close: () => context.close() };
}

const languageSelect = (page: Page, label: "Language" | "Sprache") =>
  page.getByRole("combobox", { name: label });

test("on the sign-in page: to German and back, kept in this browser, and in the dark theme", async ({
  browser,
}) => {
  const { page, close } = await signedOutPage(browser, "en-US");
  await page.goto("/sign-in");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1, name: "Sign In" })).toBeVisible();

  await languageSelect(page, "Language").selectOption("de");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1, name: "Anmelden" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Anmelden", exact: true })).toBeVisible();
  await expect(page.getByLabel("Passwort", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Passwort vergessen?" })).toBeVisible();
  await expect(page).toHaveTitle("Anmelden · Helpdesk");

  // Kept in this browser: a reload starts in German; so do the other account pages.
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1, name: "Anmelden" })).toBeVisible();
  await page.getByRole("link", { name: "Registrieren" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Konto erstellen" })).toBeVisible();
  await page.goto("/sign-in");

  // The dark theme (the device's setting, for someone signed out) in German.
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(page.getByRole("button", { name: "Anmelden", exact: true })).toBeVisible();
  await page.emulateMedia({ colorScheme: "light" });
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);

  await languageSelect(page, "Sprache").selectOption("en");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1, name: "Sign In" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Sign In" })).toBeVisible();
  await close();
});

test("German chosen on the sign-in page before its code has run is applied once the code is there", async ({
  browser,
}) => {
  const { page, close } = await signedOutPage(browser, "en-US");
  // A slow phone: the page's code arrives 1.5 s after the drawn page has been painted.
  await delayCode(page, 1500);
  await page.goto("/sign-in", { waitUntil: "domcontentloaded" });
  expect(await isAppReady(page)).toBe(false);
  await languageSelect(page, "Language").selectOption("de");
  await expect(page.getByRole("heading", { level: 1, name: "Anmelden" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(languageSelect(page, "Sprache")).toHaveValue("de");
  await close();
});

test("a browser that prefers German gets German without choosing", async ({ browser }) => {
  const { page, close } = await signedOutPage(browser, "de-DE");
  await page.goto("/sign-in");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1, name: "Anmelden" })).toBeVisible();
  await close();
});

test("on a ticket page: German chosen in /profile (kept on the person), dark theme, and back", async ({
  browser,
}) => {
  const ada = await signUpInNewBrowser(browser, "Ada", "User");
  const { page } = ada;
  const ticketId = await createTicketThroughApi(page, { title: "Printer on floor 3 is jammed" });

  await page.goto("/profile");
  await languageSelect(page, "Language").selectOption("de");
  await expect(page.getByRole("heading", { level: 1, name: "Mein Profil" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect
    .poll(async () => ((await (await page.request.get("/api/me")).json()) as { locale: string }).locale)
    .toBe("de");

  await page.goto(`/tickets/${ticketId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Printer on floor 3 is jammed" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Zurück zu den Tickets" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Kommentare" })).toBeVisible();
  await expect(detail(page, "Status")).toHaveText("Offen");
  await expect(detail(page, "Erstellt")).toHaveText(germanDateTime);
  await expect(page.getByText(/^Erstellt von .+ am /)).toBeVisible();

  // The dark theme from the header, in German.
  const darkSwitch = page.getByRole("button", { name: "Dunkles Design" });
  await darkSwitch.click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(page.getByRole("heading", { name: "Kommentare" })).toBeVisible();
  await darkSwitch.click();
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);

  // Notifications in German too (decision 059): the ticket by its title, statuses and dates as the screens
  // write them (the auto-close notice only while auto-close is on, which another journey may change).
  const monitorId = await createTicketThroughApi(page, { title: "Monitor flickers" });
  const tess = await signUpInNewBrowser(browser, "Tess", "Technician");
  expect((await tess.page.request.post(`/api/tickets/${monitorId}/assign`)).status()).toBe(200);
  const resolved = await tess.page.request.patch(`/api/tickets/${monitorId}/status`, {
    data: { status: "Resolved" },
  });
  expect(resolved.status()).toBe(200);
  await tess.close();
  await page.goto("/notifications");
  const notifications = page.getByRole("tabpanel").getByRole("listitem");
  await expect(notifications.nth(1)).toContainText(
    `${tess.name} hat Ticket „Monitor flickers“ übernommen; Status jetzt: In Bearbeitung`,
  );
  await expect(notifications.first().getByRole("link")).toHaveText(
    new RegExp(
      `^${tess.name} hat den Status von Ticket „Monitor flickers“ von In Bearbeitung auf Gelöst geändert` +
        `(\\. Es wird am ${germanDateTime.source} automatisch geschlossen, wenn Sie nicht antworten oder es bewerten\\.)?$`,
    ),
  );
  await expect(notifications.first()).toContainText("Gerade eben");

  // Back to English in /profile; the ticket page follows, dates included.
  await page.goto("/profile");
  await languageSelect(page, "Sprache").selectOption("en");
  await expect(page.getByRole("heading", { level: 1, name: "My Profile" })).toBeVisible();
  await page.goto(`/tickets/${ticketId}`);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("link", { name: "Back to tickets" })).toBeVisible();
  await expect(detail(page, "Status")).toHaveText("Open");
  await expect(detail(page, "Created")).toHaveText(englishDateTime);
  await page.goto("/notifications");
  await expect(page.getByRole("tabpanel").getByRole("listitem").first()).toContainText(
    `${tess.name} changed the status of ticket "Monitor flickers" from In Progress to Resolved`,
  );
  await ada.close();
});
