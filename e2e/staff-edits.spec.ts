import { expect, test } from "@playwright/test";
import { unique } from "./support.ts";
import { createTicketThroughApi, detail, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 015: the creator rewords the description while the ticket is Open; a technician corrects
// the priority; the timeline reads each change from → to.

test("the creator edits the description while Open, then a technician raises the priority", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Uma", "User");
  const tech = await signUpInNewBrowser(browser, "Theo", "Technician");
  const ticketId = await createTicketThroughApi(user.page, {
    title: `Docking station dead ${unique("ed")}`,
    description: "Nothing happens when I plug it in.",
    priority: "Low",
  });

  await user.page.goto(`/tickets/${ticketId}`);
  await expect(user.page.getByRole("button", { name: "Edit", exact: true })).toHaveCount(0);
  await user.page.getByRole("button", { name: "Edit description" }).click();
  const descriptionDialog = user.page.getByRole("dialog", { name: "Edit description" });
  const reworded = "Nothing happens when I plug it in, on either USB-C port.";
  await descriptionDialog.getByLabel("Description").fill(reworded);
  await descriptionDialog.getByRole("button", { name: "Save changes" }).click();
  await expect(user.page.getByText("Ticket updated")).toBeVisible();
  await expect(user.page.getByText(reworded).first()).toBeVisible();
  const userTimeline = user.page.getByRole("list", { name: "Ticket activity" });
  await expect(userTimeline.getByText("Description edited")).toBeVisible();

  await tech.page.goto(`/tickets/${ticketId}`);
  await expect(tech.page.getByRole("button", { name: "Edit description" })).toHaveCount(0);
  await tech.page.getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = tech.page.getByRole("dialog", { name: "Edit ticket" });
  await expect(dialog.getByLabel("Title")).toHaveValue(/Docking station dead/);
  await dialog.getByLabel("Priority").selectOption("High");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(detail(tech.page, "Priority")).toHaveText(/High/);
  const techTimeline = tech.page.getByRole("list", { name: "Ticket activity" });
  await expect(techTimeline.getByText("Priority: Low → High")).toBeVisible();
  await tech.page.screenshot({ path: "e2e/.artifacts/screens/staff-edits-1280.png", fullPage: true });
  await tech.page.setViewportSize({ width: 375, height: 667 });
  await tech.page.getByRole("button", { name: "Edit", exact: true }).click();
  await tech.page.screenshot({ path: "e2e/.artifacts/screens/staff-edits-dialog-375.png" });
  await tech.page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);

  // The creator sees the correction (and is told of it) on their page.
  await user.page.reload();
  await expect(userTimeline.getByText("Priority: Low → High")).toBeVisible();
  await expect(detail(user.page, "Priority")).toHaveText(/High/);

  // Once a technician works on it, the description is no longer the creator's to change.
  await tech.page.getByRole("button", { name: "Assign to Me" }).click();
  await expect(tech.page.getByText("Ticket assigned successfully")).toBeVisible();
  await user.page.reload();
  await expect(detail(user.page, "Status")).toHaveText(/In Progress/);
  await expect(user.page.getByRole("button", { name: "Edit description" })).toHaveCount(0);

  await user.close();
  await tech.close();
});
