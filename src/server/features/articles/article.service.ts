import { diffLines, diffWordsWithSpace } from "diff";
import type { ServiceContext } from "#server/context.ts";
import { nowOf } from "#server/context.ts";
import { forbidden, notFound, validationFailed } from "#server/errors.ts";
import { linkArticleImages } from "#server/features/attachments/attachment.service.ts";
import type {
  Article,
  ArticleDiff,
  ArticleList,
  ArticleRevisionList,
  CreateArticleInput,
  DiffPart,
  ListArticlesQuery,
  UpdateArticleInput,
} from "#shared/articles/article.schemas.ts";
import {
  articleMaxPages,
  articlePageSize,
  articleSuggestionsMax,
  createArticleInputSchema,
} from "#shared/articles/article.schemas.ts";
import { can } from "#shared/permissions.ts";
import { toArticleDto, toArticleRevisionDto, toArticleSummaryDto } from "./article.presenter.ts";
import {
  findArticleById,
  findArticles,
  findRevision,
  findRevisions,
  findVotes,
  insertArticle,
  insertRevision,
  insertView,
  lockArticle,
  updateArticleRow,
} from "./article.queries.ts";
import { articleImageIds } from "./article-markdown.ts";

export const staffWriteArticles = "Only technicians and administrators can write knowledge-base articles.";

function requireWriter(ctx: ServiceContext) {
  if (!can.writeArticles(ctx.actor)) throw forbidden(staffWriteArticles);
}

/** An article the caller may not read does not exist for them (404), like a ticket. */
export async function findVisibleArticle(ctx: ServiceContext, id: number) {
  const row = await findArticleById(ctx.db, id);
  if (!row || !can.viewArticle(ctx.actor, row)) throw notFound("Article", String(id));
  return row;
}

/**
 * The words a person typed, as "any of these words, by prefix" (vpn:* | connec:*): suggestions beside a
 * half-typed title must match while the last word is still being written. Only letters and digits reach
 * to_tsquery, so no typed text can make it fail.
 */
export function anyWordPrefixQuery(text: string): string | null {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12);
  return words.length > 0 ? words.map((word) => `${word}:*`).join(" | ") : null;
}

export async function listArticles(ctx: ServiceContext, query: ListArticlesQuery): Promise<ArticleList> {
  const text = query.q?.trim();
  const page = query.page ?? 1;
  // Drafts are staff work: a user asking for them asks for nothing they may see.
  const rows = await findArticles(ctx.db, ctx.actor, {
    category: query.category,
    status: query.status,
    sort: query.sort ?? (text ? "relevance" : "recent"),
    // One more than a page: it says whether there is a next one.
    limit: articlePageSize + 1,
    offset: (page - 1) * articlePageSize,
    search: text ? { text, mode: "all-words" } : undefined,
  });
  const hasMore = rows.length > articlePageSize && page < articleMaxPages;
  return {
    items: rows.slice(0, articlePageSize).map(toArticleSummaryDto),
    nextPage: hasMore ? page + 1 : null,
  };
}

/** Up to three published articles the caller may read, for a new ticket's title as it is typed. */
export async function suggestArticles(ctx: ServiceContext, text: string): Promise<ArticleList> {
  const search = anyWordPrefixQuery(text);
  if (!search || ctx.actor.role === null) return { items: [], nextPage: null };
  const rows = await findArticles(ctx.db, ctx.actor, {
    status: "published",
    sort: "relevance",
    limit: articleSuggestionsMax,
    search: { text: search, mode: "any-word-prefix" },
  });
  return { items: rows.map(toArticleSummaryDto), nextPage: null };
}

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** Reading an article counts a view: once per person per article per day, published articles only. */
export async function readArticle(ctx: ServiceContext, id: number): Promise<Article> {
  const row = await findVisibleArticle(ctx, id);
  if (row.status === "published") {
    await insertView(ctx.db, id, ctx.actor.id, utcDay(nowOf(ctx)));
  }
  const fresh = (await findArticleById(ctx.db, id)) ?? row;
  return toArticleDto(fresh, await findVotes(ctx.db, id, ctx.actor.id));
}

async function articleFor(ctx: ServiceContext, id: number): Promise<Article> {
  const row = await findVisibleArticle(ctx, id);
  return toArticleDto(row, await findVotes(ctx.db, id, ctx.actor.id));
}

export async function createArticle(ctx: ServiceContext, input: CreateArticleInput): Promise<Article> {
  requireWriter(ctx);
  const content = createArticleInputSchema.parse(input);
  const now = nowOf(ctx);
  const id = await ctx.db.transaction(async (tx) => {
    const articleId = await insertArticle(tx, { ...content, authorId: ctx.actor.id, now });
    await insertRevision(tx, { ...content, articleId, number: 1, authorId: ctx.actor.id, now });
    await linkArticleImages(tx, articleImageIds(content.body), { uploadedBy: ctx.actor.id, articleId });
    return articleId;
  });
  return articleFor(ctx, id);
}

/**
 * Every save is a new revision with the whole text; the article keeps who first wrote it. Images stay
 * linked when a later revision drops them: the earlier revisions still show them.
 */
export async function updateArticle(
  ctx: ServiceContext,
  id: number,
  input: UpdateArticleInput,
): Promise<Article> {
  requireWriter(ctx);
  const now = nowOf(ctx);
  await ctx.db.transaction(async (tx) => {
    // Locked, so two editors saving at once make revisions n+1 and n+2, never two n+1.
    const current = await lockArticle(tx, id);
    if (!current) throw notFound("Article", String(id));
    const next = {
      title: input.title ?? current.title,
      body: input.body ?? current.body,
      category: input.category ?? current.category,
      tags: input.tags ?? current.tags,
      status: input.status ?? current.status,
      visibility: input.visibility ?? current.visibility,
    };
    const revision = current.revision + 1;
    const publishedAt = next.status === "published" ? (current.publishedAt ?? now) : current.publishedAt;
    await updateArticleRow(tx, id, { ...next, revision, now, publishedAt });
    await insertRevision(tx, { ...next, articleId: id, number: revision, authorId: ctx.actor.id, now });
    await linkArticleImages(tx, articleImageIds(next.body), { uploadedBy: ctx.actor.id, articleId: id });
  });
  return articleFor(ctx, id);
}

export async function listArticleRevisions(ctx: ServiceContext, id: number): Promise<ArticleRevisionList> {
  requireWriter(ctx);
  await findVisibleArticle(ctx, id);
  const rows = await findRevisions(ctx.db, id);
  return { items: rows.map(toArticleRevisionDto) };
}

const toParts = (changes: Array<{ value: string; added?: boolean; removed?: boolean }>): DiffPart[] =>
  changes.map((change) => ({
    value: change.value,
    kind: change.added ? "added" : change.removed ? "removed" : "same",
  }));

/** What changed from one revision to another: the title word by word, the text line by line. */
export async function diffArticleRevisions(
  ctx: ServiceContext,
  id: number,
  from: number,
  to: number,
): Promise<ArticleDiff> {
  requireWriter(ctx);
  await findVisibleArticle(ctx, id);
  if (from === to) throw validationFailed("Choose two different revisions");
  const [older, newer] = await Promise.all([findRevision(ctx.db, id, from), findRevision(ctx.db, id, to)]);
  if (!older) throw notFound("Revision", String(from));
  if (!newer) throw notFound("Revision", String(to));
  return {
    from,
    to,
    title: toParts(diffWordsWithSpace(older.title, newer.title)),
    body: toParts(diffLines(older.body, newer.body)),
  };
}
