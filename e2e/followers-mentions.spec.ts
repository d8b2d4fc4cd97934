import { expect, type Page, test } from "@playwright/test";
import { unique } from "./support.ts";
import { adminInNewBrowser, createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

test.describe.configure({ timeout: 150_000 });

// Decision 014: following a ticket brings its notifications; staff mention staff with the @-autocomplete.

async function screenshots(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `/tmp/followers-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("an admin follows a ticket and is notified when the technician comments", async ({ browser }) => {
  const user = await signUpInNewBrowser(browser, "Ulla", "User");
  const tech = await signUpInNewBrowser(browser, "Tomas", "Technician");
  const admin = await adminInNewBrowser(browser, "Ada");
  const title = `Projector hums ${unique("fo")}`;
  const ticketId = await createTicketThroughApi(user.page, { title });
  await tech.page.goto(`/tickets/${ticketId}`);
  await tech.page.getByRole("button", { name: "Assign to Me" }).click();
  await expect(tech.page.getByText("Ticket assigned successfully")).toBeVisible();
  await expect(
    tech.page.getByText("You are notified of every update as this ticket's assignee."),
  ).toBeVisible();

  await admin.page.goto(`/tickets/${ticketId}`);
  const followers = admin.page.getByRole("region", { name: "Followers" });
  await expect(followers.getByText("0 followers")).toBeVisible();
  await followers.getByRole("button", { name: "Follow" }).click();
  await expect(admin.page.getByText("You are following this ticket")).toBeVisible();
  await expect(followers.getByRole("button", { name: "Following" })).toHaveAttribute("aria-pressed", "true");
  await expect(followers.getByText("1 follower")).toBeVisible();
  await expect(followers.getByText(admin.name)).toBeVisible();
  await screenshots(admin.page, "following");

  const comments = tech.page.getByRole("region", { name: /Comments/ });
  await comments.getByLabel("Add a comment").fill("Replaced the fan, testing now.");
  await comments.getByRole("button", { name: "Add Comment" }).click();
  await expect(tech.page.getByText("Comment added successfully")).toBeVisible();

  await admin.page.goto("/notifications");
  await expect(admin.page.getByRole("tabpanel").getByRole("listitem").first()).toContainText(
    `${tech.name} commented on ticket "${title}": Replaced the fan, testing now.`,
  );

  // The requester sees how many follow, not who.
  await user.page.goto(`/tickets/${ticketId}`);
  const userFollowers = user.page.getByRole("region", { name: "Followers" });
  await expect(userFollowers.getByText("1 follower")).toBeVisible();
  await expect(userFollowers.getByText(admin.name)).toHaveCount(0);
  await expect(userFollowers.getByRole("button")).toHaveCount(0);

  await Promise.all([user.close(), tech.close(), admin.close()]);
});

test("a technician mentions another through the autocomplete in an internal note; they are notified", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Ulf", "User");
  const tech = await signUpInNewBrowser(browser, "Tara", "Technician");
  // A first name no other run shares, so the autocomplete offers exactly this person.
  const firstName = `Mira${Math.random().toString(36).slice(2, 8).replace(/\d/g, "x")}`;
  const other = await signUpInNewBrowser(browser, firstName, "Technician");
  const title = `VPN drops ${unique("mn")}`;
  const ticketId = await createTicketThroughApi(user.page, { title });

  await tech.page.goto(`/tickets/${ticketId}`);
  const comments = tech.page.getByRole("region", { name: /Comments/ });
  await comments.getByRole("checkbox", { name: "Internal note" }).check();
  const box = comments.getByRole("combobox", { name: "Add an internal note" });
  await box.click();
  await box.pressSequentially(`Could you look, @${firstName.slice(0, 7)}`);
  const option = tech.page.getByRole("option", { name: new RegExp(other.name) });
  await expect(option).toBeVisible();
  await expect(box).toHaveAttribute("aria-expanded", "true");
  await expect(option).toHaveAttribute("aria-selected", "true");
  await screenshots(tech.page, "autocomplete");
  await box.press("Enter");
  await expect(option).toBeHidden();
  await expect(box).toHaveValue(new RegExp(`^Could you look, @\\[${other.name}\\]\\([^)]+\\) $`));
  await box.pressSequentially("it is their VPN client.");
  await comments.getByRole("button", { name: "Add Internal Note" }).click();
  await expect(tech.page.getByText("Internal note added")).toBeVisible();
  const note = comments.getByRole("article").filter({ hasText: "their VPN client" });
  await expect(note.getByText(`@${other.name}`, { exact: true })).toBeVisible();
  await screenshots(tech.page, "mention-note");

  await other.page.goto("/notifications");
  await expect(other.page.getByRole("tabpanel").getByRole("listitem").first()).toContainText(
    `${tech.name} mentioned you in an internal note on ticket "${title}": Could you look, @${other.name} it is their VPN client.`,
  );
  // The requester never sees the note, nor that anyone was mentioned.
  await user.page.goto(`/tickets/${ticketId}`);
  // The ticket's activity (comments and timeline, one answer) has loaded before the absence counts.
  const activity = user.page.getByRole("list", { name: "Ticket activity" });
  await expect(activity.getByText("created the ticket")).toBeVisible();
  await expect(user.page.getByText("their VPN client")).toHaveCount(0);

  await Promise.all([user.close(), tech.close(), other.close()]);
});
