import { expect, test } from "@playwright/test";
import { isAppReady, unique } from "./support.ts";
import { createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 075: a technician saves a macro (a reply, a status and a tag), previews it on a ticket, applies
// it in one step, and the timeline shows one entry naming it; the requester reads the reply and the status.

test("a technician saves a macro, sees what it will do to a ticket, applies it, and the timeline names it", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Uma", "User");
  const tech = await signUpInNewBrowser(browser, "Theo", "Technician");
  const ticketId = await createTicketThroughApi(user.page, { title: `Printer tray jams ${unique("tray")}` });
  const macroTitle = `Tray fixed ${unique("macro")}`;

  await tech.page.getByRole("link", { name: "Macros" }).click();
  await expect(tech.page.getByRole("heading", { level: 1, name: "Macros" })).toBeVisible();
  await expect(tech.page.getByText("No personal macros yet")).toBeVisible();
  await tech.page.getByRole("button", { name: "New macro" }).click();
  const dialog = tech.page.getByRole("dialog", { name: "New personal macro" });
  await dialog.getByLabel("Title").fill(macroTitle);
  await dialog.getByLabel("Reply (optional)").fill("Fixed the tray, {{creator.firstName}}.");
  await dialog.getByLabel("Status").selectOption("Resolved");
  await dialog.getByLabel("Add tags").fill("printer");
  await dialog.getByRole("button", { name: "Create macro" }).click();
  await expect(tech.page.getByText("Macro created")).toBeVisible();
  const saved = tech.page.getByRole("article", { name: macroTitle });
  await expect(saved).toContainText("Status Resolved · Tags + printer · Public reply");
  for (const width of [1280, 375]) {
    await tech.page.setViewportSize({ width, height: 800 });
    await tech.page.screenshot({ path: `e2e/.artifacts/screens/macros-list-${width}.png`, fullPage: true });
  }

  await tech.page.goto(`/tickets/${ticketId}`);
  await expect.poll(() => isAppReady(tech.page), { timeout: 30_000 }).toBe(true);
  await tech.page.getByRole("button", { name: "Apply macro" }).click();
  const apply = tech.page.getByRole("dialog", { name: "Apply a macro" });
  await apply.getByLabel("Macro").selectOption({ label: macroTitle });
  const preview = apply.getByRole("region", { name: "What it will do" });
  const firstName = user.name.split(" ")[0];
  await expect(preview).toContainText("Tags: + printer");
  await expect(preview).toContainText(`Public reply: Fixed the tray, ${firstName}.`);
  await expect(preview).toContainText("Status: Open → Resolved");
  await tech.page.screenshot({ path: "e2e/.artifacts/screens/macros-preview-375.png", fullPage: true });
  await apply.getByRole("button", { name: "Apply" }).click();
  await expect(tech.page.getByText(`Macro applied: ${macroTitle}`)).toBeVisible();

  const timeline = tech.page.getByRole("list", { name: "Ticket activity" });
  await expect(timeline).toContainText(`${tech.name} applied the macro “${macroTitle}”`);
  await expect(timeline).toContainText("added printer");

  // The requester sees the reply and the status, never the tag nor the macro.
  await user.page.goto(`/tickets/${ticketId}`);
  await expect.poll(() => isAppReady(user.page), { timeout: 30_000 }).toBe(true);
  await expect(user.page.getByRole("region", { name: /Comments/ })).toContainText(
    `Fixed the tray, ${firstName}.`,
  );
  const userTimeline = user.page.getByRole("list", { name: "Ticket activity" });
  await expect(userTimeline).toContainText("Resolved");
  await expect(userTimeline).not.toContainText("macro");
  await expect(userTimeline).not.toContainText("printer");
  await expect(user.page.getByRole("button", { name: "Apply macro" })).toHaveCount(0);

  await user.page.goto("/macros");
  await expect(user.page).toHaveURL(/\/user-home$/);
  await user.close();
  await tech.close();
});
