import { expect, type Page, test } from "@playwright/test";
import { openAppPage, screens, toast, unique } from "./support.ts";
import { createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 072: two technicians on one ticket, each in their own browser, their requests alternating between
// two app instances behind the balancer (the @instances run). They see each other viewing, one sees the
// other typing, and a reply written while the ticket changed is caught before it is sent.

const presenceBar = (page: Page) => page.getByRole("region", { name: "Also on this ticket" });
const replyBox = (page: Page) => page.getByRole("region", { name: "Comments" }).getByLabel("Add a comment");

test("two technicians see each other on a ticket, one sees the other typing, and a stale reply is caught", {
  tag: "@instances",
}, async ({ browser }) => {
  // Three browsers and eight screenshots: more than a journey's usual two minutes on a busy 2-core machine.
  test.setTimeout(240_000);
  const una = await signUpInNewBrowser(browser, "Una", "User");
  const theo = await signUpInNewBrowser(browser, "Theo", "Technician");
  const tara = await signUpInNewBrowser(browser, "Tara", "Technician");
  const ticketId = await createTicketThroughApi(una.page, { title: `Scanner offline ${unique("co")}` });

  await openAppPage(theo.page, `/tickets/${ticketId}`);
  await openAppPage(tara.page, `/tickets/${ticketId}`);
  await expect(presenceBar(theo.page)).toContainText(`${tara.name} is viewing`);
  await expect(presenceBar(tara.page)).toContainText(`${theo.name} is viewing`);
  // Nobody is shown themself.
  await expect(presenceBar(theo.page)).not.toContainText(theo.name);

  // Theo begins a reply: Tara sees him typing; the timeline Theo saw then is what his reply names.
  const draft = "Rebooted the scanner, please try again.";
  await replyBox(theo.page).pressSequentially(draft.slice(0, 12));
  await expect(presenceBar(tara.page)).toContainText(`${theo.name} is typing a reply…`);
  await screens(tara.page, "collision-typing", { fullPage: false });

  // Meanwhile Tara answers the requester.
  await replyBox(tara.page).fill("I am on my way to floor 1.");
  await tara.page.getByRole("button", { name: "Add Comment" }).click();
  await expect(toast(tara.page, "Comment added successfully")).toBeVisible();

  await replyBox(theo.page).pressSequentially(draft.slice(12));
  await theo.page.getByRole("button", { name: "Add Comment" }).click();
  const prompt = theo.page
    .getByRole("alert")
    .filter({ hasText: "This ticket changed while you were writing." });
  await expect(prompt).toBeVisible();
  await expect(replyBox(theo.page)).toHaveValue(draft);
  const taraComment = theo.page
    .getByRole("region", { name: "Comments" })
    .getByRole("listitem")
    .filter({ hasText: "I am on my way to floor 1." });
  await expect(taraComment.getByText("New", { exact: true })).toBeVisible();
  await expect(
    theo.page.getByRole("list", { name: "Ticket activity" }).getByRole("listitem").last().getByText("New"),
  ).toBeVisible();
  await prompt.getByRole("button", { name: "Show what changed" }).click();
  await screens(theo.page, "collision-stale-reply");

  await prompt.getByRole("button", { name: "Send anyway" }).click();
  await expect(toast(theo.page, "Comment added successfully")).toBeVisible();
  await expect(replyBox(theo.page)).toHaveValue("");
  await expect(theo.page.getByText("New", { exact: true })).toHaveCount(0);
  await expect(
    theo.page.getByRole("region", { name: "Comments" }).getByRole("listitem").filter({ hasText: draft }),
  ).toBeVisible();

  // The requester sees neither technician's presence.
  await openAppPage(una.page, `/tickets/${ticketId}`);
  await expect(
    una.page.getByRole("region", { name: "Comments" }).getByRole("listitem").filter({ hasText: draft }),
  ).toBeVisible();
  await expect(presenceBar(una.page)).toHaveCount(0);

  // Tara leaves the ticket: Theo sees her go at once, not after the 30 s a silent page is given.
  await tara.page.goto("/technician-home");
  await expect(presenceBar(theo.page)).toHaveCount(0, { timeout: 5_000 });
  await Promise.all([una.close(), theo.close(), tara.close()]);
});
