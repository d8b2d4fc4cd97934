import { expect, test } from "@playwright/test";
import { isAppReady, unique } from "./support.ts";
import { adminInNewBrowser, createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 013: a technician saves a personal response with placeholders and inserts it into a comment
// by keyboard alone; the user reads it filled in. An admin's shared response reaches every technician.

test("a technician inserts a personal canned response by keyboard, filled in for the ticket, and the user reads it", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Uma", "User");
  const tech = await signUpInNewBrowser(browser, "Theo", "Technician");
  const title = `VPN drops every hour ${unique("vpn")}`;
  const ticketId = await createTicketThroughApi(user.page, { title });

  // The dashboard leads to the responses page; the first response is made from its empty state.
  await tech.page.getByRole("link", { name: "Canned responses" }).click();
  await expect(tech.page.getByRole("heading", { level: 1, name: "Canned Responses" })).toBeVisible();
  await expect(tech.page.getByText("No personal responses yet")).toBeVisible();
  await tech.page.getByRole("button", { name: "New response" }).click();
  const dialog = tech.page.getByRole("dialog", { name: "New personal response" });
  await dialog.getByLabel("Title").fill("Restart the VPN client");
  await dialog.getByLabel("Text").fill("Hi {{creator.firstName}}, {{ticket.sla}}");
  await expect(dialog.getByText("Unknown placeholder {{ticket.sla}}")).toBeVisible();
  await dialog
    .getByLabel("Text")
    .fill(
      "Hi {{creator.name}},\nabout {{ticket.id}} ({{ticket.title}}): please restart the VPN client.\n{{agent.name}}",
    );
  await expect(dialog.getByText(/Unknown placeholder/)).toHaveCount(0);
  await dialog.getByRole("button", { name: "Create response" }).click();
  await expect(tech.page.getByText("Response created")).toBeVisible();
  await expect(tech.page.getByRole("article", { name: "Restart the VPN client" })).toBeVisible();
  for (const width of [1280, 375]) {
    await tech.page.setViewportSize({ width, height: 800 });
    await tech.page.screenshot({
      path: `e2e/.artifacts/screens/canned-responses-list-${width}.png`,
      fullPage: true,
    });
  }
  await tech.page.setViewportSize({ width: 1280, height: 800 });

  // On the ticket, from the comment box: Ctrl+/ opens the list, typing filters, Enter inserts.
  await tech.page.goto(`/tickets/${ticketId}`);
  // The page is drawn by the server first (decision 065); what follows is the app's own handling.
  await expect.poll(() => isAppReady(tech.page), { timeout: 30_000 }).toBe(true);
  const comments = tech.page.getByRole("region", { name: /Comments/ });
  const box = comments.getByLabel("Add a comment");
  await box.focus();
  await tech.page.keyboard.type("Thanks for the report. ");
  await tech.page.keyboard.press("Control+/");
  const search = tech.page.getByRole("combobox", { name: "Search canned responses" });
  await expect(search).toBeFocused();
  await tech.page.keyboard.type("vpn cli");
  await expect(tech.page.getByRole("listbox", { name: "Canned responses" }).getByRole("option")).toHaveCount(
    1,
  );
  await expect(
    tech.page
      .getByRole("listbox", { name: "Canned responses" })
      .getByRole("option", { name: /Restart the VPN client/ }),
  ).toHaveAttribute("aria-selected", "true");
  await tech.page.keyboard.press("Enter");
  await expect(search).toBeHidden();
  await expect(box).toBeFocused();
  const filled = `Thanks for the report. Hi ${user.name},\nabout ${ticketId} (${title}): please restart the VPN client.\n${tech.name}`;
  await expect(box).toHaveValue(filled);

  await comments.getByRole("button", { name: "Add Comment" }).click();
  await expect(tech.page.getByText("Comment added successfully")).toBeVisible();

  await user.page.goto(`/tickets/${ticketId}`);
  // The page is drawn by the server first (decision 065); what follows is the app's own handling.
  await expect.poll(() => isAppReady(user.page), { timeout: 30_000 }).toBe(true);
  const userComments = user.page.getByRole("region", { name: /Comments/ });
  await expect(
    userComments.getByText(`about ${ticketId} (${title}): please restart the VPN client.`),
  ).toBeVisible();
  await expect(userComments.getByText(`Hi ${user.name},`)).toBeVisible();
  await expect(user.page.getByRole("button", { name: /Insert response/ })).toHaveCount(0);

  // A user has no responses page: the guard sends them home.
  await user.page.goto("/canned-responses");
  await expect(user.page).toHaveURL(/\/user-home$/);

  await user.close();
  await tech.close();
});

test("an admin's shared response is offered to a technician, who may not change it", async ({ browser }) => {
  const admin = await adminInNewBrowser(browser, "Ada");
  const tech = await signUpInNewBrowser(browser, "Tia", "Technician");
  const user = await signUpInNewBrowser(browser, "Ulf", "User");
  const responseTitle = `Closing note ${unique("shared")}`;

  await admin.page.getByRole("link", { name: "Canned responses" }).click();
  await admin.page.getByRole("tab", { name: "Shared" }).click();
  await admin.page.getByRole("button", { name: "New response" }).click();
  const dialog = admin.page.getByRole("dialog", { name: "New shared response" });
  await dialog.getByLabel("Title").fill(responseTitle);
  await dialog.getByLabel("Text").fill("Closing {{ticket.id}} as fixed, {{creator.firstName}}.");
  await dialog.getByRole("button", { name: "Create response" }).click();
  await expect(admin.page.getByRole("article", { name: responseTitle })).toBeVisible();

  await tech.page.goto("/canned-responses?tab=shared");
  const shared = tech.page.getByRole("article", { name: responseTitle });
  await expect(shared).toBeVisible();
  await expect(shared.getByRole("button", { name: /Edit|Delete/ })).toHaveCount(0);
  await expect(tech.page.getByRole("button", { name: "New response" })).toHaveCount(0);

  const ticketId = await createTicketThroughApi(user.page, { title: `Mouse lag ${unique("m")}` });
  await tech.page.goto(`/tickets/${ticketId}`);
  // The page is drawn by the server first (decision 065); what follows is the app's own handling.
  await expect.poll(() => isAppReady(tech.page), { timeout: 30_000 }).toBe(true);
  await tech.page.getByRole("button", { name: /Insert response/ }).click();
  await tech.page.keyboard.type(responseTitle);
  // The list loads on open: Enter before the response is listed and selected would insert nothing.
  await expect(
    tech.page
      .getByRole("listbox", { name: "Canned responses" })
      .getByRole("option", { name: new RegExp(responseTitle) }),
  ).toHaveAttribute("aria-selected", "true");
  await tech.page.keyboard.press("Enter");
  await expect(tech.page.getByLabel("Add a comment")).toHaveValue(`Closing ${ticketId} as fixed, Ulf.`);

  await admin.close();
  await tech.close();
  await user.close();
});
