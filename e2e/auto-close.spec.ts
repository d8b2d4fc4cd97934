import { expect, test } from "@playwright/test";
import { unique } from "./support.ts";
import {
  adminInNewBrowser,
  createTicketThroughApi,
  signUpInNewBrowser,
  statusGroup,
} from "./ticket-support.ts";

// Decision 021: an admin sets auto-close to 3 days; the creator of a resolved ticket is told the date.

test("an admin sets auto-close to 3 days and the creator of a resolved ticket sees when it will close", {
  tag: "@instances",
}, async ({ browser }) => {
  const admin = await adminInNewBrowser(browser, "Ada");
  const user = await signUpInNewBrowser(browser, "Uma", "User");
  try {
    await admin.page.goto("/admin/settings?tab=auto-close");
    const days = admin.page.getByLabel("Days without activity");
    await expect(days).toHaveValue(/\d+/);
    await days.fill("0");
    await admin.page.getByRole("button", { name: "Save" }).click();
    await expect(admin.page.getByText("Days must be a whole number from 1 to 365")).toBeVisible();
    await days.fill("3");
    await admin.page.getByRole("button", { name: "Save" }).click();
    await expect(admin.page.getByText("Settings saved")).toBeVisible();
    await expect(
      admin.page.getByRole("switch", { name: "Close resolved tickets automatically" }),
    ).toHaveAttribute("aria-checked", "true");

    const ticketId = await createTicketThroughApi(user.page, { title: `Monitor flickers ${unique("ac")}` });
    await admin.page.goto(`/tickets/${ticketId}`);
    await statusGroup(admin.page).getByRole("button", { name: "Resolved" }).click();
    await expect(admin.page.getByText("Ticket status updated to Resolved")).toBeVisible();
    await expect(
      admin.page.getByText(/Closes automatically on .+ unless the creator replies or rates it\./),
    ).toBeVisible();

    await user.page.goto(`/tickets/${ticketId}`);
    const notice = user.page.getByText(/This ticket will close automatically on/);
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("unless you reply or rate it.");
    // Three days from now, in the reader's own format.
    const expected = await user.page.evaluate(() =>
      new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(Date.now() + 3 * 24 * 60 * 60_000),
    );
    await expect(notice).toContainText(expected);
    await expect(user.page.getByRole("heading", { name: "Rate & Feedback" })).toBeVisible();

    await admin.page.screenshot({ path: "test-results/auto-close-staff.png" });
    await user.page.screenshot({ path: "test-results/auto-close-creator.png", fullPage: true });
  } finally {
    // Other journeys share this server: put the default back.
    await admin.page.request.put("/api/admin/settings/auto-close", { data: { enabled: true, days: 7 } });
    await admin.close();
    await user.close();
  }
});
