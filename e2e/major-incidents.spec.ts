import { expect, type Page, test } from "@playwright/test";
import {
  axeViolations,
  isAppReady,
  notificationMessages,
  openAppPage,
  screens,
  toast,
  unique,
} from "./support.ts";
import { createTicketThroughApi, signUpInNewBrowser, statusGroup } from "./ticket-support.ts";

// Decision 077: a technician declares a major incident, links two users' tickets to it and posts an update
// that reaches both; a third person finds it on the create form as a known issue and follows it instead of
// raising a ticket; resolving the incident resolves both tickets with the update and tells the follower.
// The incident card, the affected ticket's banner and the create form's known issue are checked by axe at
// 1280 and 375 px, light and dark, in English and German.

/** The page's axe violations once the app has it and its data (decision 036). */
async function audit(page: Page, what: string) {
  await expect.poll(() => isAppReady(page), { timeout: 30_000 }).toBe(true);
  await expect(page.locator("main .animate-spin")).toHaveCount(0);
  return axeViolations(page, what);
}

/** The page in each width, theme and language, audited each time once `ready` saw it; set back to English. */
async function auditEverywhere(page: Page, route: string, what: string, ready: () => Promise<void>) {
  const found: string[] = [];
  for (const locale of ["en", "de"] as const) {
    expect((await page.request.put("/api/me/locale", { data: { locale } })).status()).toBe(200);
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: width > 600 ? 900 : 800 });
        await page.goto(route);
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        await ready();
        found.push(...(await audit(page, `${what} @${width}px ${locale} ${theme}`)));
      }
    }
  }
  expect((await page.request.put("/api/me/locale", { data: { locale: "en" } })).status()).toBe(200);
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
  return found;
}

test("a major incident reaches every affected requester, a known issue is followed instead, and resolving it resolves them", async ({
  browser,
}) => {
  test.setTimeout(420_000);
  const uma = await signUpInNewBrowser(browser, "Uma", "User");
  const olga = await signUpInNewBrowser(browser, "Olga", "User");
  const pia = await signUpInNewBrowser(browser, "Pia", "User");
  const tech = await signUpInNewBrowser(browser, "Theo", "Technician");
  const incident = await createTicketThroughApi(uma.page, { title: `VPN gateway down ${unique("g")}` });
  const umas = await createTicketThroughApi(uma.page, { title: `VPN will not connect ${unique("v")}` });
  const olgas = await createTicketThroughApi(olga.page, { title: `No VPN from home ${unique("h")}` });
  const headline = `VPN unavailable — we are working on it ${unique("i")}`;
  const update = "The gateway is being replaced; expect VPN back within the hour.";

  // The technician declares Uma's first ticket a major incident and links both other tickets at once.
  const page = tech.page;
  await openAppPage(page, `/tickets/${incident}`);
  await page.getByRole("button", { name: "Declare major incident" }).click();
  await page.getByLabel("Headline").fill(headline);
  await page.getByRole("button", { name: "Declare major incident" }).click();
  await expect(toast(page, "Declared a major incident")).toBeVisible();
  const card = page.getByRole("region", { name: "Major incident" });
  await expect(card.getByText(headline)).toBeVisible();
  await card.getByLabel("Add affected tickets").fill(`${umas} ${olgas}`);
  await card.getByRole("button", { name: "Add affected tickets" }).click();
  await expect(toast(page, "2 affected tickets added")).toBeVisible();
  const affected = card.getByRole("list", { name: "Affected tickets" });
  await expect(affected).toContainText(umas);
  await expect(affected).toContainText(olgas);
  await card.getByLabel("Post update").fill(update);
  await card.getByRole("button", { name: "Post update" }).click();
  await expect(toast(page, "Update posted on the incident and 2 affected tickets")).toBeVisible();
  await screens(page, "major-incident-card");

  // Each requester sees the banner and the update on their ticket, and was told of it.
  for (const [person, ticketId] of [
    [uma, umas],
    [olga, olgas],
  ] as const) {
    await openAppPage(person.page, `/tickets/${ticketId}`);
    await expect(
      person.page.getByRole("region", { name: "Major incident" }).getByText(/Affected by a major incident:/),
    ).toContainText(headline);
    await expect(person.page.getByText(update).first()).toBeVisible();
    expect((await notificationMessages(person.page)).some((message) => message.includes(update))).toBe(true);
  }
  await screens(olga.page, "major-incident-banner", { fullPage: false });

  // Pia opens the create form: the known issue is there; she follows it instead.
  await openAppPage(pia.page, "/user-home");
  await pia.page.getByRole("button", { name: "Create New Ticket" }).click();
  const known = pia.page.getByRole("region", { name: "Known issues" });
  await expect(known).toContainText(`Known issue: ${headline} — Open`);
  await screens(pia.page, "major-incident-known-issue", { fullPage: false });
  await known.getByRole("button", { name: `Follow instead: ${headline}` }).click();
  await expect(
    known.getByText("You are following this known issue; you will be told of updates."),
  ).toBeVisible();
  await known.getByRole("link", { name: "See the known issue" }).click();
  await expect(pia.page).toHaveURL(new RegExp(`/known-issues/${incident}$`));
  await expect(pia.page.getByRole("heading", { name: headline })).toBeVisible();
  await expect(pia.page.getByText(update)).toBeVisible();
  await expect(pia.page.getByRole("button", { name: "Stop following" })).toBeVisible();

  const violations = await auditEverywhere(page, `/tickets/${incident}`, "incident card", async () => {
    await expect(page.getByRole("list", { name: /Affected tickets|Betroffene Tickets/ })).toBeVisible();
  });
  violations.push(
    ...(await auditEverywhere(olga.page, `/tickets/${olgas}`, "affected ticket banner", async () => {
      await expect(olga.page.getByText(headline).first()).toBeVisible();
    })),
    ...(await auditEverywhere(pia.page, "/user-home?new-ticket", "create form known issue", async () => {
      await expect(pia.page.getByText(headline).first()).toBeVisible();
    })),
    ...(await auditEverywhere(pia.page, `/known-issues/${incident}`, "known issue page", async () => {
      await expect(pia.page.getByRole("heading", { name: headline })).toBeVisible();
    })),
  );

  // The technician resolves the incident: both tickets are Resolved with the update, and Pia is told.
  await openAppPage(page, `/tickets/${incident}`);
  await statusGroup(page).getByRole("button", { name: "Resolved" }).click();
  await expect(toast(page, "Ticket status updated")).toBeVisible();
  for (const [person, ticketId] of [
    [uma, umas],
    [olga, olgas],
  ] as const) {
    const ticket = await person.page.request.get(`/api/tickets/${ticketId}`);
    expect(((await ticket.json()) as { status: string }).status).toBe("Resolved");
    const activity = await person.page.request.get(`/api/tickets/${ticketId}/activity`);
    const comments = ((await activity.json()) as { comments: { message: string }[] }).comments;
    expect(comments.map((comment) => comment.message)).toEqual([update, update]);
  }
  expect(
    (await notificationMessages(pia.page)).some((message) => message.startsWith("Known issue resolved")),
  ).toBe(true);

  expect(violations).toEqual([]);
  await uma.close();
  await olga.close();
  await pia.close();
  await tech.close();
});
