import { expect, type Page, test } from "@playwright/test";
import { openWithLiveStream, unique } from "./support.ts";
import { createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Journeys of the notifications capability: live alerts across two browsers, the bell and /notifications.

/**
 * Script errors (uncaught, unhandled rejections, console.error): blocked audio before the first click must
 * cause none. Chromium's own lines about failed requests are not script errors and are left out.
 */
function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      errors.push(message.text());
    }
  });
  return errors;
}

const bell = (page: Page) => page.getByRole("button", { name: /^Open notifications/ });
const unreadBell = (page: Page, unread: number) =>
  page.getByRole("button", { name: `Open notifications (${unread} unread)` });

test("live alerts: a technician hears of a new ticket within a second, the user of the technician's comment", {
  tag: "@instances",
}, async ({ browser }) => {
  const title = `Monitor flickers ${unique("nt")}`;
  const tech = await signUpInNewBrowser(browser, "Tess", "Technician");
  const user = await signUpInNewBrowser(browser, "Ulla", "User");
  const techErrors = collectErrors(tech.page);
  await openWithLiveStream(tech.page, "/technician-home");
  await expect(bell(tech.page)).toHaveAccessibleName("Open notifications");

  // The user raises a ticket; the technician's open page alerts without a reload.
  const ticketId = await createTicketThroughApi(user.page, { title, department: "Finance", floor: "3" });
  const alert = tech.page.getByText("NEW TICKET CREATED - 15 second alert for technician");
  await expect(alert).toBeVisible({ timeout: 1_000 });
  await expect(unreadBell(tech.page, 1)).toBeVisible({ timeout: 1_000 });
  await expect(tech.page.locator(".toasts--top-center")).toContainText("NEW TICKET CREATED");
  // The new ticket is in the technician's list too, without a reload.
  await expect(tech.page.getByRole("link", { name: new RegExp(ticketId) })).toBeVisible();
  await tech.page.screenshot({ path: "/tmp/notify-technician-alert.png" });
  await tech.page.getByRole("button", { name: "Silence" }).click();
  await expect(alert).toBeHidden();

  // The bell lists it; it links to the ticket.
  await bell(tech.page).click();
  const panel = tech.page.getByRole("region", { name: "Notifications", exact: true });
  await expect(panel.getByRole("listitem").first()).toContainText(`NEW TICKET CREATED: ${title}`);
  await expect(panel.getByRole("listitem").first()).toContainText("Just now");
  await panel.getByRole("link", { name: new RegExp(title) }).click();
  await expect(tech.page).toHaveURL(new RegExp(`/tickets/${ticketId}$`));

  // The user watches their ticket; the technician's comment appears there and the user is told.
  await openWithLiveStream(user.page, `/tickets/${ticketId}`);
  const comments = tech.page.getByRole("region", { name: /Comments/ });
  await comments.getByLabel("Add a comment").fill("Swapping the cable now.");
  await comments.getByRole("button", { name: "Add Comment" }).click();
  await expect(user.page.getByText("New notification received")).toBeVisible({ timeout: 2_000 });
  await expect(user.page.getByText("Swapping the cable now.", { exact: true })).toBeVisible();
  await expect(unreadBell(user.page, 1)).toBeVisible();
  await user.page.screenshot({ path: "/tmp/notify-user-alert.png" });

  // The browser refused the alert sound (no click yet on that page): that raised no error.
  expect(techErrors).toEqual([]);
  await Promise.all([user.close(), tech.close()]);
});

test("/notifications: tabs with counts, Mark as read, Mark All as Read", { tag: "@instances" }, async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Nora", "User");
  const tech = await signUpInNewBrowser(browser, "Nico", "Technician");
  const ticketId = await createTicketThroughApi(user.page, { title: `Keyboard ${unique("nc")}` });
  for (const message of ["First reply", "Second reply", "Third reply"]) {
    const response = await tech.page.request.post(`/api/tickets/${ticketId}/comments`, { data: { message } });
    expect(response.status()).toBe(201);
  }

  await user.page.goto("/notifications");
  const tab = (name: string) => user.page.getByRole("tab", { name });
  await expect(tab("All (3)")).toHaveAttribute("aria-selected", "true");
  await expect(tab("Unread (3)")).toBeVisible();
  await expect(tab("Read (0)")).toBeVisible();
  const list = user.page.getByRole("tabpanel");
  await expect(list.getByRole("listitem")).toHaveCount(3);
  await expect(list.getByRole("listitem").first()).toContainText("Third reply");

  // One read.
  await list.getByRole("listitem").first().getByRole("button", { name: "Mark as read" }).click();
  await expect(user.page.getByText("Notification marked as read")).toBeVisible();
  await expect(tab("Unread (2)")).toBeVisible();
  await expect(tab("Read (1)")).toBeVisible();
  await tab("Read (1)").click();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("listitem")).toContainText("Third reply");
  await tab("Unread (2)").click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await user.page.screenshot({ path: "/tmp/notify-page-unread.png", fullPage: true });

  // All read.
  await user.page.getByRole("button", { name: "Mark All as Read" }).click();
  await expect(user.page.getByText("All notifications marked as read")).toBeVisible();
  await expect(tab("Unread (0)")).toBeVisible();
  await expect(tab("Read (3)")).toBeVisible();
  await expect(list.getByText("No unread notifications")).toBeVisible();
  await expect(bell(user.page)).toHaveAccessibleName("Open notifications");

  // Each item opens its ticket.
  await tab("All (3)").click();
  await list.getByRole("link", { name: /Second reply/ }).click();
  await expect(user.page).toHaveURL(new RegExp(`/tickets/${ticketId}$`));

  await Promise.all([user.close(), tech.close()]);
});
