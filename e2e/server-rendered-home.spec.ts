import { expect, type Page, test } from "@playwright/test";
import { delayCode, isAppReady, settings } from "./support.ts";
import { createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 052: a signed-in home is drawn by the server for its person, painted from the HTML before any
// code has run, then taken over by React in place (hydration) without a difference between the two.

/** Console errors and uncaught errors of a page, CSP refusals and React's hydration reports among them. */
function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** React has taken the page over (its root carries React's container key). */
const hydrated = (page: Page) =>
  page.waitForFunction(() =>
    Object.keys(document.getElementById("root") ?? {}).some((key) => key.startsWith("__reactContainer")),
  );

test("a user's home is painted from the server's HTML with their tickets, then works as drawn", async ({
  browser,
}) => {
  const una = await signUpInNewBrowser(browser, "Una", "User");
  const title = `Scanner <b>offline</b> ${Date.now().toString(36)}`;
  await createTicketThroughApi(una.page, { title, priority: "High" });

  const errors = watchErrors(una.page);
  const response = await una.page.goto("/user-home");
  const html = (await response?.text()) ?? "";
  expect(html).toContain('<div id="root" data-drawn');
  expect(html).toContain("Scanner &lt;b&gt;offline&lt;/b&gt;");
  await hydrated(una.page);
  await expect(una.page.getByRole("heading", { name: "My Dashboard" })).toBeVisible();
  await expect(una.page.getByRole("link", { name: new RegExp(title.replace(/[<>]/g, ".")) })).toBeVisible();
  // React's own: the form opens and closes.
  await una.page.getByRole("button", { name: "Create New Ticket" }).click();
  await expect(una.page.getByRole("region", { name: "Create New Ticket" })).toBeVisible();
  expect(errors).toEqual([]);

  // The same page without any script: everything the person came for is already there.
  const context = await browser.newContext({ baseURL: settings.baseURL, javaScriptEnabled: false });
  await context.addCookies(await una.page.context().cookies());
  const plain = await context.newPage();
  await plain.goto("/user-home");
  await expect(plain.getByRole("heading", { name: "My Dashboard" })).toBeVisible();
  await expect(plain.getByText(`Welcome, ${una.name}`)).toBeVisible();
  await expect(plain.getByText(title)).toBeVisible();
  await expect(plain.getByText("1 ticket", { exact: true })).toBeVisible();
  await plain.screenshot({ path: "e2e/.artifacts/user-home-without-script.png", fullPage: true });
  await context.close();
  await una.close();
});

test("a technician who reads German gets the home drawn in German, in the dark, on a phone", async ({
  browser,
}) => {
  const tina = await signUpInNewBrowser(browser, "Tina", "Technician");
  await tina.page.setViewportSize({ width: 375, height: 812 });
  await tina.page.emulateMedia({ colorScheme: "dark" });
  expect((await tina.page.request.put("/api/me/locale", { data: { locale: "de" } })).status()).toBe(200);

  const errors = watchErrors(tina.page);
  const response = await tina.page.goto("/technician-home");
  const html = (await response?.text()) ?? "";
  expect(html).toContain('<html lang="de"');
  expect(html).toContain("data-drawn");
  await hydrated(tina.page);
  await expect(tina.page.getByText(`Willkommen, ${tina.name}`)).toBeVisible();
  await expect(tina.page.locator("html")).toHaveClass(/dark/);
  // React's own: the tabs switch.
  await tina.page.getByRole("tab", { name: "Nicht zugewiesen" }).click();
  await expect(tina.page.getByRole("tab", { name: "Nicht zugewiesen" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  expect(errors).toEqual([]);
  await tina.page.screenshot({ path: "e2e/.artifacts/technician-home-de-dark-375.png", fullPage: true });
  await tina.close();
});

test("a button pressed on the drawn home before its code has run is answered once the code is there", async ({
  browser,
}) => {
  const una = await signUpInNewBrowser(browser, "Una", "User");
  // A slow phone: the page's code arrives 1.5 s after the HTML has been painted.
  await delayCode(una.page, 1500);
  const errors = watchErrors(una.page);
  await una.page.goto("/user-home", { waitUntil: "domcontentloaded" });
  expect(await isAppReady(una.page)).toBe(false);
  await una.page.getByRole("button", { name: "Create New Ticket" }).click();
  // Held, not lost: the form opens when React has the page, and only once (not opened and closed again).
  await expect(una.page.getByRole("region", { name: "Create New Ticket" })).toBeVisible();
  await expect(una.page.getByRole("button", { name: "Hide Form" })).toBeVisible();
  expect(errors).toEqual([]);
  await una.close();
});

test("a drawn page asks for its code only once its first paint has been shown, signed out and signed in", async ({
  browser,
  page,
}) => {
  const una = await signUpInNewBrowser(browser, "Una", "User");
  for (const [who, drawn, path] of [
    ["signed out", page, "/sign-in"],
    ["a user", una.page, "/user-home"],
  ] as const) {
    await drawn.goto(path);
    await hydrated(drawn);
    const { paint, code } = await drawn.evaluate(() => ({
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
      code: performance
        .getEntriesByType("resource")
        .filter((entry) => /\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname))
        .map((entry) => entry.startTime),
    }));
    // The theme script asks for the code (decision 043); the paint it waits for is recorded first.
    expect(paint, who).toBeGreaterThan(0);
    expect(code.length, who).toBeGreaterThan(0);
    for (const start of code) expect(start, who).toBeGreaterThan(paint);
  }
  await una.close();
});

test("the technician's tab is in the address: drawn by the server, kept on reload and on Back", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Ugo", "User");
  const title = `Dock unplugged ${Date.now().toString(36)}`;
  await createTicketThroughApi(user.page, { title });
  const theo = await signUpInNewBrowser(browser, "Theo", "Technician");
  const { page } = theo;
  const errors = watchErrors(page);
  const selectedTab = page.getByRole("tab", { selected: true });

  const response = await page.goto("/technician-home?tab=unassigned");
  const html = (await response?.text()) ?? "";
  expect(html).toContain("data-drawn");
  expect(html).toMatch(/aria-selected="true"[^>]*>Unassigned</);
  await hydrated(page);
  await expect(selectedTab).toHaveText("Unassigned");

  await page.getByRole("tab", { name: "My Tickets" }).click();
  await expect(page).toHaveURL(/\/technician-home\?tab=mine$/);
  await page.reload();
  await expect(selectedTab).toHaveText("My Tickets");

  await page.getByRole("tab", { name: "Unassigned" }).click();
  await page.getByRole("link", { name: new RegExp(title) }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/technician-home\?tab=unassigned$/);
  await expect(selectedTab).toHaveText("Unassigned");
  expect(errors).toEqual([]);
  await Promise.all([user.close(), theo.close()]);
});
