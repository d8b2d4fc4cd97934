import { type Browser, expect, type Page, test } from "@playwright/test";
import { createAdmin, settings, signIn, signUp, unique } from "./support.ts";
import { createTicketThroughApi } from "./ticket-support.ts";

// HTML or script in every text a person can enter renders as text. A user whose name is
// markup raises a ticket whose every text field is markup and comments in markup; a technician writes an
// internal note and a help article (Markdown with raw HTML) in markup. Then every page of each role that
// shows those texts is opened: no element the markup would have made exists, no script ran (no dialog, no
// CSP violation: an inline handler that slipped through would be refused and reported), and the markup
// reads as the characters typed.
test.describe.configure({ timeout: 240_000 });

/** Markup that would make an element carrying data-xss (and try to run script) if it were parsed. */
const markup = (where: string) => `<img data-xss="${where}" src=x onerror=alert(1)>`;
const scriptTag = (where: string) => `<script data-xss="${where}">alert(1)</script>`;

async function watchedPage(browser: Browser): Promise<{ page: Page; incidents: string[] }> {
  const context = await browser.newContext({ baseURL: settings.baseURL });
  const page = await context.newPage();
  const incidents: string[] = [];
  page.on("dialog", async (dialog) => {
    incidents.push(`dialog on ${page.url()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text()))
      incidents.push(`CSP on ${page.url()}: ${message.text()}`);
  });
  return { page, incidents };
}

/** Opens each route, waits for its content, and answers what the markup made of the page. */
async function visitAll(page: Page, routes: string[]) {
  const found: string[] = [];
  for (const route of routes) {
    await page.goto(route);
    // Still signed in: a page that sent its visitor to /sign-in would pass the checks below vacuously.
    await expect(page).not.toHaveURL(/\/sign-in/);
    await expect(page.locator("main h1").first()).toBeVisible();
    await expect(page.locator("main .animate-spin")).toHaveCount(0);
    const made = await page
      .locator("[data-xss]")
      .evaluateAll((elements) =>
        elements.map(
          (element) => `${element.tagName.toLowerCase()} from ${element.getAttribute("data-xss")}`,
        ),
      );
    found.push(...made.map((element) => `${route}: ${element}`));
  }
  return found;
}

test("markup typed into names, tickets, comments, notes and articles shows as text on every page", async ({
  browser,
}) => {
  const marker = unique("xss");
  const user = await watchedPage(browser);
  const userName = `Eve ${markup("name")} ${marker}`;
  await signUp(user.page, userName, `${unique("eve")}@example.test`, "User");
  await expect(user.page).toHaveURL(/\/user-home$/);
  const title = `Printer ${markup("title")} ${marker}`;
  const ticketId = await createTicketThroughApi(user.page, {
    title,
    description: `${scriptTag("description")} **not bold** ${markup("description")}`,
    department: markup("department").slice(0, 90),
    floor: "<b data-xss=floor>2",
    officeNumber: "<i data-xss=office>",
  });
  const comment = await user.page.request.post(`/api/tickets/${ticketId}/comments`, {
    data: { message: `Still broken ${scriptTag("comment")} ${markup("comment")}` },
  });
  expect(comment.status()).toBe(201);

  const tech = await watchedPage(browser);
  await signUp(tech.page, `Tess ${marker}`, `${unique("tess")}@example.test`, "Technician");
  await expect(tech.page).toHaveURL(/\/technician-home$/);
  const note = await tech.page.request.post(`/api/tickets/${ticketId}/comments`, {
    data: { message: `Internal ${markup("note")}`, isInternal: true },
  });
  expect(note.status()).toBe(201);
  const article = await tech.page.request.post("/api/articles", {
    data: {
      title: `Reset ${markup("article-title")} ${marker}`,
      body: `Raw HTML ${markup("article-body")} and [a link](javascript:alert(1)) and ${scriptTag("article-body")}`,
      category: "Hardware",
      status: "published",
    },
  });
  expect(article.status()).toBe(201);
  const { slug } = (await article.json()) as { slug: string };

  // The user: the ticket's texts read as typed.
  const userFound = await visitAll(user.page, [
    "/user-home",
    "/tickets",
    `/tickets/${ticketId}`,
    "/notifications",
    "/kb",
    `/kb/${slug}`,
    "/profile",
  ]);
  await user.page.goto(`/tickets/${ticketId}`);
  await expect(user.page.getByRole("heading", { name: title })).toBeVisible();
  await expect(
    user.page.getByRole("article").getByText(`Still broken ${scriptTag("comment")} ${markup("comment")}`),
  ).toBeVisible();
  await expect(user.page.getByText("**not bold**", { exact: false })).toBeVisible();

  // The technician: queue, the ticket with the note, notifications of the new ticket, the article's pages.
  const techFound = await visitAll(tech.page, [
    "/technician-home",
    `/tickets?q=${marker}`,
    `/tickets/${ticketId}`,
    "/notifications",
    "/kb",
    `/kb/${slug}`,
    `/kb/${slug}/edit`,
    `/kb/${slug}/history`,
    "/kb/stats",
    "/reports",
  ]);
  await tech.page.goto(`/tickets/${ticketId}`);
  await expect(tech.page.getByRole("article").getByText(`Internal ${markup("note")}`)).toBeVisible();
  await expect(tech.page.getByText(userName).first()).toBeVisible();
  await tech.page.goto(`/kb/${slug}`);
  // The article's raw HTML is dropped by the sanitiser, the javascript: link loses its target.
  await expect(tech.page.locator('main a[href^="javascript:"]')).toHaveCount(0);

  // The administrator: the person's name in user management, the ticket in the admin's lists.
  const admin = await watchedPage(browser);
  const adminEmail = `${unique("ada")}@example.test`;
  await createAdmin(admin.page, `Ada ${marker}`, adminEmail);
  await admin.page.context().clearCookies();
  await signIn(admin.page, adminEmail);
  await expect(admin.page).toHaveURL(/\/admin-home$/);
  const adminFound = await visitAll(admin.page, [
    "/admin-home",
    `/admin/user-management?q=${marker}`,
    `/tickets?q=${marker}`,
    `/tickets/${ticketId}`,
    "/reports",
  ]);
  await admin.page.goto(`/admin/user-management?q=${marker}`);
  await expect(admin.page.getByText(userName).first()).toBeVisible();

  expect([...userFound, ...techFound, ...adminFound], "elements made from typed markup").toEqual([]);
  expect(
    [...user.incidents, ...tech.incidents, ...admin.incidents],
    "script that ran or was refused",
  ).toEqual([]);
});
