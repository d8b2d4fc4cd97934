import { expect, test } from "@playwright/test";
import { isAppReady, notificationMessages, openWithLiveStream, screens, toast, unique } from "./support.ts";
import { adminInNewBrowser, createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 069: an administrator makes a team and a routing rule in /admin/teams; a user's ticket that the
// rule matches lands in the team, its member is alerted live and finds it in their notifications, and a
// technician outside the team hears nothing of it. The rule matches a word no other journey writes, and the
// team is deleted at the end, so the journeys after this one still see every ticket alert every technician.

test("an admin makes a team and a routing rule; a matching ticket alerts the team's member and no one outside", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await adminInNewBrowser(browser, "Ada");
  const member = await signUpInNewBrowser(browser, "Nina", "Technician");
  const outsider = await signUpInNewBrowser(browser, "Otto", "Technician");
  const user = await signUpInNewBrowser(browser, "Ulf", "User");
  const teamName = `Network ${unique("tm")}`;
  const word = unique("vpngw").replace(/[^a-z0-9]/gi, "");

  // The team, with Nina in it.
  await admin.page.goto("/admin/teams");
  await expect.poll(() => isAppReady(admin.page), { timeout: 30_000 }).toBe(true);
  await admin.page.getByRole("button", { name: "New team" }).click();
  const teamDialog = admin.page.getByRole("dialog", { name: "New team" });
  await teamDialog.getByLabel("Name", { exact: true }).fill(teamName);
  await teamDialog.getByLabel("Description").fill("Routers, VPN and Wi-Fi");
  await teamDialog.getByRole("checkbox", { name: member.name }).check();
  await teamDialog.getByRole("button", { name: "Add team" }).click();
  await expect(toast(admin.page, "Team added")).toBeVisible();
  const teamEntry = admin.page
    .getByRole("list", { name: "Teams" })
    .getByRole("listitem")
    .filter({ hasText: teamName });
  await expect(teamEntry).toContainText(member.name);
  await expect(teamEntry).not.toContainText(outsider.name);

  // The rule: a title with the word goes to the team.
  await admin.page.getByRole("button", { name: "New rule" }).click();
  const ruleDialog = admin.page.getByRole("dialog", { name: "New routing rule" });
  await ruleDialog.getByRole("button", { name: "Add rule" }).click();
  await expect(
    ruleDialog.getByText(
      "A rule needs at least one condition: a category, a department, a custom field or words of the title.",
    ),
  ).toBeVisible();
  await ruleDialog.getByLabel("Title contains any of").fill(word);
  await ruleDialog.getByLabel("Team").selectOption({ label: teamName });
  await ruleDialog.getByRole("button", { name: "Add rule" }).click();
  await expect(toast(admin.page, "Rule added")).toBeVisible();
  const rule = admin.page
    .getByRole("list", { name: "Routing rules" })
    .getByRole("listitem")
    .filter({ hasText: word });
  await expect(rule).toContainText(teamName);
  await screens(admin.page, "teams-admin");

  // Both technicians watch their home; the user raises a ticket the rule matches.
  await openWithLiveStream(member.page, "/technician-home");
  await openWithLiveStream(outsider.page, "/technician-home");
  const title = `${word} gateway down on floor 2`;
  const ticketId = await createTicketThroughApi(user.page, { title, category: "Network" });

  // Nina is alerted at once, and it is in her notifications.
  await expect(member.page.getByText("NEW TICKET CREATED - 15 second alert for technician")).toBeVisible({
    timeout: 5_000,
  });
  await expect.poll(() => notificationMessages(member.page)).toContainEqual(expect.stringContaining(title));
  await member.page.getByRole("button", { name: "Silence" }).click();

  // Nina's home has her team's tabs, the new ticket in its unassigned queue; Otto, in no team, has none.
  await member.page.goto("/technician-home");
  await expect.poll(() => isAppReady(member.page), { timeout: 30_000 }).toBe(true);
  await member.page.getByRole("tab", { name: /^My team's unassigned/ }).click();
  await expect(member.page).toHaveURL(/tab=team_unassigned/);
  await expect(member.page.getByRole("link", { name: new RegExp(ticketId) })).toBeVisible();
  await outsider.page.goto("/technician-home");
  await expect(outsider.page.getByRole("tab", { name: "Unassigned", exact: true })).toBeVisible();
  await expect(outsider.page.getByRole("tab", { name: /My team's/ })).toHaveCount(0);

  // Nina sees the team on the ticket; the user, who does not work with teams, does not.
  await member.page.goto(`/tickets/${ticketId}`);
  await expect(member.page.getByRole("combobox", { name: "Team" }).locator("option:checked")).toHaveText(
    teamName,
  );
  await screens(member.page, "teams-ticket");
  await user.page.goto(`/tickets/${ticketId}`);
  await expect(user.page.getByRole("heading", { name: title })).toBeVisible();
  await expect(user.page.getByText(teamName)).toHaveCount(0);

  // Otto heard nothing of this ticket: no notification names it, by the time Nina's had long arrived.
  expect(await notificationMessages(outsider.page)).not.toContainEqual(expect.stringContaining(title));

  // The admin deletes the team: its rule goes with it.
  await admin.page.reload();
  await admin.page.getByRole("button", { name: `Delete ${teamName}` }).click();
  await admin.page
    .getByRole("dialog", { name: `Delete the team ${teamName}?` })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(admin.page.getByRole("list", { name: "Teams" }).getByText(teamName)).toHaveCount(0);
  await expect(admin.page.getByText(word)).toHaveCount(0);

  for (const person of [admin, member, outsider, user]) await person.close();
});
