import type { ArticleRevisionRow } from "#server/db/schema/index.ts";
import type {
  Article,
  ArticleRevision,
  ArticleSummary,
  SnippetPart,
} from "#shared/articles/article.schemas.ts";
import { articleSlug } from "#shared/articles/article-slug.ts";
import { type ArticleListRow, highlightStart, highlightStop } from "./article.queries.ts";
import { renderArticleMarkdown } from "./article-markdown.ts";

/** ts_headline's output as text parts: the words between our markers are highlighted, the rest plain. */
export function toSnippet(headline: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let rest = headline;
  while (rest.length > 0) {
    const start = rest.indexOf(highlightStart);
    if (start < 0) {
      parts.push({ text: rest, highlighted: false });
      break;
    }
    if (start > 0) parts.push({ text: rest.slice(0, start), highlighted: false });
    rest = rest.slice(start + highlightStart.length);
    const stop = rest.indexOf(highlightStop);
    const end = stop < 0 ? rest.length : stop;
    parts.push({ text: rest.slice(0, end), highlighted: true });
    rest = stop < 0 ? "" : rest.slice(stop + highlightStop.length);
  }
  return parts.filter((part) => part.text.length > 0);
}

export function toArticleSummaryDto(row: ArticleListRow): ArticleSummary {
  return {
    id: row.id,
    slug: articleSlug(row.id, row.title),
    title: row.title,
    category: row.category,
    tags: row.tags,
    status: row.status,
    visibility: row.visibility,
    views: row.views,
    updatedAt: row.updatedAt.toISOString(),
    ...(row.headline ? { snippet: toSnippet(row.headline) } : {}),
  };
}

export function toArticleDto(
  row: ArticleListRow & { authorName: string | null },
  votes: { yes: number; no: number; mine: boolean | null },
): Article {
  return {
    ...toArticleSummaryDto({ ...row, headline: null }),
    body: row.body,
    html: renderArticleMarkdown(row.body),
    authorName: row.authorName,
    createdAt: row.createdAt.toISOString(),
    publishedAt: row.publishedAt?.toISOString() ?? null,
    revision: row.revision,
    helpful: { yes: votes.yes, no: votes.no },
    myVote: votes.mine === null ? null : votes.mine ? "yes" : "no",
  };
}

export function toArticleRevisionDto(
  row: ArticleRevisionRow & { authorName: string | null },
): ArticleRevision {
  return {
    number: row.number,
    title: row.title,
    body: row.body,
    category: row.category,
    tags: row.tags,
    status: row.status,
    visibility: row.visibility,
    authorName: row.authorName,
    createdAt: row.createdAt.toISOString(),
  };
}
