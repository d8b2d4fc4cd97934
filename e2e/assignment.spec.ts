import { expect, type Page, test } from "@playwright/test";
import { isAppReady, unique } from "./support.ts";
import { adminInNewBrowser, createTicketThroughApi, detail, signUpInNewBrowser } from "./ticket-support.ts";

// Assignment by others, each person in their own browser context.

const bell = (page: Page) => page.getByRole("button", { name: /^Open notifications/ });
const timeline = (page: Page) => page.getByRole("list", { name: "Ticket activity" });

test("an admin reassigns a ticket and the new technician is notified; then returns it to the queue", {
  tag: "@instances",
}, async ({ browser }) => {
  const title = `Laptop will not boot ${unique("as")}`;
  const user = await signUpInNewBrowser(browser, "Una", "User");
  const theo = await signUpInNewBrowser(browser, "Theo", "Technician");
  const tara = await signUpInNewBrowser(browser, "Tara", "Technician");
  const admin = await adminInNewBrowser(browser, "Ada");

  const ticketId = await createTicketThroughApi(user.page, { title });
  expect((await theo.page.request.post(`/api/tickets/${ticketId}/assign`)).status()).toBe(200);

  // Tara keeps her home page open: the notification arrives live.
  const stream = tara.page.waitForResponse((response) =>
    response.url().includes("/api/notifications/stream"),
  );
  await tara.page.goto("/technician-home");
  expect((await stream).status()).toBe(200);
  const unreadBefore = await bell(tara.page).getAttribute("aria-label");

  await admin.page.goto(`/tickets/${ticketId}`);
  await expect(detail(admin.page, "Assigned to")).toHaveText(theo.name);
  const assignTo = admin.page.getByLabel("Assign to…");
  await expect(assignTo.getByRole("option")).toContainText(["Unassigned (queue)", tara.name]);
  // What the app does with the choice is tested here: after it has the drawn page (decision 065).
  await expect.poll(() => isAppReady(admin.page)).toBe(true);
  await assignTo.selectOption({ label: tara.name });
  await admin.page.getByRole("button", { name: "Assign", exact: true }).click();
  await expect(admin.page.getByText(`Ticket assigned to ${tara.name}`)).toBeVisible();
  await expect(detail(admin.page, "Assigned to")).toHaveText(tara.name);
  await expect(detail(admin.page, "Status")).toHaveText("In Progress");
  await expect(timeline(admin.page)).toContainText(`${admin.name}·assigned it to ${tara.name}`);

  // Tara's bell counts it without a reload, and says who gave her which ticket.
  await expect(bell(tara.page)).toHaveAccessibleName(/unread/);
  await expect(bell(tara.page)).not.toHaveAccessibleName(unreadBefore ?? "");
  await bell(tara.page).click();
  const panel = tara.page.getByRole("region", { name: "Notifications", exact: true });
  await expect(
    panel
      .getByRole("listitem")
      .filter({ hasText: `${admin.name} assigned ticket "${title}" to ${tara.name}` }),
  ).toBeVisible();
  await tara.page.screenshot({ path: "/tmp/assignment-technician-bell.png" });

  // Back to the queue: Open again, so any technician can Assign to Me.
  await assignTo.selectOption({ label: "Unassigned (queue)" });
  await admin.page.getByRole("button", { name: "Assign", exact: true }).click();
  await expect(admin.page.getByText("Ticket returned to the queue")).toBeVisible();
  await expect(detail(admin.page, "Assigned to")).toHaveText("Unassigned");
  await expect(detail(admin.page, "Status")).toHaveText("Open");
  await expect(timeline(admin.page)).toContainText("returned it to the queue");
  await admin.page.screenshot({ path: "/tmp/assignment-admin-ticket.png", fullPage: true });

  await theo.page.goto(`/tickets/${ticketId}`);
  await expect(theo.page.getByRole("button", { name: "Assign to Me" })).toBeVisible();
  await Promise.all([user.close(), theo.close(), tara.close(), admin.close()]);
});
