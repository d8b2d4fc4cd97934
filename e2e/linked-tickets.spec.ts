import { expect, type Page, test } from "@playwright/test";
import { axeViolations, isAppReady, openAppPage, screens, toast, unique } from "./support.ts";
import { adminInNewBrowser, createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 074: staff link two tickets and merge a duplicate; the requester of the duplicate is pointed to
// where it went (a link when the target is theirs too, its number only when it is someone else's). The
// ticket page with the Linked tickets card, the merge dialog and the banners are checked by axe at 1280 and
// 375 px, light and dark, in English and German.

/** The page's axe violations once the app has it and its data (decision 036). */
async function audit(page: Page, what: string) {
  await expect.poll(() => isAppReady(page), { timeout: 30_000 }).toBe(true);
  await expect(page.locator("main .animate-spin")).toHaveCount(0);
  return axeViolations(page, what);
}

/** The page in each width, theme and language, audited each time; the language set back to English. */
async function auditEverywhere(page: Page, route: string, what: string, open?: () => Promise<void>) {
  const found: string[] = [];
  for (const locale of ["en", "de"] as const) {
    expect((await page.request.put("/api/me/locale", { data: { locale } })).status()).toBe(200);
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: width > 600 ? 900 : 800 });
        await page.goto(route);
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        await expect(page.locator("main h1").first()).toBeVisible();
        await open?.();
        found.push(...(await audit(page, `${what} @${width}px ${locale} ${theme}`)));
      }
    }
  }
  expect((await page.request.put("/api/me/locale", { data: { locale: "en" } })).status()).toBe(200);
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
  return found;
}

test("staff link tickets and merge a duplicate; each requester is pointed where it went, and no further", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const uma = await signUpInNewBrowser(browser, "Uma", "User");
  const olga = await signUpInNewBrowser(browser, "Olga", "User");
  const admin = await adminInNewBrowser(browser, "Ada");
  const main = await createTicketThroughApi(uma.page, { title: `Wi-Fi down on floor 3 ${unique("w")}` });
  const again = await createTicketThroughApi(uma.page, { title: `No internet at my desk ${unique("n")}` });
  const theirs = await createTicketThroughApi(olga.page, { title: `Laptop offline ${unique("l")}` });

  // Link: "this ticket is related to …", by its id; the link shows on both tickets.
  const page = admin.page;
  await openAppPage(page, `/tickets/${again}`);
  const card = page.getByRole("heading", { name: "Linked tickets" }).locator("..");
  await expect(card.getByText("No linked tickets.")).toBeVisible();
  await card.getByLabel("Link another ticket: this ticket is").selectOption("related");
  await card.getByLabel("Ticket to link").fill(main);
  await card.getByRole("button", { name: "Add link" }).click();
  await expect(toast(page, `Linked to ${main}`)).toBeVisible();
  await expect(card.getByRole("list", { name: "Linked tickets" })).toContainText(main);
  await openAppPage(page, `/tickets/${main}`);
  await expect(page.getByRole("list", { name: "Linked tickets" })).toContainText(again);
  await screens(page, "links-staff-ticket");

  const violations = await auditEverywhere(page, `/tickets/${again}`, "staff ticket page");
  violations.push(
    ...(await auditEverywhere(page, `/tickets/${again}`, "merge dialog", async () => {
      await page.getByRole("button", { name: /Merge into…|Zusammenführen mit…/ }).click();
      await page.getByRole("dialog").getByRole("textbox").fill(theirs);
      await expect(page.getByRole("dialog").getByText(/Laptop offline/)).toBeVisible();
    })),
  );

  // Merge Uma's duplicate into her own ticket: the dialog says what moves first.
  await openAppPage(page, `/tickets/${again}`);
  await page.getByRole("button", { name: "Merge into…" }).click();
  const dialog = page.getByRole("dialog", { name: `Merge ${again} into another ticket` });
  await dialog.getByLabel("Merge into").fill(main);
  await expect(dialog.getByText(/The comments, internal notes and files of/)).toBeVisible();
  await expect(dialog.getByText(/was raised by someone else/)).toHaveCount(0);
  await dialog.getByRole("button", { name: `Merge into ${main}` }).click();
  await expect(toast(page, `Merged into ${main}`)).toBeVisible();
  await expect(page.getByText(/Merged into/).first()).toBeVisible();

  // Merge Olga's ticket into Uma's: the dialog warns that the requesters differ.
  await openAppPage(page, `/tickets/${theirs}`);
  await page.getByRole("button", { name: "Merge into…" }).click();
  const second = page.getByRole("dialog");
  await second.getByLabel("Merge into").fill(main);
  await expect(second.getByText(/was raised by someone else/)).toBeVisible();
  await screens(page, "links-merge-dialog", { fullPage: false });
  await second.getByRole("button", { name: `Merge into ${main}` }).click();
  await expect(toast(page, `Merged into ${main}`)).toBeVisible();

  // Uma: her duplicate points to her other ticket, with a link that opens it.
  await openAppPage(uma.page, `/tickets/${again}`);
  const pointer = uma.page.getByRole("link", { name: new RegExp(`${main} · Wi-Fi down`) });
  await expect(pointer).toBeVisible();
  await pointer.click();
  await expect(uma.page).toHaveURL(new RegExp(`/tickets/${main}$`));
  await expect(uma.page.getByRole("heading", { name: "Linked tickets" })).toHaveCount(0);

  // Olga: her ticket names the target's number only; opening it is "not found".
  await openAppPage(olga.page, `/tickets/${theirs}`);
  await expect(olga.page.getByText(/The team continues the conversation on that ticket/)).toBeVisible();
  await expect(olga.page.getByRole("link", { name: new RegExp(main) })).toHaveCount(0);
  await screens(olga.page, "links-merged-requester", { fullPage: false });
  violations.push(...(await auditEverywhere(olga.page, `/tickets/${theirs}`, "merged ticket, requester")));
  await olga.page.goto(`/tickets/${main}`);
  await expect(olga.page.getByRole("heading", { name: "Ticket not found" })).toBeVisible();

  expect(violations).toEqual([]);
  await uma.close();
  await olga.close();
  await admin.close();
});
