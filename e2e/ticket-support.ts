import { type Browser, expect, type Locator, type Page } from "@playwright/test";
import type { CreateTicketInput, Ticket } from "#shared/tickets/ticket.schemas.ts";
import { createAdmin, settings, signIn, signUp, unique } from "./support.ts";

export interface Person {
  page: Page;
  name: string;
  email: string;
  close: () => Promise<void>;
}

/** A person with their own browser (cookies), signed up through the real form and landed on their home. */
export async function signUpInNewBrowser(
  browser: Browser,
  firstName: string,
  role: "User" | "Technician",
): Promise<Person> {
  const context = await browser.newContext({ baseURL: settings.baseURL });
  const page = await context.newPage();
  const name = `${firstName} ${unique("e2e")}`;
  const email = `${unique(firstName.toLowerCase())}@example.test`;
  await signUp(page, name, email, role);
  await expect(page).toHaveURL(role === "User" ? /\/user-home$/ : /\/technician-home$/);
  return { page, name, email, close: () => context.close() };
}

/** An administrator (created through /api/admin-signup with the e2e key) signed in in their own browser. */
export async function adminInNewBrowser(browser: Browser, firstName: string): Promise<Person> {
  const context = await browser.newContext({ baseURL: settings.baseURL });
  const page = await context.newPage();
  const name = `${firstName} ${unique("e2e")}`;
  const email = `${unique(firstName.toLowerCase())}@example.test`;
  await createAdmin(page, name, email);
  await context.clearCookies();
  await signIn(page, email);
  await expect(page).toHaveURL(/\/admin-home$/);
  return { page, name, email, close: () => context.close() };
}

const ticketDefaults: CreateTicketInput = {
  title: "Untitled",
  description: "Something does not work.",
  category: "Hardware",
  priority: "Low",
  department: "General",
  floor: "1",
  officeNumber: "101",
};

/** Raises a ticket through the API as the page's signed-in person (quicker than the form when the form is not under test). */
export async function createTicketThroughApi(page: Page, input: Partial<CreateTicketInput>) {
  const response = await page.request.post("/api/tickets", { data: { ...ticketDefaults, ...input } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as Ticket).ticketId;
}

/** The TKT id of a ticket row, read from where it links to. */
export async function ticketIdOf(row: Locator) {
  const id = (await row.getAttribute("href"))?.match(/\/tickets\/(TKT[0-9A-Z]+)$/)?.[1];
  expect(id, "a link to /tickets/TKT…").toBeTruthy();
  return id!;
}

/** The value a details list shows for a label ("Assigned to" → "Theo Tech"). */
export const detail = (page: Page, label: string) =>
  page
    .getByRole("term")
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd");

/** The value of a dashboard count ("Open" → "3"). */
export const count = (page: Page, label: string) =>
  page
    .getByRole("region", { name: "Ticket counts" })
    .getByRole("term")
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd");

export const statusGroup = (page: Page) => page.getByRole("group", { name: "Change status" });

export const ticketRows = (page: Page) => page.getByRole("link", { name: /TKT[0-9A-Z]+/ });
