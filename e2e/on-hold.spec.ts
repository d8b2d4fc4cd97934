import { expect, test } from "@playwright/test";
import { notificationMessages, openAppPage, screens, toast, unique } from "./support.ts";
import { createTicketThroughApi, detail, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 070: the technician working a ticket puts it on hold with a question for the requester; the
// requester sees that it waits for them, replies, and the reply takes it off hold and tells the technician.

test("a technician puts a ticket on hold with a question; the requester's reply takes it off hold and tells them", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const tech = await signUpInNewBrowser(browser, "Hedda", "Technician");
  const user = await signUpInNewBrowser(browser, "Rita", "User");
  const title = `Docking station flickers ${unique("oh")}`;
  const ticketId = await createTicketThroughApi(user.page, { title });

  await openAppPage(tech.page, `/tickets/${ticketId}`);
  // Only an In Progress ticket goes on hold.
  await expect(tech.page.getByRole("button", { name: "Put on hold" })).toHaveCount(0);
  await tech.page.getByRole("button", { name: "Assign to Me" }).click();
  await expect(detail(tech.page, "Status")).toHaveText("In Progress");

  // On a phone: the actions sit in another place on a wide page, so an open dialog is photographed at the
  // width it was opened at.
  await tech.page.setViewportSize({ width: 375, height: 812 });
  await tech.page.getByRole("button", { name: "Put on hold" }).click();
  const dialog = tech.page.getByRole("dialog", { name: "Put on hold" });
  await dialog.getByRole("button", { name: "Put on hold" }).click();
  await expect(dialog.getByText("A comment for the requester is required")).toBeVisible();
  const question = "Which docking station model is it? The label is on its underside.";
  await dialog.getByLabel("Comment for the requester").fill(question);
  await screens(tech.page, "on-hold-dialog", { widths: [375] });
  await dialog.getByRole("button", { name: "Put on hold" }).click();
  await expect(toast(tech.page, "Ticket put on hold")).toBeVisible();
  await expect(tech.page.getByText("On hold until the requester replies.")).toBeVisible();
  // The four statuses stay as they are: it is still In Progress, shown as on hold.
  await expect(detail(tech.page, "Status")).toContainText("In Progress");
  await expect(tech.page.getByText("On hold", { exact: true }).first()).toBeVisible();
  await screens(tech.page, "on-hold-technician");
  await tech.page.setViewportSize({ width: 1280, height: 720 });

  // The requester sees that the ticket waits for them, and the question.
  await openAppPage(user.page, `/tickets/${ticketId}`);
  await expect(user.page.getByText("Waiting for your reply").first()).toBeVisible();
  await expect(user.page.getByRole("region", { name: /Comments/ })).toContainText(question);
  await screens(user.page, "on-hold-requester");

  // Their reply takes the ticket off hold; the technician is told.
  const comments = user.page.getByRole("region", { name: /Comments/ });
  await comments.getByLabel("Add a comment").fill("It is a WD19, serial 4711.");
  await comments.getByRole("button", { name: "Add Comment" }).click();
  await expect(toast(user.page, "Comment added successfully")).toBeVisible();
  await expect(user.page.getByText("Waiting for your reply")).toHaveCount(0);

  await expect
    .poll(() => notificationMessages(tech.page))
    .toContainEqual(expect.stringContaining("is no longer on hold"));
  await openAppPage(tech.page, `/tickets/${ticketId}`);
  await expect(tech.page.getByRole("button", { name: "Put on hold" })).toBeVisible();
  await expect(tech.page.getByText("On hold until the requester replies.")).toHaveCount(0);
  await expect(detail(tech.page, "Status")).toContainText("In Progress");

  await tech.close();
  await user.close();
});
