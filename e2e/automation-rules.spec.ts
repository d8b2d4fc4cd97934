import { type APIResponse, expect, type Page, test } from "@playwright/test";
import { axeViolations, isAppReady, openAppPage, screens, toast } from "./support.ts";
import { adminInNewBrowser, createTicketThroughApi, detail, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 076: an administrator writes an automation rule in /admin/automation (a title with "vpn" goes to
// the team Network, priority High, tag vpn, an internal note), tries it on the open tickets, saves it and
// switches it on; a user's VPN ticket is born with what the rule gave it, and the timeline names the rule.
// Then the page and the form at 1280 and 375 px, light and dark, English and German, checked by axe. The
// rule and the team are deleted at the end, so the journeys after this one see tickets as they raise them.

const ruleName = "VPN to Network";

async function ok(response: Promise<APIResponse>, status = 200) {
  const answer = await response;
  expect(answer.status(), await answer.text()).toBe(status);
  return answer;
}

const combinations = [
  { locale: "en", theme: "light" },
  { locale: "en", theme: "dark" },
  { locale: "de", theme: "light" },
  { locale: "de", theme: "dark" },
] as const;
const labels = {
  en: { edit: `Edit ${ruleName}`, form: "Edit automation rule", try: "Try", matched: "Would match" },
  de: {
    edit: `${ruleName} bearbeiten`,
    form: "Automatisierungsregel bearbeiten",
    try: "Ausprobieren",
    matched: "Träfe auf",
  },
};

/** The list and the rule's form (tried), in each language, theme and width: photographed and run by axe. */
async function auditScreens(page: Page) {
  const found: string[] = [];
  for (const { locale, theme } of combinations) {
    await ok(page.request.put("/api/me/locale", { data: { locale } }));
    await page.emulateMedia({ colorScheme: theme });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 812 });
      await openAppPage(page, "/admin/automation");
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.getByRole("switch", { name: ruleName })).toBeVisible();
      await expect(page.locator("main .animate-spin")).toHaveCount(0);
      const at = `${locale}-${theme}-${width}`;
      await page.screenshot({ path: `e2e/.artifacts/screens/automation-list-${at}.png`, fullPage: true });
      found.push(...(await axeViolations(page, `/admin/automation @${width}px ${locale} ${theme}`)));

      await page.getByRole("button", { name: labels[locale].edit }).click();
      const form = page.getByRole("region", { name: labels[locale].form });
      await form.getByRole("button", { name: labels[locale].try, exact: true }).click();
      await expect(form.getByText(labels[locale].matched)).toBeVisible();
      await page.screenshot({ path: `e2e/.artifacts/screens/automation-form-${at}.png`, fullPage: true });
      found.push(...(await axeViolations(page, `the rule's form @${width}px ${locale} ${theme}`)));
    }
  }
  await ok(page.request.put("/api/me/locale", { data: { locale: "en" } }));
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
  return found;
}

test("an admin writes a rule, tries it, switches it on, and a VPN ticket is born in the team with the rule's changes", async ({
  browser,
}) => {
  test.setTimeout(600_000);
  const admin = await adminInNewBrowser(browser, "Ada");
  const user = await signUpInNewBrowser(browser, "Ulf", "User");
  const team = (await (
    await ok(
      admin.page.request.post("/api/teams", {
        data: { name: "Network", description: "Routers, VPN and Wi-Fi", memberIds: [], leadId: null },
      }),
      201,
    )
  ).json()) as { id: string };
  // An open VPN ticket from before the rule: Try counts it; the rule never changes it (it did not change).
  await createTicketThroughApi(user.page, { title: "VPN drops every ten minutes" });

  // The page, from the admin's home, with nothing on it yet.
  await expect.poll(() => isAppReady(admin.page), { timeout: 30_000 }).toBe(true);
  await admin.page.getByRole("link", { name: "Automation rules" }).click();
  await expect(admin.page).toHaveURL(/\/admin\/automation$/);
  await expect(admin.page.getByRole("heading", { level: 1, name: "Automation rules" })).toBeVisible();
  await expect(admin.page.getByText("No automation rules yet")).toBeVisible();
  await screens(admin.page, "automation-empty");

  // The rule: a title with "vpn" → team Network, priority High, tag vpn, an internal note.
  await admin.page.getByRole("button", { name: "New rule" }).click();
  const form = admin.page.getByRole("region", { name: "New automation rule" });
  // Exact: the form's "Notify people" checkboxes are labelled with names (another journey's "Pat Renamed").
  await form.getByLabel("Name", { exact: true }).fill(ruleName);
  await expect(form.getByLabel("When it runs", { exact: true })).toHaveValue("created");
  await form.getByRole("button", { name: "Add condition" }).click();
  const words = form.getByRole("group", { name: "Condition 1" });
  await expect(words.getByLabel("Field", { exact: true })).toHaveValue("words");
  await words.getByLabel(/Words or phrases/).fill("vpn");
  await form.getByLabel("Move to team", { exact: true }).selectOption({ label: "Network" });
  await form.getByLabel("Set priority", { exact: true }).selectOption("High");
  await form.getByLabel("Add tags", { exact: true }).fill("vpn");
  await form
    .getByLabel("Internal note (optional)", { exact: true })
    .fill("Probably the VPN gateway: check it before the laptop.");

  // Try: the open VPN ticket is among those it would match, named and linked.
  await form.getByRole("button", { name: "Try", exact: true }).click();
  await expect(form.getByText(/Would match [1-9]\d* of \d+ open tickets?/)).toBeVisible();
  await expect(form.getByRole("link", { name: "VPN drops every ten minutes" })).toBeVisible();
  await screens(admin.page, "automation-new-form");

  await form.getByRole("button", { name: "Add rule" }).click();
  await expect(toast(admin.page, "Rule added")).toBeVisible();
  const entry = admin.page.getByRole("list", { name: "Automation rules" }).getByRole("listitem");
  await expect(entry).toContainText(ruleName);
  await expect(entry).toContainText("When a ticket is created");
  await expect(entry).toContainText("Title has “vpn”");
  await expect(entry).toContainText("Team: Network, Priority: High, add tag vpn, internal note");
  // A new rule starts off; the admin switches it on.
  const toggle = admin.page.getByRole("switch", { name: ruleName });
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await toggle.click();
  await expect(toast(admin.page, `“${ruleName}” is on`)).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-checked", "true");

  // A user raises a VPN ticket; it is born in the team, High, tagged, with the note.
  const ticketId = await createTicketThroughApi(user.page, { title: "VPN down on floor 3", priority: "Low" });
  await openAppPage(admin.page, `/tickets/${ticketId}`);
  await expect(admin.page.getByRole("combobox", { name: "Team" }).locator("option:checked")).toHaveText(
    "Network",
  );
  await expect(detail(admin.page, "Priority")).toHaveText(/High/);
  await expect(admin.page.getByRole("button", { name: "Remove tag vpn" })).toBeVisible();
  await expect(
    admin.page.getByText("Probably the VPN gateway: check it before the laptop.", { exact: true }),
  ).toBeVisible();
  const timeline = admin.page.getByRole("list", { name: "Ticket activity" });
  await expect(timeline).toContainText(`The automation rule “${ruleName}” changed the ticket`);
  await screens(admin.page, "automation-ticket");

  // The page and the form in every language, theme and width, axe clean.
  expect(await auditScreens(admin.page)).toEqual([]);

  // The rule and the team go, so the journeys after this one are not touched by them.
  await openAppPage(admin.page, "/admin/automation");
  await admin.page.getByRole("button", { name: `Delete ${ruleName}` }).click();
  await admin.page
    .getByRole("dialog", { name: `Delete the rule “${ruleName}”?` })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(toast(admin.page, "Rule deleted")).toBeVisible();
  await expect(admin.page.getByText("No automation rules yet")).toBeVisible();
  await ok(admin.page.request.delete(`/api/teams/${team.id}`), 204);

  await user.close();
  await admin.close();
});
