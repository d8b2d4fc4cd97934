import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  articleRevisions,
  articles,
  articleViews,
  attachmentChunks,
  attachments,
  tickets,
  type UserRow,
} from "#server/db/schema/index.ts";
import { deleteAbandonedUploads } from "#server/features/attachments/attachment-cleanup.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { makePng } from "#server/test/files.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Article } from "#shared/articles/article.schemas.ts";
import type { Attachment } from "#shared/attachments/attachment.schemas.ts";

// Decision 030: an article's images are uploads of the person saving it, linked to the article when it is
// saved and served with the article's visibility rule (can.viewArticle), never a ticket's.

let t: TestApp;
type Person = { user: UserRow; cookie: string };
type Caller = "anonymous" | "noRole" | "user" | "technician" | "admin";
const people = {} as Record<Exclude<Caller, "anonymous">, Person>;

beforeAll(async () => {
  t = await createTestApp();
  people.noRole = await signedInAs(t.app, t.database.db, null);
  people.user = await signedInAs(t.app, t.database.db, "user");
  people.technician = await signedInAs(t.app, t.database.db, "technician");
  people.admin = await signedInAs(t.app, t.database.db, "admin");
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(attachments);
  await t.database.db.delete(articles);
  await t.database.db.delete(tickets);
});

const png = makePng(12, 8);
const cookieOf = (caller: Caller) => (caller === "anonymous" ? null : people[caller].cookie);

async function upload(person: Person, fileName = "vpn-settings.png", content: Buffer | string = png) {
  const response = await request(t.app, {
    method: "POST",
    url: `/api/attachments?fileName=${encodeURIComponent(fileName)}`,
    cookie: person.cookie,
    headers: { "content-type": "application/octet-stream" },
    payload: content,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Attachment>();
}

const imageMarkdown = (id: string) => `![VPN settings](/api/attachments/${id}/preview)`;

async function saveArticle(person: Person, payload: Record<string, unknown>, articleId?: number) {
  const response = await request(t.app, {
    method: articleId === undefined ? "POST" : "PATCH",
    url: articleId === undefined ? "/api/articles" : `/api/articles/${articleId}`,
    cookie: person.cookie,
    payload,
  });
  expect(response.statusCode, response.body).toBe(articleId === undefined ? 201 : 200);
  return response.json<Article>();
}

const attachmentRow = async (id: string) =>
  (await t.database.db.select().from(attachments).where(eq(attachments.id, id)))[0];

const get = (caller: Caller, url: string) => request(t.app, { method: "GET", url, cookie: cookieOf(caller) });

type Kind = "publishedPublic" | "internal" | "draft";
const kinds: Record<Kind, { status: string; visibility: string }> = {
  publishedPublic: { status: "published", visibility: "public" },
  internal: { status: "published", visibility: "internal" },
  draft: { status: "draft", visibility: "public" },
};

// The article's own rule: staff see every article's images; a user only a published public article's; a
// person with no role none; anonymous callers are asked to sign in.
const expected: Record<Kind, Record<Caller, number>> = {
  publishedPublic: { anonymous: 401, noRole: 404, user: 200, technician: 200, admin: 200 },
  internal: { anonymous: 401, noRole: 404, user: 404, technician: 200, admin: 200 },
  draft: { anonymous: 401, noRole: 404, user: 404, technician: 200, admin: 200 },
};

async function snapshot() {
  const { db } = t.database;
  return {
    attachments: await db.select().from(attachments),
    chunks: (await db.select().from(attachmentChunks)).length,
    articles: await db.select().from(articles),
    revisions: await db.select().from(articleRevisions),
    views: await db.select().from(articleViews),
  };
}

describe("an article's image × caller", () => {
  const cells = (Object.keys(expected) as Kind[]).flatMap((kind) =>
    (Object.keys(expected[kind]) as Caller[]).flatMap((caller) =>
      (["preview", "download"] as const).map((route) => ({
        kind,
        caller,
        route,
        status: expected[kind][caller],
      })),
    ),
  );

  it.each(cells)(
    "$caller × $route of a $kind article's image → $status",
    async ({ kind, caller, route, status }) => {
      const image = await upload(people.technician);
      await saveArticle(people.technician, {
        title: "Set up the VPN",
        body: `Open the settings:\n\n${imageMarkdown(image.id)}`,
        category: "Network",
        ...kinds[kind],
      });
      const url = route === "preview" ? image.previewUrl! : image.url;
      const before = await snapshot();
      const response = await get(caller, url);
      expect(response.statusCode, response.body).toBe(status);
      if (status === 200) {
        expect(response.rawPayload.equals(png)).toBe(true);
        expect(response.headers).toMatchObject({
          "content-type": "image/png",
          "x-content-type-options": "nosniff",
          "content-security-policy": "default-src 'none'; sandbox",
        });
        expect(response.headers["content-disposition"]).toMatch(
          route === "preview" ? /^inline; / : /^attachment; /,
        );
      } else {
        // Refused before a byte of the file: the answer is the error, and nothing changed.
        expect(response.headers["content-type"]).toMatch(/^application\/json/);
        expect(response.json().message).toEqual(expect.any(String));
        expect(response.rawPayload.includes(png.subarray(0, 16))).toBe(false);
      }
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe("saving an article links its images", () => {
  it("links only the saver's own pending images that the text shows, in the same save", async () => {
    const own = await upload(people.technician, "own.png");
    const notShown = await upload(people.technician, "not-shown.png");
    const someoneElses = await upload(people.admin, "admin.png");
    const log = await upload(people.technician, "vpn.log", "09:14 certificate expired\n");
    const article = await saveArticle(people.technician, {
      title: "Reset the VPN certificate",
      body: [
        imageMarkdown(own.id),
        imageMarkdown(someoneElses.id),
        // A log is no image: an article never shows (or links) it.
        `![log](/api/attachments/${log.id}/preview)`,
        // A link is not an image.
        `[the screenshot](/api/attachments/${notShown.id}/preview)`,
      ].join("\n\n"),
      category: "Network",
      status: "published",
    });

    expect(await attachmentRow(own.id)).toMatchObject({
      status: "linked",
      articleId: article.id,
      ticketId: null,
    });
    for (const id of [notShown.id, someoneElses.id, log.id]) {
      expect(await attachmentRow(id), id).toMatchObject({ status: "pending", articleId: null });
    }
    expect((await get("user", own.previewUrl!)).statusCode).toBe(200);
    // Someone else's upload named in the text is not served through the article, to anyone.
    for (const caller of ["user", "technician", "admin"] as const) {
      expect((await get(caller, someoneElses.previewUrl!)).statusCode, caller).toBe(404);
    }
    // The sanitised page still shows the images as our preview addresses (and nothing else).
    expect(article.html).toContain(`<img src="/api/attachments/${own.id}/preview" alt="VPN settings" />`);
  });

  it("leaves a ticket's file named in an article with its ticket and the ticket's rule", async () => {
    const ticket = await insertTicket(t.database.db, { createdBy: people.admin.user.id });
    const file = await upload(people.admin, "desk.png");
    const comment = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.id}/comments`,
      cookie: people.admin.cookie,
      payload: { message: "Photo", attachmentIds: [file.id] },
    });
    expect(comment.statusCode, comment.body).toBe(201);
    await saveArticle(people.admin, {
      title: "Desk setup",
      body: imageMarkdown(file.id),
      category: "Hardware",
      status: "published",
    });
    expect(await attachmentRow(file.id)).toMatchObject({ ticketId: ticket.id, articleId: null });
    // The user may read the article but not the ticket: the file stays the ticket's.
    expect((await get("user", file.previewUrl!)).statusCode).toBe(404);
  });

  it("links images added by an edit, and keeps those a later revision dropped (old revisions show them)", async () => {
    const first = await upload(people.technician, "first.png");
    const article = await saveArticle(people.technician, {
      title: "Printer drivers",
      body: imageMarkdown(first.id),
      category: "Hardware",
      status: "published",
    });
    // Another technician replaces the picture with theirs.
    const second = await upload(people.admin, "second.png");
    await saveArticle(people.admin, { body: `New steps.\n\n${imageMarkdown(second.id)}` }, article.id);
    expect(await attachmentRow(second.id)).toMatchObject({ status: "linked", articleId: article.id });
    expect(await attachmentRow(first.id)).toMatchObject({ status: "linked", articleId: article.id });
    for (const image of [first, second]) expect((await get("user", image.previewUrl!)).statusCode).toBe(200);

    // Unpublished again: its images go back to staff only, with the article.
    await saveArticle(people.technician, { status: "draft" }, article.id);
    for (const image of [first, second]) {
      expect((await get("user", image.previewUrl!)).statusCode).toBe(404);
      expect((await get("technician", image.previewUrl!)).statusCode).toBe(200);
    }
  });

  it("does not link an image whose save was refused", async () => {
    const image = await upload(people.technician);
    const refused = await request(t.app, {
      method: "POST",
      url: "/api/articles",
      cookie: people.technician.cookie,
      payload: { title: "", body: imageMarkdown(image.id), category: "Network" },
    });
    expect(refused.statusCode).toBe(400);
    expect(await attachmentRow(image.id)).toMatchObject({ status: "pending", articleId: null });
  });

  it("lets the database hold a linked file for exactly one owner: a ticket or an article", async () => {
    const ticket = await insertTicket(t.database.db, { createdBy: people.user.user.id });
    const image = await upload(people.technician);
    const article = await saveArticle(people.technician, {
      title: "Both",
      body: imageMarkdown(image.id),
      category: "Other",
    });
    await expect(
      t.database.db.update(attachments).set({ ticketId: ticket.id }).where(eq(attachments.id, image.id)),
    ).rejects.toThrow();
    await expect(
      t.database.db.update(attachments).set({ articleId: null }).where(eq(attachments.id, image.id)),
    ).rejects.toThrow();
    expect(await attachmentRow(image.id)).toMatchObject({ articleId: article.id, ticketId: null });
  });
});

describe("the abandoned-upload cleanup", () => {
  it("deletes uploads never used, and leaves an article's images alone", async () => {
    const kept = await upload(people.technician, "kept.png");
    const abandoned = await upload(people.technician, "abandoned.png");
    await saveArticle(people.technician, {
      title: "Kept picture",
      body: imageMarkdown(kept.id),
      category: "Other",
      status: "published",
    });
    const twoDaysLater = new Date(Date.now() + 2 * 24 * 3600_000);
    expect(await deleteAbandonedUploads(t.database.db, twoDaysLater)).toBe(1);
    expect(await attachmentRow(abandoned.id)).toBeUndefined();
    expect(await attachmentRow(kept.id)).toMatchObject({ status: "linked" });
    const served = await get("user", kept.previewUrl!);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png)).toBe(true);
  });
});
