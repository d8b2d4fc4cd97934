import { expect, type Page, test } from "@playwright/test";
import { advanceServerClock, runDueJobs, setTicketDueTimes, unique } from "./support.ts";
import { createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 020 in the browser: with the server's clock moved forward (a test-only clock, never in
// production) and the due jobs run, the technicians are warned before a ticket's first-response target and
// told when it is missed, in the bell and on the ticket's timeline; the ticket's creator is told nothing.
// The due times are set directly here; the SLA policies compute them once merged. Other journeys' tickets
// on the shared e2e database also have targets (the default policy), and moving the clock warns about them
// too, so the bell is read for this ticket's notifications, not for a total.

const minute = 60_000;
/** "Nov 21, 2025, 5:33 AM": how the screens write a date for an English reader. */
const englishDateTime = /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M/;
const bell = (page: Page) => page.getByRole("button", { name: /^Open notifications/ });
const unreadBell = (page: Page, unread: number) =>
  page.getByRole("button", { name: `Open notifications (${unread} unread)` });
/** How many unread notifications the bell says there are. */
async function unreadCount(page: Page) {
  const name = (await bell(page).getAttribute("aria-label")) ?? (await bell(page).innerText());
  return Number(/\((\d+) unread\)/.exec(name)?.[1] ?? 0);
}

/** Opens the page and waits until its live stream answered, so what follows is pushed, not polled. */
async function openWithLiveStream(page: Page, path: string) {
  const stream = page.waitForResponse((response) => response.url().includes("/api/notifications/stream"));
  await page.goto(path);
  expect((await stream).status()).toBe(200);
}

test("a technician is warned before a first-response target and told when it is missed", {
  tag: "@instances",
}, async ({ browser }) => {
  const tech = await signUpInNewBrowser(browser, "Tess", "Technician");
  const user = await signUpInNewBrowser(browser, "Ulla", "User");
  const title = `Laptop will not boot ${unique("sla")}`;
  const ticketId = await createTicketThroughApi(user.page, { title, priority: "High" });
  await setTicketDueTimes(ticketId, { firstResponse: { warnInMs: 48 * minute, dueInMs: 60 * minute } });
  await openWithLiveStream(tech.page, "/technician-home");
  // The new-ticket broadcast.
  await expect(unreadBell(tech.page, 1)).toBeVisible();

  // 49 minutes later (80% of the hour has passed): a warning, pushed to the open page.
  let before = await unreadCount(tech.page);
  await advanceServerClock(49 * minute);
  expect(await runDueJobs()).toContain("sla-escalation");
  await expect.poll(() => unreadCount(tech.page)).toBeGreaterThan(before);
  await bell(tech.page).click();
  const panel = tech.page.getByRole("region", { name: "Notifications", exact: true });
  const aboutThisTicket = (text: string | RegExp) => panel.getByRole("listitem").filter({ hasText: text });
  // The due time itself, in the screens' format (decision 059), and the ticket by its title.
  await expect(
    aboutThisTicket(new RegExp(`First response due ${englishDateTime.source} on ticket "${title}"`)),
  ).toHaveCount(1);
  await bell(tech.page).click();

  // The hour is up: the breach, once, however often the jobs run.
  before = await unreadCount(tech.page);
  await advanceServerClock(12 * minute);
  expect(await runDueJobs()).toContain("sla-escalation");
  await expect.poll(() => unreadCount(tech.page)).toBeGreaterThan(before);
  await advanceServerClock(2 * minute);
  await runDueJobs();
  await bell(tech.page).click();
  const missed = `First response target missed on ticket "${title}"`;
  await expect(aboutThisTicket(missed)).toHaveCount(1);
  await expect(aboutThisTicket(/First response due /).filter({ hasText: title })).toHaveCount(1);
  await tech.page.screenshot({ path: "/tmp/escalation-bell.png" });

  // The ticket's timeline tells staff both, with no "who".
  await panel.getByRole("link", { name: `First response target missed on ticket "${title}"` }).click();
  await expect(tech.page).toHaveURL(new RegExp(`/tickets/${ticketId}$`));
  const timeline = tech.page.getByRole("list", { name: "Ticket activity" });
  await expect(timeline.getByText(/^First response due in 1[01]m$/)).toBeVisible();
  await expect(timeline.getByText("First response target missed", { exact: true })).toBeVisible();
  await tech.page.screenshot({ path: "/tmp/escalation-timeline.png", fullPage: true });

  // The creator hears nothing of it and does not see it on their ticket.
  await user.page.goto(`/tickets/${ticketId}`);
  await expect(user.page.getByRole("list", { name: "Ticket activity" })).toContainText("created the ticket");
  await expect(user.page.getByText(/First response/)).toHaveCount(0);
  await expect(bell(user.page)).toHaveAccessibleName("Open notifications");

  await Promise.all([user.close(), tech.close()]);
});
