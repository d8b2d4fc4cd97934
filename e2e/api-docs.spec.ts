import { expect, test } from "@playwright/test";

test("the API docs open signed out under the strict CSP and show the Helpdesk API and its routes", async ({
  page,
}) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`CSP refused ${event.violatedDirective}: ${event.blockedURI}`),
    );
  });

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/api/docs");
  await expect(page.getByRole("heading", { name: /Helpdesk/ }).first()).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/screens/api-docs-top-1280.png", fullPage: false });
  // The areas are listed closed (a document of ~140 operations); every area is there, and one opens on a click.
  const areas = page.locator("h3.opblock-tag");
  await expect(areas.filter({ hasText: /^tickets/ })).toBeVisible();
  await expect(areas.filter({ hasText: /^teams/ })).toBeVisible();
  await expect(areas.filter({ hasText: /^webhooks/ })).toBeVisible();
  await areas.filter({ hasText: /^tickets/ }).click();
  // Swagger UI gives each operation an id of its tag and operationId (http/openapi-operations.ts).
  await expect(page.locator("#operations-tickets-assignTicketToMe")).toContainText(
    "/api/tickets/{ticketId}/assign",
  );

  // Opening an operation shows what the zod schemas say about it, and the shared error shape.
  const createTicket = page.locator("#operations-tickets-createTicket");
  await createTicket.locator(".opblock-summary").click();
  await expect(createTicket.getByText("title").first()).toBeVisible();
  await expect(page.getByText("4XX").first()).toBeVisible();
  await page.screenshot({ path: "e2e/.artifacts/screens/api-docs-1280.png", fullPage: false });

  // On a phone the page fits the width: long paths wrap or scroll inside their own box.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: "e2e/.artifacts/screens/api-docs-375.png", fullPage: false });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect.soft(overflow, "/api/docs at 375 px is wider than the window by").toBeLessThanOrEqual(0);

  expect(problems).toEqual([]);
});
