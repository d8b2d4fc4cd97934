import { expect, test } from "@playwright/test";
import type { BusinessCalendar } from "#shared/service-levels/business-calendar.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { advanceServerClock, runDueJobs, unique } from "./support.ts";
import { adminInNewBrowser, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 019: an admin promises a first response in an hour for High; a High ticket shows the technician
// its countdown on the server's clock; with that clock moved past the hour (a test-only clock in the e2e
// server, never in production) the ticket turns overdue and the technicians are told.

const roundTheClock = (): BusinessCalendar => {
  const day = [{ open: "00:00", close: "24:00" }];
  return {
    timeZone: "UTC",
    workingHours: {
      Monday: day,
      Tuesday: day,
      Wednesday: day,
      Thursday: day,
      Friday: day,
      Saturday: day,
      Sunday: day,
    },
    holidays: [],
  };
};

test("an admin sets a 1-hour first response for High; the countdown runs out and the technician is told", async ({
  browser,
}) => {
  const admin = await adminInNewBrowser(browser, "Ada");
  // Business hours round the clock, so that the hour is an hour whenever the journey runs (the calendar
  // editor has its own journey); the calendar in force before is put back at the end.
  const calendarUrl = "/api/admin/settings/business-calendar";
  const previousCalendar = (
    (await (await admin.page.request.get(calendarUrl)).json()) as { value: BusinessCalendar }
  ).value;
  expect((await admin.page.request.put(calendarUrl, { data: roundTheClock() })).status()).toBe(200);
  await admin.page.goto("/admin/settings?tab=service-levels");
  await expect(admin.page.getByRole("heading", { name: "Service levels" })).toBeVisible();
  await admin.page.getByLabel("High first response hours").fill("1");
  await admin.page.getByLabel("High first response minutes").fill("0");
  // A refusal is shown at the field it concerns, before anything is sent.
  await admin.page.getByLabel("Due soon window (minutes)").fill("0");
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(
    admin.page.getByText("Due soon window must be a whole number of minutes from 1 to 10080"),
  ).toBeVisible();
  await admin.page.getByLabel("Due soon window (minutes)").fill("60");
  await admin.page.getByRole("button", { name: "Save" }).click();
  await expect(admin.page.getByText("Settings saved")).toBeVisible();
  await admin.page.screenshot({
    path: "e2e/.artifacts/screens/service-levels-settings-1280.png",
    fullPage: true,
  });

  const user = await signUpInNewBrowser(browser, "Uma", "User");
  const title = `VPN drops every hour ${unique("sla")}`;
  await user.page.goto("/tickets");
  await user.page.getByRole("button", { name: "Create New Ticket" }).click();
  const form = user.page.getByRole("region", { name: "Create New Ticket" });
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Description").fill("The VPN disconnects every hour since Monday.");
  await form.getByLabel("Category").selectOption("Network");
  await form.getByLabel("Priority").selectOption("High");
  await form.getByLabel("Office Number").fill("101");
  await form.getByRole("button", { name: "Submit Ticket" }).click();
  const row = user.page.getByRole("link", { name: new RegExp(title) });
  await expect(row).toBeVisible();
  // Service levels are the team's: the creator sees no countdown.
  await row.click();
  await expect(user.page.getByRole("heading", { name: title })).toBeVisible();
  await expect(user.page.getByRole("heading", { name: "Service level" })).toHaveCount(0);

  const tech = await signUpInNewBrowser(browser, "Theo", "Technician");
  await tech.page.getByRole("tab", { name: "Unassigned" }).click();
  await tech.page.getByRole("link", { name: new RegExp(title) }).click();
  await expect(tech.page.getByRole("heading", { name: "Service level" })).toBeVisible();
  // Time left until the due time, whatever the hour the journey runs (business hours move the due time).
  await expect(tech.page.getByText(/^(\d+[dhm]( \d+[hm])?|under a minute) left$/).first()).toBeVisible();
  await tech.page.screenshot({
    path: "e2e/.artifacts/screens/service-levels-ticket-1280.png",
    fullPage: true,
  });
  const ticketId = tech.page.url().split("/").at(-1)!;
  const { sla } = (await (await tech.page.request.get(`/api/tickets/${ticketId}`)).json()) as Ticket;
  const dueAt = Date.parse(sla!.firstResponse.dueAt!);
  const serverNow = Date.parse(sla!.serverNow);
  // The hour was counted from the ticket's creation, round the clock.
  expect(dueAt - serverNow).toBeGreaterThan(50 * 60_000);
  expect(dueAt - serverNow).toBeLessThanOrEqual(60 * 60_000);

  // Two minutes past the due time on the server's clock, and the scheduled jobs run.
  await advanceServerClock(dueAt - serverNow + 2 * 60_000);
  expect(await runDueJobs()).toContain("sla-escalation");
  await tech.page.reload();
  await expect(tech.page.getByText(/^Overdue by \d+m$/).first()).toBeVisible();
  await tech.page.getByRole("button", { name: /^Open notifications/ }).click();
  const panel = tech.page.getByRole("region", { name: "Notifications", exact: true });
  await expect(panel.getByText(`First response target missed on ticket "${title}"`)).toBeVisible();
  await tech.page.screenshot({
    path: "e2e/.artifacts/screens/service-levels-overdue-1280.png",
    fullPage: true,
  });
  // The dashboard counts it as overdue, and its card opens the overdue list with the ticket in it.
  await tech.page.goto("/technician-home");
  await tech.page
    .getByRole("link", { name: /Overdue/ })
    .first()
    .click();
  await expect(tech.page).toHaveURL(/due=overdue/);
  await expect(tech.page.getByRole("link", { name: new RegExp(title) })).toBeVisible();

  // The creator is not told of the team's targets.
  await user.page.reload();
  await expect(user.page.getByText(/First response target missed/)).toHaveCount(0);

  expect((await admin.page.request.put(calendarUrl, { data: previousCalendar })).status()).toBe(200);
  await Promise.all([admin.close(), user.close(), tech.close()]);
});
