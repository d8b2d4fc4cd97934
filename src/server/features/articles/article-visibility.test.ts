import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles } from "#server/db/schema/index.ts";
import { insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { articleStatuses, articleVisibilities } from "#shared/articles/article.schemas.ts";
import { type Actor, can } from "#shared/permissions.ts";
import { roles } from "#shared/users/roles.ts";
import { visibleArticlesWhere } from "./article.queries.ts";
import { createArticle, listArticles, suggestArticles } from "./article.service.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

describe("article visibility parity", () => {
  it("visibleArticlesWhere (SQL), can.viewArticle (shared) and every list agree for every role × status × visibility", async () => {
    const { db } = database;
    const writer = await insertUser(db, { role: "technician" });
    for (const status of articleStatuses) {
      for (const visibility of articleVisibilities) {
        await createArticle(
          { db, actor: { id: writer.id, role: "technician" } },
          {
            title: `Printer ${status} ${visibility}`,
            body: "Printer help.",
            category: "Hardware",
            status,
            visibility,
          },
        );
      }
    }
    const all = await db.select().from(articles);
    for (const role of [...roles, null]) {
      const person = await insertUser(db, { role });
      const actor: Actor = { id: person.id, role };
      const ctx = { db, actor };
      const expected = all
        .filter((row) => can.viewArticle(actor, row))
        .map((row) => row.id)
        .sort();
      const fromSql = (await db.select({ id: articles.id }).from(articles).where(visibleArticlesWhere(actor)))
        .map((row) => row.id)
        .sort();
      expect(fromSql, String(role)).toEqual(expected);
      const listed = (await listArticles(ctx, {})).items.map((item) => item.id).sort();
      const searched = (await listArticles(ctx, { q: "printer" })).items.map((item) => item.id).sort();
      expect(listed, String(role)).toEqual(expected);
      expect(searched, String(role)).toEqual(expected);
      const suggested = (await suggestArticles(ctx, "printer")).items;
      for (const item of suggested) {
        expect(item.status).toBe("published");
        expect(expected).toContain(item.id);
      }
    }
  });
});
