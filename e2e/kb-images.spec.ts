import { expect, test } from "@playwright/test";
import { makePng } from "#server/test/files.ts";
import { pasteScreenshot, unique } from "./support.ts";
import { signUpInNewBrowser } from "./ticket-support.ts";

// Decision 030: a technician pastes a screenshot and picks a picture into an article; they are uploaded
// through the attachments store and shown to a user on the published article, and hidden with it.

test("images pasted and picked into an article are shown to a user once it is published", async ({
  browser,
}) => {
  const tech = await signUpInNewBrowser(browser, "Tia", "Technician");
  const user = await signUpInNewBrowser(browser, "Uli", "User");
  const title = `Find the VPN settings ${unique("img")}`;
  const imageMarkdown = /!\[[^\]]+\]\(\/api\/attachments\/ATT[0-9A-Z]+\/preview\)/;

  await tech.page.goto("/kb/new");
  await tech.page.getByLabel("Title").fill(title);
  await tech.page.getByLabel("Category").selectOption("Network");
  await tech.page.getByLabel("Status").selectOption("published");
  const text = tech.page.getByLabel("Text (Markdown)");
  await text.fill("## Open the settings\n\nClick the gear in the VPN client:\n\n");

  // A screenshot pasted at the cursor becomes an image of the article.
  await pasteScreenshot(tech.page, `textarea[id="${await text.getAttribute("id")}"]`, "VPN client: Settings");
  await expect(text).toHaveValue(/\n\n!\[screenshot-[\d-]+\]\(\/api\/attachments\/ATT[0-9A-Z]+\/preview\)$/);
  await text.press("ControlOrMeta+End");
  await text.pressSequentially("\n\nThen choose the office gateway:\n\n");

  // A picture chosen with Insert image goes where the cursor is.
  await tech.page
    .getByLabel("Insert image")
    .setInputFiles({ name: "gateway.png", mimeType: "image/png", buffer: makePng(480, 160) });
  await expect(text).toHaveValue(/gateway:\n\n!\[gateway\]\(\/api\/attachments\/ATT[0-9A-Z]+\/preview\)$/);
  // Anything but a raster image is refused with a sentence, and nothing is inserted.
  await tech.page
    .getByLabel("Insert image")
    .setInputFiles({ name: "manual.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.7\n") });
  await expect(tech.page.getByRole("alert")).toHaveText(
    "manual.pdf is not an image: an article can show PNG, JPEG, GIF or WebP images.",
  );
  expect((await text.inputValue()).match(new RegExp(imageMarkdown, "g"))).toHaveLength(2);
  for (const width of [1280, 375]) {
    await tech.page.setViewportSize({ width, height: 900 });
    // From the top: a full-page shot of a scrolled page draws the sticky header over the content.
    await tech.page.evaluate(() => window.scrollTo(0, 0));
    await tech.page.screenshot({ path: `e2e/.artifacts/kb-images-editor-${width}.png`, fullPage: true });
  }
  await tech.page.setViewportSize({ width: 1280, height: 900 });
  await tech.page.getByRole("button", { name: "Save article" }).click();
  await expect(tech.page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const articleUrl = tech.page.url();

  // The user reads the published article with both images, really loaded.
  await user.page.goto(articleUrl);
  await expect(user.page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const screenshot = user.page.getByRole("img", { name: /^screenshot-/ });
  const gateway = user.page.getByRole("img", { name: "gateway" });
  await expect(screenshot).toBeVisible();
  await expect.poll(() => screenshot.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  await gateway.scrollIntoViewIfNeeded();
  await expect.poll(() => gateway.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
  for (const width of [1280, 375]) {
    await user.page.setViewportSize({ width, height: width === 375 ? 667 : 800 });
    await user.page.evaluate(() => window.scrollTo(0, 0));
    await user.page.screenshot({ path: `e2e/.artifacts/kb-images-article-${width}.png`, fullPage: true });
  }
  const imageUrl = (await gateway.getAttribute("src"))!;

  // Made internal, the article's images go with it: the user's browser gets 404, not the picture.
  await tech.page.getByRole("link", { name: "Edit" }).click();
  await tech.page.getByLabel("Visibility").selectOption("internal");
  await tech.page.getByRole("button", { name: "Save article" }).click();
  await expect(tech.page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(tech.page.getByRole("img", { name: "gateway" })).toBeVisible();
  expect((await user.page.request.get(imageUrl)).status()).toBe(404);
  expect((await tech.page.request.get(imageUrl)).status()).toBe(200);
  await user.close();
  await tech.close();
});
