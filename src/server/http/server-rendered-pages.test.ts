import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTeam, insertTicket, insertUser, signIn } from "#server/test/factories.ts";
import { createDrawingTestApp, drawnStateOf, openPageAs } from "#server/test/page-renderer.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { timeZoneOf } from "#shared/page-rendering/server-rendered.ts";
import { acceptedLanguages } from "./server-rendered-pages.ts";

let drawing: Awaited<ReturnType<typeof createDrawingTestApp>>;
let t: TestApp;
let clientDir: string;
beforeAll(async () => {
  drawing = await createDrawingTestApp();
  t = drawing.t;
  clientDir = drawing.renderer.clientDir;
}, 120_000);
afterAll(() => drawing?.close());

const inBerlin = "helpdesk-tz=Europe%2FBerlin";

const openPage = (url: string, cookie: string | null, headers: Record<string, string> = {}) =>
  openPageAs(t.app, url, cookie, headers);

/** The state the page carries for the browser to start from. */
const renderedState = (html: string) =>
  drawnStateOf<{ queries: { queryKey: unknown[]; data: unknown }[]; locale: string }>(html);

describe("a signed-in home drawn by the server", () => {
  it("draws a user's own tickets, counts and name into the page, with the answers it drew them from", async () => {
    const una = await insertUser(t.database.db, { role: "user", name: "Una Example" });
    const other = await insertUser(t.database.db, { role: "user", name: "Otto Other" });
    await insertTicket(t.database.db, { createdBy: una.id, title: "Una's printer jams" });
    await insertTicket(t.database.db, { createdBy: una.id, title: "Una's VPN drops" });
    await insertTicket(t.database.db, { createdBy: other.id, title: "Otto's secret laptop" });
    const cookie = `${await signIn(t.app, una.email)}; ${inBerlin}`;

    const page = await openPage("/user-home", cookie);

    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    // The person's own page: never stored by a cache, never given to another cookie.
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.headers.vary).toMatch(/cookie/i);
    expect(page.body).toContain('<div id="root" data-drawn data-entry="/assets/index.js"');
    expect(page.body).toContain("<title>My Dashboard · Helpdesk</title>");
    expect(page.body).toContain("Welcome, Una Example");
    expect(page.body).toContain("Una&#x27;s printer jams");
    expect(page.body).toContain("Una&#x27;s VPN drops");
    expect(page.body).toContain("2 tickets");
    expect(page.body).not.toContain("Otto");
    // Who is signed in comes with the page: the built file's request for it is gone.
    expect(page.body).not.toContain('href="/api/me"');

    const state = renderedState(page.body);
    expect(state.locale).toBe("en");
    const keys = state.queries.map((query) => query.queryKey[0]);
    expect(keys).toEqual(expect.arrayContaining(["me", "tickets"]));
    expect(JSON.stringify(state)).not.toContain("Otto");
  });

  it("writes dates in the browser's time zone, as the browser would", async () => {
    const person = await insertUser(t.database.db, { role: "user" });
    await insertTicket(t.database.db, {
      createdBy: person.id,
      title: "Created at noon UTC",
      createdAt: new Date("2026-03-02T12:00:00Z"),
    });
    const cookie = await signIn(t.app, person.email);

    const inTokyo = await openPage("/user-home", `${cookie}; helpdesk-tz=Asia%2FTokyo`);
    const inNewYork = await openPage("/user-home", `${cookie}; helpdesk-tz=America%2FNew_York`);

    expect(inTokyo.body).toContain("Mar 2, 2026, 9:00 PM");
    expect(inNewYork.body).toContain("Mar 2, 2026, 7:00 AM");
  });

  it("draws a technician's home in the person's language, and says so in <html lang>", async () => {
    const technician = await insertUser(t.database.db, {
      role: "technician",
      name: "Tina Technik",
      locale: "de",
    });
    const cookie = `${await signIn(t.app, technician.email)}; ${inBerlin}`;

    const page = await openPage("/technician-home", cookie, { "accept-language": "en-US" });

    expect(page.body).toContain('<html lang="de"');
    expect(page.body).toContain("Willkommen, Tina Technik");
    expect(renderedState(page.body).locale).toBe("de");
  });

  it("draws the technician's tab the address names, as a reload or a shared link asks for it", async () => {
    const technician = await insertUser(t.database.db, { role: "technician" });
    const user = await insertUser(t.database.db, { role: "user" });
    await insertTicket(t.database.db, {
      createdBy: user.id,
      title: "Taken laptop",
      assignedTo: technician.id,
      status: "In Progress",
    });
    await insertTicket(t.database.db, { createdBy: user.id, title: "Waiting monitor" });
    const cookie = `${await signIn(t.app, technician.email)}; ${inBerlin}`;

    const mine = await openPage("/technician-home?tab=mine", cookie);
    const all = await openPage("/technician-home", cookie);

    expect(mine.body).toContain("data-drawn");
    expect(mine.body).toMatch(/aria-selected="true"[^>]*>My Tickets</);
    expect(mine.body).toContain("Taken laptop");
    expect(mine.body).not.toContain("Waiting monitor");
    expect(all.body).toMatch(/aria-selected="true"[^>]*>All Tickets</);
    expect(all.body).toContain("Waiting monitor");
  });

  it("draws a team member's team tabs with their counts, and none for someone in no team (decision 073)", async () => {
    const member = await insertUser(t.database.db, { role: "technician" });
    const loner = await insertUser(t.database.db, { role: "technician" });
    const user = await insertUser(t.database.db, { role: "user" });
    const team = await insertTeam(t.database.db, { name: "Drawn team", memberIds: [member.id] });
    await insertTicket(t.database.db, { createdBy: user.id, title: "Team printer", teamId: team.id });
    await insertTicket(t.database.db, { createdBy: user.id, title: "Teamless scanner" });

    const page = await openPage(
      "/technician-home?tab=team_unassigned",
      `${await signIn(t.app, member.email)}`,
    );
    expect(page.body).toContain("data-drawn");
    expect(page.body).toMatch(
      /aria-selected="true"[^>]*>My team(&#x27;|')s unassigned(<!-- -->| )*<span[^>]*>1</,
    );
    expect(page.body).toContain("Team printer");
    expect(page.body).not.toContain("Teamless scanner");
    const queues = renderedState(page.body).queries.find((query) => query.queryKey.includes("team-queues"));
    expect(queues?.data).toMatchObject({ mine: { unassigned: { count: 1 } } });

    const alone = await openPage("/technician-home", `${await signIn(t.app, loner.email)}`);
    expect(alone.body).toContain("data-drawn");
    expect(alone.body).not.toMatch(/My team(&#x27;|')s/);
  });

  it("follows the browser's language for a person who left it to the browser", async () => {
    const person = await insertUser(t.database.db, { role: "user", name: "Bea Browser", locale: "browser" });
    const cookie = `${await signIn(t.app, person.email)}; ${inBerlin}`;

    const german = await openPage("/user-home", cookie, { "accept-language": "fr-FR, de;q=0.9, en;q=0.8" });
    const english = await openPage("/user-home", cookie, { "accept-language": "en-GB, de;q=0.5" });

    expect(german.body).toContain('<html lang="de"');
    expect(english.body).toContain('<html lang="en"');
  });

  it("keeps markup in what people typed as text, in the page and in the state it carries", async () => {
    const person = await insertUser(t.database.db, { role: "user" });
    const title = `</script><script>alert("x")</script><!-- <img src=x onerror=alert(1)>`;
    await insertTicket(t.database.db, { createdBy: person.id, title });
    const cookie = `${await signIn(t.app, person.email)}; ${inBerlin}`;

    const page = await openPage("/user-home", cookie);

    expect(page.body).toContain("data-drawn");
    expect(page.body).not.toContain('<script>alert("x")');
    expect(page.body).not.toContain("<img src=x");
    // The state's JSON cannot end its <script> element; parsed, it is the title as typed.
    const tickets = renderedState(page.body).queries.find((query) => query.queryKey[0] === "tickets");
    expect(JSON.stringify(tickets?.data)).toContain(JSON.stringify(title).slice(1, -1));
  });

  it("sends anyone the page is not for elsewhere before drawing anything (decision 065)", async () => {
    const user = await insertUser(t.database.db, { role: "user" });
    const technician = await insertUser(t.database.db, { role: "technician" });
    const userCookie = await signIn(t.app, user.email);
    const technicianCookie = await signIn(t.app, technician.email);

    const cases = [
      ["signed out", "/user-home", inBerlin, "/sign-in?next=%2Fuser-home"],
      ["another role's home", "/technician-home", `${userCookie}; ${inBerlin}`, "/user-home"],
      ["another role's home", "/user-home", `${technicianCookie}; ${inBerlin}`, "/technician-home"],
      [
        "a session that ended",
        "/user-home",
        `better-auth.session_token=gone.token; ${inBerlin}`,
        "/sign-in?next=%2Fuser-home",
      ],
    ] as const;
    for (const [what, url, cookie, target] of cases) {
      const page = await openPage(url, cookie);
      expect(page.statusCode, what).toBe(303);
      expect(page.headers.location, what).toBe(target);
      expect(page.headers["cache-control"], what).toBe("no-store");
    }
  });

  it("draws a home in UTC for a browser that has not said its time zone, and says so to the browser", async () => {
    const una = await insertUser(t.database.db, { role: "user", name: "Una Zone" });
    await insertTicket(t.database.db, { createdBy: una.id, title: "Drawn in UTC" });
    const cookie = await signIn(t.app, una.email);
    for (const [what, withZone] of [
      ["no time zone yet", cookie],
      ["a time zone that is not one", `${cookie}; helpdesk-tz=Mars%2FOlympus`],
    ] as const) {
      const page = await openPage("/user-home", withZone);
      expect(page.statusCode, what).toBe(200);
      expect(page.body, what).toContain("Drawn in UTC");
      expect(renderedState(page.body), what).toMatchObject({ timeZone: "UTC" });
    }
  });
});

describe("a home the server cannot draw in time", () => {
  it("is sent as built, for the browser to draw, without waiting any longer", async () => {
    const stalled = await createTestApp({
      clientDir,
      pageRendering: { renderPage: () => new Promise(() => {}), timeoutMs: 50 },
    });
    try {
      const person = await insertUser(stalled.database.db, { role: "user" });
      const cookie = `${await signIn(stalled.app, person.email)}; ${inBerlin}`;
      const page = await request(stalled.app, { method: "GET", url: "/user-home", cookie });
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain("data-drawn");
      expect(page.body).toContain('<div id="root" data-entry="/assets/index.js"');
    } finally {
      await stalled.close();
    }
  });
});

describe("what the browser tells the server", () => {
  it("reads the time zone cookie, refusing what is not a zone", () => {
    expect(timeZoneOf("a=b; helpdesk-tz=Europe%2FBerlin; c=d")).toBe("Europe/Berlin");
    expect(timeZoneOf("helpdesk-tz=UTC")).toBe("UTC");
    expect(timeZoneOf("helpdesk-tz=Nowhere%2FLand")).toBeNull();
    expect(timeZoneOf("helpdesk-tz=%E0%A4%A")).toBeNull();
    expect(timeZoneOf("helpdesk-tz=Europe%2FBerlin%3Cscript%3E")).toBeNull();
    expect(timeZoneOf("x-helpdesk-tz=Europe%2FBerlin")).toBeNull();
    expect(timeZoneOf("")).toBeNull();
  });

  it("orders Accept-Language by weight", () => {
    expect(acceptedLanguages("fr-FR, de;q=0.9, en;q=0.8")).toEqual(["fr-FR", "de", "en"]);
    expect(acceptedLanguages("en;q=0.5, de-CH")).toEqual(["de-CH", "en"]);
    expect(acceptedLanguages("*, de;q=0")).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});
