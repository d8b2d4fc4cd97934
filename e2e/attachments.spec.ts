import { expect, test } from "@playwright/test";
import { isAppReady, pasteScreenshot, unique } from "./support.ts";
import { signUpInNewBrowser } from "./ticket-support.ts";

// Decision 012: a user attaches a file with the picker when raising a ticket; a technician pastes a
// screenshot into a comment, and the user sees its thumbnail.

const logText = "09:14 VPN client: certificate expired\n09:15 retrying…\n";

test("a file picked on a new ticket and a screenshot pasted into a comment reach the user", {
  tag: "@instances",
}, async ({ browser }) => {
  const user = await signUpInNewBrowser(browser, "Uma", "User");
  const tech = await signUpInNewBrowser(browser, "Theo", "Technician");
  const title = `VPN refuses to connect ${unique("att")}`;

  // The user raises a ticket with a log file chosen in the file picker.
  await user.page.getByRole("button", { name: "Create Your First Ticket" }).click();
  const form = user.page.getByRole("region", { name: "Create New Ticket" });
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Description").fill("Since this morning the VPN says my certificate expired.");
  await form.getByLabel("Office Number").fill("214");
  await form.getByLabel("Attach files").setInputFiles({
    name: "vpn.log",
    mimeType: "text/plain",
    buffer: Buffer.from(logText),
  });
  const files = form.getByRole("list", { name: "Files to send" });
  await expect(
    files.getByRole("listitem").filter({ hasText: "vpn.log" }).getByLabel("Uploaded"),
  ).toBeVisible();
  // A program renamed as a picture is refused, with the server's reason beside it.
  await form.getByLabel("Attach files").setInputFiles({
    name: "holiday.png",
    mimeType: "image/png",
    buffer: Buffer.from("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00", "latin1"),
  });
  await expect(files.getByText(/not a type that can be attached/)).toBeVisible();
  await user.page.setViewportSize({ width: 375, height: 667 });
  await form.screenshot({ path: "e2e/.artifacts/attachments-new-ticket-375.png" });
  await user.page.setViewportSize({ width: 1280, height: 800 });
  await form.screenshot({ path: "e2e/.artifacts/attachments-new-ticket-1280.png" });
  await files.getByRole("button", { name: "Remove holiday.png" }).click();
  await form.getByRole("button", { name: "Submit Ticket" }).click();
  await expect(user.page.getByText("Ticket created successfully!")).toBeVisible();
  await user.page.getByRole("link", { name: new RegExp(title) }).click();
  const ticketId = user.page.url().match(/TKT[0-9A-Z]+/)![0];
  const log = user.page
    .getByRole("region", { name: "Files of this ticket" })
    .getByRole("link", { name: /vpn\.log/ });
  await expect(log).toBeVisible();
  const download = await user.page.request.get((await log.getAttribute("href"))!);
  expect(await download.text()).toBe(logText);

  // The technician takes it and pastes a screenshot into a comment.
  await tech.page.goto(`/tickets/${ticketId}`);
  await tech.page.getByRole("button", { name: "Assign to Me" }).click();
  await expect(tech.page.getByText("Ticket assigned successfully")).toBeVisible();
  // Pasting a screenshot is the app's (decision 065: the plain form sends text alone): once it has the page.
  await expect.poll(() => isAppReady(tech.page)).toBe(true);
  const techComments = tech.page.getByRole("region", { name: /Comments/ });
  const box = techComments.getByLabel("Add a comment");
  await box.fill("This is the error I get when I try with your account:");
  await pasteScreenshot(tech.page, `textarea[id="${await box.getAttribute("id")}"]`);
  await expect(
    techComments.getByRole("list", { name: "Files to send" }).getByLabel("Uploaded"),
  ).toBeVisible();
  await techComments.getByRole("button", { name: "Add Comment" }).click();
  await expect(tech.page.getByText("Comment added successfully")).toBeVisible();
  await expect(techComments.getByRole("img", { name: /^screenshot-.*\.png$/ })).toBeVisible();

  // The user sees the thumbnail, really loaded.
  await user.page.reload();
  const userComments = user.page.getByRole("region", { name: /Comments/ });
  const thumbnail = userComments
    .getByRole("region", { name: "Files of this comment" })
    .getByRole("img", { name: /^screenshot-.*\.png$/ });
  await thumbnail.scrollIntoViewIfNeeded();
  await expect(thumbnail).toBeVisible();
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);

  for (const width of [1280, 375]) {
    await user.page.setViewportSize({ width, height: width === 375 ? 667 : 800 });
    await user.page.screenshot({ path: `e2e/.artifacts/attachments-user-${width}.png`, fullPage: true });
    await tech.page.setViewportSize({ width, height: width === 375 ? 667 : 800 });
    await tech.page.screenshot({ path: `e2e/.artifacts/attachments-tech-${width}.png`, fullPage: true });
  }
  await user.close();
  await tech.close();
});
