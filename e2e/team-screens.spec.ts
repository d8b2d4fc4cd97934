import { type APIResponse, type Browser, expect, type Page, test } from "@playwright/test";
import { axeViolations, isAppReady, unique } from "./support.ts";
import { adminInNewBrowser, createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// The screens of teams, queues, on hold, tags and saved views (decisions 069–073), as a team's member and
// as an administrator see them with data in them: each at 1280 and 375 px, light and dark, in English and
// German, photographed (e2e/.artifacts/screens/) and checked by axe against WCAG 2.1 AA.

const combinations = [
  { locale: "en", theme: "light" },
  { locale: "en", theme: "dark" },
  { locale: "de", theme: "light" },
  { locale: "de", theme: "dark" },
] as const;

async function ok(response: Promise<APIResponse>, status = 200) {
  const answer = await response;
  expect(answer.status(), await answer.text()).toBe(status);
  return answer;
}

/** Opens each route, waits for its page and data, photographs it and answers axe's violations as lines. */
async function auditAll(page: Page, who: string, routes: string[]) {
  const found: string[] = [];
  for (const { locale, theme } of combinations) {
    await ok(page.request.put("/api/me/locale", { data: { locale } }));
    await page.emulateMedia({ colorScheme: theme });
    for (const route of routes) {
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: width > 600 ? 900 : 800 });
        await page.goto(route);
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        await expect(page.locator("main h1").first()).toBeVisible();
        await expect.poll(() => isAppReady(page), { timeout: 30_000 }).toBe(true);
        await expect(page.locator("main .animate-spin")).toHaveCount(0);
        const name = route
          .replace(/\/TKT[0-9A-Z]+/, "/id")
          .replace(/[^a-zA-Z0-9]+/g, "-")
          .replace(/^-|-$/g, "");
        await page.screenshot({
          path: `e2e/.artifacts/screens/teams-${who}-${name}-${locale}-${theme}-${width}.png`,
          fullPage: true,
        });
        found.push(...(await axeViolations(page, `${route} @${width}px ${locale} ${theme}`)));
      }
    }
  }
  await ok(page.request.put("/api/me/locale", { data: { locale: "en" } }));
  return found;
}

async function idOf(page: Page) {
  return ((await (await page.request.get("/api/me")).json()) as { id: string }).id;
}

test("teams, queues, on hold, tags and views: every screen at two widths, two themes, two languages, axe clean", async ({
  browser,
}: {
  browser: Browser;
}) => {
  test.setTimeout(600_000);
  const admin = await adminInNewBrowser(browser, "Astrid");
  const member = await signUpInNewBrowser(browser, "Mika", "Technician");
  const user = await signUpInNewBrowser(browser, "Uwe", "User");
  const memberId = await idOf(member.page);

  const team = (await (
    await ok(
      admin.page.request.post("/api/teams", {
        data: {
          name: `Network ${unique("ts")}`,
          description: "Routers, VPN and Wi-Fi",
          memberIds: [memberId],
          leadId: memberId,
        },
      }),
      201,
    )
  ).json()) as { id: string };
  const worked = await createTicketThroughApi(user.page, { title: "VPN drops every ten minutes" });
  const waiting = await createTicketThroughApi(user.page, { title: "Wi-Fi on floor 3 is slow" });
  for (const ticketId of [worked, waiting]) {
    await ok(admin.page.request.put(`/api/tickets/${ticketId}/team`, { data: { teamId: team.id } }));
  }
  await ok(member.page.request.post(`/api/tickets/${worked}/assign`));
  await ok(member.page.request.patch(`/api/tickets/${worked}/tags`, { data: { add: ["vpn", "gateway"] } }));
  await ok(
    member.page.request.put(`/api/tickets/${worked}/hold`, {
      data: { comment: "Which VPN client version do you have? It is under Help → About." },
    }),
  );
  await ok(
    member.page.request.post("/api/views", { data: { name: "VPN on hold", query: "tag=vpn&onHold=true" } }),
    201,
  );
  await ok(member.page.request.put("/api/me/away", { data: { away: true } }));

  const memberFindings = await auditAll(member.page, "member", [
    "/technician-home?tab=team_unassigned",
    "/tickets?tab=team&tag=vpn",
    `/tickets/${worked}`,
    "/profile",
  ]);
  const adminFindings = await auditAll(admin.page, "admin", [
    "/admin/teams",
    "/admin-home",
    "/reports",
    "/admin/settings?tab=tags",
  ]);
  expect([...memberFindings, ...adminFindings]).toEqual([]);

  for (const person of [admin, member, user]) await person.close();
});
