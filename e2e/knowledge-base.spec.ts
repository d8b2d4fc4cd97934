import { expect, test } from "@playwright/test";
import type { ArticleStats } from "#shared/articles/article.schemas.ts";
import { unique } from "./support.ts";
import { adminInNewBrowser, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 030: a technician publishes an article; a user typing a matching ticket title sees it suggested,
// opens it, marks it helpful and leaves without a ticket (a deflection); an admin sees the figures.

test("a published article is suggested on the create form, opened, rated helpful and counted as a deflection", async ({
  browser,
}) => {
  const tech = await signUpInNewBrowser(browser, "Tess", "Technician");
  const user = await signUpInNewBrowser(browser, "Ugo", "User");
  const admin = await adminInNewBrowser(browser, "Ada");
  const word = unique("zorbvpn").replace(/[^a-z0-9]/gi, "");
  const title = `Connect to the ${word} VPN`;

  // The technician writes the article in Markdown and publishes it.
  // The header's entries are fixed; the articles are linked from the dashboard.
  await tech.page.goto("/technician-home");
  await tech.page.getByRole("main").getByRole("link", { name: "Help articles" }).click();
  await expect(tech.page.getByRole("heading", { level: 1, name: "Help Articles" })).toBeVisible();
  await tech.page.getByRole("link", { name: "New article" }).click();
  await tech.page.getByLabel("Title").fill(title);
  await tech.page.getByLabel("Category").selectOption("Network");
  await tech.page.getByLabel("Status").selectOption("published");
  await tech.page.getByLabel("Tags (comma-separated)").fill("vpn, remote");
  await tech.page
    .getByLabel("Text (Markdown)")
    .fill(
      "## Steps\n\n1. Open the **VPN client**.\n2. Sign in with your usual password.\n\nSee the [vendor guide](https://vendor.example/vpn).\n\n<script>alert('x')</script>",
    );
  await tech.page.getByRole("button", { name: "Save article" }).click();
  await expect(tech.page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const vendor = tech.page.getByRole("link", { name: /vendor guide/ });
  await expect(vendor).toHaveAttribute("target", "_blank");
  await expect(vendor).toHaveAttribute("rel", "noopener noreferrer nofollow");
  await expect(tech.page.getByText("<script>alert('x')</script>")).toBeVisible();
  const articleUrl = tech.page.url();
  for (const width of [1280, 375]) {
    await tech.page.setViewportSize({ width, height: 900 });
    await tech.page.screenshot({ path: `/tmp/kb-article-${width}.png`, fullPage: true });
  }

  // An edit is a new revision; the history shows who changed what.
  await tech.page.setViewportSize({ width: 1280, height: 900 });
  await tech.page.getByRole("link", { name: "Edit" }).click();
  await tech.page
    .getByLabel("Text (Markdown)")
    .fill(
      "## Steps\n\n1. Open the **VPN client**.\n2. Sign in with your usual password.\n3. Choose the office gateway.\n\nSee the [vendor guide](https://vendor.example/vpn).",
    );
  await tech.page.getByRole("button", { name: "Save article" }).click();
  await expect(tech.page.getByText("Choose the office gateway.")).toBeVisible();
  await tech.page.getByRole("link", { name: "History" }).click();
  await expect(tech.page.getByText(/Revision 2:/)).toBeVisible();
  await expect(tech.page.locator("ins", { hasText: "Choose the office gateway." })).toBeVisible();
  await expect(tech.page.locator("del", { hasText: "<script>" })).toBeVisible();
  for (const width of [1280, 375]) {
    await tech.page.setViewportSize({ width, height: 900 });
    await tech.page.screenshot({ path: `/tmp/kb-history-${width}.png`, fullPage: true });
  }

  // The user types a ticket title: the article is suggested while they type.
  await user.page.getByRole("button", { name: "Create New Ticket" }).first().click();
  await user.page.getByLabel("Title").fill(`Cannot connect ${word}`);
  const suggestions = user.page.getByRole("region", { name: "Suggested articles" });
  await expect(suggestions.getByRole("link", { name: title })).toBeVisible();
  for (const width of [1280, 375]) {
    await user.page.setViewportSize({ width, height: 900 });
    await user.page.screenshot({ path: `/tmp/kb-suggestions-${width}.png`, fullPage: true });
  }
  await user.page.setViewportSize({ width: 1280, height: 900 });
  await suggestions.getByRole("link", { name: title }).click();

  // The article opens; the user rates it helpful (and the vote sticks after a reload).
  await expect(user.page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  expect(user.page.url()).toBe(articleUrl);
  await user.page.getByRole("button", { name: "Yes" }).click();
  await expect(user.page.getByText("Thanks for your feedback.")).toBeVisible();
  await user.page.reload();
  await expect(user.page.getByRole("button", { name: "Yes" })).toHaveAttribute("aria-pressed", "true");

  // The user cannot write articles: no New article button.
  await user.page.goto("/kb");
  await expect(user.page.getByRole("link", { name: title })).toBeVisible();
  await expect(user.page.getByRole("link", { name: "New article" })).toHaveCount(0);

  // The admin's figures: one view by the user (plus the technician's), one helpful vote, one deflection.
  await expect
    .poll(async () => {
      const response = await admin.page.request.get("/api/articles/stats");
      const stats = (await response.json()) as ArticleStats;
      const row = stats.items.find((item) => item.title === title);
      return (
        row && {
          helpfulYes: row.helpfulYes,
          suggestionOpens: row.suggestionOpens,
          deflections: row.deflections,
        }
      );
    })
    .toEqual({ helpfulYes: 1, suggestionOpens: 1, deflections: 1 });
  // The same figures in the reports, beside the tickets they saved.
  await admin.page.goto("/reports");
  const articles = admin.page.getByRole("region", { name: "Help articles" });
  await expect(articles.getByRole("row", { name: new RegExp(title) }).getByRole("cell")).toHaveText([
    "2",
    "1",
    "0",
    "1",
    "1",
  ]);
  await articles.scrollIntoViewIfNeeded();
  await admin.page.screenshot({ path: "/tmp/kb-in-reports-1280.png" });
  await admin.page.goto("/kb/stats");
  const row = admin.page.getByRole("row", { name: new RegExp(title) });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell")).toHaveText(["2", "1", "0", "1", "1"]);
  for (const width of [1280, 375]) {
    await admin.page.setViewportSize({ width, height: 900 });
    await admin.page.screenshot({ path: `/tmp/kb-stats-${width}.png`, fullPage: true });
  }

  // Search finds it with the word highlighted.
  await admin.page.setViewportSize({ width: 1280, height: 900 });
  await admin.page.goto("/kb");
  await admin.page.getByLabel("Search articles").fill("sign in password");
  await expect(admin.page.locator("mark").first()).toBeVisible();
  for (const width of [1280, 375]) {
    await admin.page.setViewportSize({ width, height: 900 });
    await admin.page.screenshot({ path: `/tmp/kb-search-${width}.png`, fullPage: true });
  }

  await Promise.all([tech.close(), user.close(), admin.close()]);
});
