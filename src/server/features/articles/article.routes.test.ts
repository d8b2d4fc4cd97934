import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { articles, ticketComments, type UserRow } from "#server/db/schema/index.ts";
import { createTestClock } from "#server/test/clock.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { registeredRoutes } from "#server/test/route-table.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Article, ArticleDiff, ArticleList, ArticleStats } from "#shared/articles/article.schemas.ts";

let t: TestApp;
type Person = { user: UserRow; cookie: string };
let user: Person;
let otherUser: Person;
let technician: Person;
let admin: Person;
const clock = createTestClock(new Date());

beforeAll(async () => {
  t = await createTestApp({ clock });
  user = await signedInAs(t.app, t.database.db, "user");
  otherUser = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
});
afterAll(() => t.close());
beforeEach(() => t.database.db.delete(articles));

const url = "/api/articles";
const formVisit = () => crypto.randomUUID();

async function create(person: Person, payload: Record<string, unknown>) {
  const response = await request(t.app, { method: "POST", url, cookie: person.cookie, payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Article>();
}

async function get<T>(person: Person, path: string, status = 200): Promise<T> {
  const response = await request(t.app, { method: "GET", url: path, cookie: person.cookie });
  expect(response.statusCode, `${path}: ${response.body}`).toBe(status);
  return response.json<T>();
}

const titles = (list: ArticleList) => list.items.map((item) => item.title);

/** One article of each kind the visibility rule tells apart, all about the VPN. */
async function oneOfEach() {
  const published = await create(technician, {
    title: "Connect to the VPN",
    body: "Open the VPN client and sign in.",
    category: "Network",
    tags: ["vpn"],
    status: "published",
  });
  const draft = await create(technician, {
    title: "VPN draft",
    body: "Work in progress about the VPN.",
    category: "Network",
    status: "draft",
  });
  const internal = await create(admin, {
    title: "VPN server restart",
    body: "Restart the VPN concentrator from the rack console.",
    category: "Network",
    status: "published",
    visibility: "internal",
  });
  return { published, draft, internal };
}

describe("who may use the knowledge-base routes", () => {
  const articleRoutes = () =>
    registeredRoutes(t.app).filter((route) => route.url.startsWith(url) && route.method !== "HEAD");
  const concrete = (path: string) =>
    path.replace(":articleId", "999999").replace(":ticketId", "TKT000000AAAAAAAA");

  it("lists the routes it checks", () => {
    expect(articleRoutes().map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        "GET /api/articles",
        "POST /api/articles",
        "GET /api/articles/suggestions",
        "GET /api/articles/stats",
        "GET /api/articles/:articleId",
        "PATCH /api/articles/:articleId",
        "GET /api/articles/:articleId/revisions",
        "GET /api/articles/:articleId/diff",
        "PUT /api/articles/:articleId/vote",
        "POST /api/articles/:articleId/suggestion-opens",
        "POST /api/articles/deflections",
        "GET /api/articles/from-ticket/:ticketId",
      ]),
    );
  });

  it("refuses anonymous people on every route (401), even with a bad body, and writes nothing", async () => {
    for (const route of articleRoutes()) {
      const response = await request(t.app, {
        method: route.method as "GET",
        url: concrete(route.url),
        payload: route.method === "GET" ? undefined : { nonsense: true },
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
    expect(await t.database.db.select().from(articles)).toEqual([]);
  });

  it("refuses users the staff routes (403) before reading the body", async () => {
    const staffRoutes = [
      ["POST", url],
      ["GET", `${url}/stats`],
      ["GET", `${url}/from-ticket/TKT000000AAAAAAAA`],
      ["PATCH", `${url}/1`],
      ["GET", `${url}/1/revisions`],
      ["GET", `${url}/1/diff?from=1&to=2`],
    ] as const;
    for (const [method, path] of staffRoutes) {
      const response = await request(t.app, {
        method,
        url: path,
        cookie: user.cookie,
        payload: method === "GET" ? undefined : { nonsense: true },
      });
      expect(response.statusCode, `${method} ${path}: ${response.body}`).toBe(403);
      expect(response.json().message).toBe(
        "Only technicians and administrators can write knowledge-base articles.",
      );
    }
  });

  it("answers technicians and admins on every route: a missing article 404, a bad body 400", async () => {
    for (const staff of [technician, admin]) {
      for (const route of articleRoutes()) {
        const hasParam = route.url.includes(":");
        const isRead = route.method === "GET";
        const response = await request(t.app, {
          method: route.method as "GET",
          url: concrete(route.url) + (route.url.endsWith("/diff") ? "?from=1&to=2" : ""),
          cookie: staff.cookie,
          payload: isRead ? undefined : { nonsense: true },
        });
        const expected = isRead ? (hasParam ? 404 : route.url.endsWith("suggestions") ? 400 : 200) : 400;
        expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBe(expected);
      }
    }
  });

  it("refuses a bad article id or body with 400 in the shared error shape", async () => {
    const response = await request(t.app, { method: "GET", url: `${url}/not-a-number`, cookie: user.cookie });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "validation_failed" });
    const bad = await request(t.app, {
      method: "POST",
      url,
      cookie: technician.cookie,
      payload: { title: "", body: "x", category: "Food" },
    });
    expect(bad.statusCode).toBe(400);
    expect(await t.database.db.select().from(articles)).toEqual([]);
  });
});

describe("drafts and internal articles", () => {
  it("never reach a user: not in the list, a search, a category, suggestions, most viewed or by id", async () => {
    const { published, draft, internal } = await oneOfEach();
    for (const path of [
      url,
      `${url}?q=vpn`,
      `${url}?category=Network`,
      `${url}?status=draft`,
      `${url}?sort=most-viewed`,
      `${url}/suggestions?q=vpn`,
      `${url}/suggestions?q=restart%20concentrator`,
    ]) {
      const list = await get<ArticleList>(user, path);
      expect(
        titles(list).filter((title) => title !== published.title),
        path,
      ).toEqual([]);
    }
    for (const hidden of [draft, internal]) {
      await get(user, `${url}/${hidden.id}`, 404);
      const vote = await request(t.app, {
        method: "PUT",
        url: `${url}/${hidden.id}/vote`,
        cookie: user.cookie,
        payload: { helpful: true },
      });
      expect(vote.statusCode).toBe(404);
      const open = await request(t.app, {
        method: "POST",
        url: `${url}/${hidden.id}/suggestion-opens`,
        cookie: user.cookie,
        payload: { formVisit: formVisit() },
      });
      expect(open.statusCode).toBe(404);
    }
    expect((await get<Article>(user, `${url}/${published.id}`)).title).toBe("Connect to the VPN");
  });

  it("are seen by technicians and admins everywhere; suggestions stay published only", async () => {
    await oneOfEach();
    for (const staff of [technician, admin]) {
      expect(titles(await get<ArticleList>(staff, `${url}?q=vpn`)).sort()).toEqual([
        "Connect to the VPN",
        "VPN draft",
        "VPN server restart",
      ]);
      expect(titles(await get<ArticleList>(staff, `${url}?status=draft`))).toEqual(["VPN draft"]);
      expect(titles(await get<ArticleList>(staff, `${url}/suggestions?q=vpn`)).sort()).toEqual([
        "Connect to the VPN",
        "VPN server restart",
      ]);
    }
  });
});

describe("search", () => {
  it("ranks a title match above a body match, and highlights the words as text parts", async () => {
    await create(technician, {
      title: "Printer jams on floor 2",
      body: "If the printer keeps failing, the wireless network may be the cause.",
      category: "Hardware",
      status: "published",
    });
    await create(technician, {
      title: "Wireless network setup",
      body: "Join the office network.",
      category: "Network",
      status: "published",
    });
    const list = await get<ArticleList>(user, `${url}?q=wireless`);
    expect(titles(list)).toEqual(["Wireless network setup", "Printer jams on floor 2"]);
    const snippet = list.items[1]!.snippet!;
    expect(snippet.filter((part) => part.highlighted).map((part) => part.text)).toEqual(["wireless"]);
    expect(snippet.map((part) => part.text).join("")).toContain("wireless network may be the cause");
  });

  it("ranks a tag match above a body match", async () => {
    await create(technician, {
      title: "Mail on the phone",
      body: "Outlook app.",
      category: "Software",
      tags: ["mobile"],
      status: "published",
    });
    await create(technician, {
      title: "Laptop bag",
      body: "For mobile staff.",
      category: "Hardware",
      status: "published",
    });
    expect(titles(await get<ArticleList>(user, `${url}?q=mobile`))).toEqual([
      "Mail on the phone",
      "Laptop bag",
    ]);
  });

  it("never sends the article's HTML in a snippet: markup comes back as plain text parts", async () => {
    await create(technician, {
      title: "Escaping",
      body: 'The <b onmouseover="x()">wireless</b> <script>alert(1)</script> card.',
      category: "Network",
      status: "published",
    });
    const [item] = (await get<ArticleList>(user, `${url}?q=wireless`)).items;
    for (const part of item!.snippet!) expect(part.text).not.toMatch(/<script|onmouseover=/);
  });

  it("suggests up to three articles for a half-typed title, by word prefix, and nothing for punctuation", async () => {
    for (const n of [1, 2, 3, 4]) {
      await create(technician, {
        title: `Connect to VPN ${n}`,
        body: "Steps.",
        category: "Network",
        status: "published",
      });
    }
    expect((await get<ArticleList>(user, `${url}/suggestions?q=cannot%20conn`)).items).toHaveLength(3);
    expect((await get<ArticleList>(user, `${url}/suggestions?q=%22%26%7C!:*`)).items).toEqual([]);
    expect((await get<ArticleList>(user, `${url}?q=%22%26%7C!:*`)).items).toEqual([]);
  });

  it("browses by category and sorts by most viewed", async () => {
    const a = await create(technician, {
      title: "Alpha",
      body: "a",
      category: "Software",
      status: "published",
    });
    const b = await create(technician, {
      title: "Beta",
      body: "b",
      category: "Software",
      status: "published",
    });
    await create(technician, { title: "Gamma", body: "c", category: "Hardware", status: "published" });
    expect(titles(await get<ArticleList>(user, `${url}?category=Software`)).sort()).toEqual([
      "Alpha",
      "Beta",
    ]);
    await get(user, `${url}/${a.id}`);
    await get(otherUser, `${url}/${a.id}`);
    await get(user, `${url}/${b.id}`);
    const mostViewed = await get<ArticleList>(user, `${url}?sort=most-viewed`);
    expect(mostViewed.items.map((item) => [item.title, item.views])).toEqual([
      ["Alpha", 2],
      ["Beta", 1],
      ["Gamma", 0],
    ]);
  });
});

describe("the list", () => {
  it("comes in pages of 25, numbered, newest first; a page past the last is empty and page 41 is refused", async () => {
    for (let n = 0; n < 27; n++) {
      await create(technician, {
        title: `Article ${String(n).padStart(2, "0")}`,
        body: "How to do it.",
        category: "Software",
        status: "published",
      });
    }
    const first = await get<ArticleList>(user, url);
    expect(first.items).toHaveLength(25);
    expect(first.items[0]?.title).toBe("Article 26");
    expect(first.nextPage).toBe(2);
    const second = await get<ArticleList>(user, `${url}?page=2`);
    expect(titles(second)).toEqual(["Article 01", "Article 00"]);
    expect(second.nextPage).toBeNull();
    expect((await get<ArticleList>(user, `${url}?page=3`)).items).toEqual([]);
    const refused = await get<{ message: string }>(user, `${url}?page=41`, 400);
    expect(refused.message).toMatch(/Page must be at most 40/);
    await get(user, `${url}?page=abc`, 400);
  });
});

describe("an article", () => {
  it("renders its Markdown without script, event handlers or javascript: links, and marks external links", async () => {
    const article = await create(technician, {
      title: "Unsafe",
      body: '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[run](javascript:alert(3)) [vendor](https://vendor.example)',
      category: "Other",
      status: "published",
    });
    const read = await get<Article>(user, `${url}/${article.id}`);
    expect(read.html).not.toMatch(/<script|<img|<[^>]*\son\w+=|href="javascript:/i);
    expect(read.html).toContain("&lt;script&gt;");
    expect(read.html).toContain('rel="noopener noreferrer nofollow"');
    expect(read.html).toContain('target="_blank"');
    expect(read.html).toContain("↗");
  });

  it("has a stable address: the slug follows the title, the id stays", async () => {
    const article = await create(technician, {
      title: "Reset my password!",
      body: "x",
      category: "Software",
      status: "published",
    });
    expect(article.slug).toBe(`reset-my-password-${article.id}`);
    const renamed = await request(t.app, {
      method: "PATCH",
      url: `${url}/${article.id}`,
      cookie: technician.cookie,
      payload: { title: "Reset a forgotten password" },
    });
    expect(renamed.json<Article>().slug).toBe(`reset-a-forgotten-password-${article.id}`);
  });

  it("counts one view per person per day, however often they open it", async () => {
    const article = await create(technician, {
      title: "Views",
      body: "x",
      category: "Other",
      status: "published",
    });
    await get(user, `${url}/${article.id}`);
    await get(user, `${url}/${article.id}`);
    expect((await get<Article>(otherUser, `${url}/${article.id}`)).views).toBe(2);
    clock.advance(24 * 60 * 60_000);
    expect((await get<Article>(user, `${url}/${article.id}`)).views).toBe(3);
  });

  it("takes one helpful vote per person, which they may change", async () => {
    const article = await create(technician, {
      title: "Votes",
      body: "x",
      category: "Other",
      status: "published",
    });
    const vote = (person: Person, helpful: boolean) =>
      request(t.app, {
        method: "PUT",
        url: `${url}/${article.id}/vote`,
        cookie: person.cookie,
        payload: { helpful },
      });
    await vote(user, true);
    await vote(user, true);
    const changed = await vote(user, false);
    expect(changed.json<Article>()).toMatchObject({ helpful: { yes: 0, no: 1 }, myVote: "no" });
    const other = await vote(otherUser, true);
    expect(other.json<Article>()).toMatchObject({ helpful: { yes: 1, no: 1 }, myVote: "yes" });
  });

  it("refuses a vote on a draft (staff see it, nobody rates it)", async () => {
    const draft = await create(technician, { title: "Draft", body: "x", category: "Other" });
    const response = await request(t.app, {
      method: "PUT",
      url: `${url}/${draft.id}/vote`,
      cookie: admin.cookie,
      payload: { helpful: true },
    });
    expect(response.statusCode).toBe(422);
  });
});

describe("revisions", () => {
  it("keeps every save with who and when, and diffs two of them", async () => {
    const article = await create(technician, {
      title: "VPN setup",
      body: "Step one.\nStep two.\n",
      category: "Network",
    });
    const edit = await request(t.app, {
      method: "PATCH",
      url: `${url}/${article.id}`,
      cookie: admin.cookie,
      payload: {
        title: "VPN setup on Windows",
        body: "Step one.\nStep two, then restart.\n",
        status: "published",
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json<Article>()).toMatchObject({ revision: 2, status: "published" });
    expect(edit.json<Article>().publishedAt).not.toBeNull();

    const revisions = await get<{ items: Array<{ number: number; authorName: string; body: string }> }>(
      technician,
      `${url}/${article.id}/revisions`,
    );
    expect(revisions.items.map((r) => [r.number, r.authorName])).toEqual([
      [2, admin.user.name],
      [1, technician.user.name],
    ]);
    expect(revisions.items[1]!.body).toBe("Step one.\nStep two.");

    const diff = await get<ArticleDiff>(technician, `${url}/${article.id}/diff?from=1&to=2`);
    expect(diff.body).toEqual([
      { kind: "same", value: "Step one.\n" },
      { kind: "removed", value: "Step two." },
      { kind: "added", value: "Step two, then restart." },
    ]);
    expect(diff.title.filter((part) => part.kind === "added").map((part) => part.value.trim())).toEqual([
      "on Windows",
    ]);
    await get(technician, `${url}/${article.id}/diff?from=1&to=7`, 404);
    await get(technician, `${url}/${article.id}/diff?from=1&to=1`, 400);
  });
});

describe("deflection", () => {
  it("counts a deflection when a suggestion was opened and the form was left without a ticket", async () => {
    const article = await create(technician, {
      title: "Printer offline",
      body: "x",
      category: "Hardware",
      status: "published",
    });
    const visit = formVisit();
    const opened = await request(t.app, {
      method: "POST",
      url: `${url}/${article.id}/suggestion-opens`,
      cookie: user.cookie,
      payload: { formVisit: visit },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const leave = (person: Person, v: string) =>
      request(t.app, {
        method: "POST",
        url: `${url}/deflections`,
        cookie: person.cookie,
        payload: { formVisit: v },
      });
    expect((await leave(user, visit)).json()).toEqual({ deflections: 1 });
    // Reported twice (a beacon and an unmount), still one; another person's report of the visit counts nothing.
    expect((await leave(user, visit)).json()).toEqual({ deflections: 0 });
    expect((await leave(otherUser, visit)).json()).toEqual({ deflections: 0 });
    // A visit where nothing was opened is no deflection.
    expect((await leave(user, formVisit())).json()).toEqual({ deflections: 0 });

    await request(t.app, {
      method: "PUT",
      url: `${url}/${article.id}/vote`,
      cookie: user.cookie,
      payload: { helpful: true },
    });
    const stats = await get<ArticleStats>(admin, `${url}/stats`);
    expect(stats.items).toEqual([
      expect.objectContaining({
        title: "Printer offline",
        views: 0,
        helpfulYes: 1,
        helpfulNo: 0,
        suggestionOpens: 1,
        deflections: 1,
      }),
    ]);
  });
});

describe("an article from a ticket", () => {
  it("starts from a resolved ticket's title, description and public comments, never its internal notes", async () => {
    const ticket = await insertTicket(t.database.db, {
      createdBy: user.user.id,
      assignedTo: technician.user.id,
      status: "Resolved",
      title: "Outlook keeps asking for the password",
      description: "Since Monday Outlook asks for my password.",
      category: "Software",
    });
    await t.database.db.insert(ticketComments).values([
      {
        id: "CMT1",
        ticketId: ticket.id,
        authorId: technician.user.id,
        message: "Removed the old credential from Credential Manager.",
      },
      {
        id: "CMT2",
        ticketId: ticket.id,
        authorId: technician.user.id,
        message: "Secret: the admin password is hunter2",
        isInternal: true,
      },
    ]);
    const draft = await get<{ title: string; body: string; category: string }>(
      technician,
      `${url}/from-ticket/${ticket.id}`,
    );
    expect(draft.title).toBe("Outlook keeps asking for the password");
    expect(draft.category).toBe("Software");
    expect(draft.body).toContain("Since Monday Outlook asks for my password.");
    expect(draft.body).toContain("Removed the old credential from Credential Manager.");
    expect(draft.body).not.toContain("hunter2");
  });

  it("refuses a ticket that is not solved yet, and one the technician may not see", async () => {
    const open = await insertTicket(t.database.db, {
      createdBy: user.user.id,
      assignedTo: technician.user.id,
      status: "In Progress",
    });
    const response = await request(t.app, {
      method: "GET",
      url: `${url}/from-ticket/${open.id}`,
      cookie: technician.cookie,
    });
    expect(response.statusCode).toBe(422);
    const someoneElses = await insertTicket(t.database.db, {
      createdBy: user.user.id,
      assignedTo: admin.user.id,
      status: "Resolved",
    });
    await get(technician, `${url}/from-ticket/${someoneElses.id}`, 404);
  });
});
