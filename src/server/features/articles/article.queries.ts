import { and, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  type ArticleRow,
  articleRevisions,
  articleSuggestionEvents,
  articles,
  articleViews,
  articleVotes,
  users,
} from "#server/db/schema/index.ts";
import type { ArticleSort, ArticleStatus } from "#shared/articles/article.schemas.ts";
import { type Actor, isStaff } from "#shared/permissions.ts";
import type { TicketCategory } from "#shared/tickets/ticket.schemas.ts";

/**
 * The SQL twin of can.viewArticle: staff see every article; anyone else with a role sees published public
 * ones; a person with no role sees none.
 */
export function visibleArticlesWhere(actor: Actor): SQL | undefined {
  if (isStaff(actor)) return undefined;
  if (actor.role === null) return sql`false`;
  return and(eq(articles.status, "published"), eq(articles.visibility, "public"));
}

/** The weighted search document: title A, tags B, text C (ts_rank then puts a title match first). */
export const searchDocument = (title: string, tags: string[], body: string): SQL =>
  sql`setweight(to_tsvector('english', ${title}), 'A') || setweight(to_tsvector('english', ${tags.join(" ")}), 'B') || setweight(to_tsvector('english', ${body}), 'C')`;

// Spelled out: Drizzle leaves columns unqualified in a one-table select, and a subquery's own "id" would win.
const outerArticleId = sql.raw('"articles"."id"');

/** Views are rows, one per person per article per day; counted, never kept in a counter row. */
const viewCount = sql<number>`(select count(*)::int from ${articleViews} av where av.article_id = ${outerArticleId})`;

const { search: _search, ...summaryColumns } = getTableColumns(articles);
const withViews = { ...summaryColumns, views: viewCount };
export type ArticleListRow = Omit<ArticleRow, "search"> & { views: number; headline?: string | null };

// Markers around matched words in ts_headline's output; the presenter splits on them into text parts,
// so nothing from the article is ever sent as HTML.
export const highlightStart = "\u27e6hl\u27e7";
export const highlightStop = "\u27e6/hl\u27e7";

export async function findArticles(
  db: Db,
  actor: Actor,
  options: {
    category?: TicketCategory;
    status?: ArticleStatus;
    sort: ArticleSort;
    limit: number;
    offset?: number;
    /** Full-text: websearch syntax (all words) for the search box, any word by prefix for suggestions. */
    search?: { text: string; mode: "all-words" | "any-word-prefix" };
  },
): Promise<ArticleListRow[]> {
  const query = options.search
    ? options.search.mode === "all-words"
      ? sql`websearch_to_tsquery('english', ${options.search.text})`
      : sql`to_tsquery('english', ${options.search.text})`
    : undefined;
  const where = and(
    visibleArticlesWhere(actor),
    options.category ? eq(articles.category, options.category) : undefined,
    options.status ? eq(articles.status, options.status) : undefined,
    query ? sql`${articles.search} @@ ${query}` : undefined,
  );
  const order: SQL[] =
    query && options.sort === "relevance"
      ? [sql`ts_rank(${articles.search}, ${query}) desc`]
      : options.sort === "most-viewed"
        ? [sql`${viewCount} desc`]
        : [];
  order.push(desc(articles.updatedAt), desc(articles.id));
  return db
    .select({
      ...withViews,
      headline: query
        ? sql<string>`ts_headline('english', ${articles.body}, ${query}, ${`StartSel=${highlightStart}, StopSel=${highlightStop}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`})`
        : sql<null>`null`,
    })
    .from(articles)
    .where(where)
    .orderBy(...order)
    .limit(options.limit)
    .offset(options.offset ?? 0);
}

export async function findArticleById(db: Db, id: number) {
  const [row] = await db
    .select({ ...withViews, authorName: users.name })
    .from(articles)
    .leftJoin(users, eq(users.id, articles.authorId))
    .where(eq(articles.id, id));
  return row;
}

export async function lockArticle(db: Db, id: number) {
  const [row] = await db.select(summaryColumns).from(articles).where(eq(articles.id, id)).for("update");
  return row;
}

type ArticleContent = Pick<ArticleRow, "title" | "body" | "category" | "tags" | "status" | "visibility">;

export async function insertArticle(
  db: Db,
  values: ArticleContent & { authorId: string; now: Date },
): Promise<number> {
  const [row] = await db
    .insert(articles)
    .values({
      title: values.title,
      body: values.body,
      category: values.category,
      tags: values.tags,
      status: values.status,
      visibility: values.visibility,
      authorId: values.authorId,
      search: searchDocument(values.title, values.tags, values.body),
      createdAt: values.now,
      updatedAt: values.now,
      publishedAt: values.status === "published" ? values.now : null,
    })
    .returning({ id: articles.id });
  return row!.id;
}

export async function updateArticleRow(
  db: Db,
  id: number,
  values: ArticleContent & { revision: number; now: Date; publishedAt: Date | null },
) {
  await db
    .update(articles)
    .set({
      title: values.title,
      body: values.body,
      category: values.category,
      tags: values.tags,
      status: values.status,
      visibility: values.visibility,
      revision: values.revision,
      search: searchDocument(values.title, values.tags, values.body),
      updatedAt: values.now,
      publishedAt: values.publishedAt,
    })
    .where(eq(articles.id, id));
}

export async function insertRevision(
  db: Db,
  values: ArticleContent & { articleId: number; number: number; authorId: string; now: Date },
) {
  await db.insert(articleRevisions).values({
    articleId: values.articleId,
    number: values.number,
    title: values.title,
    body: values.body,
    category: values.category,
    tags: values.tags,
    status: values.status,
    visibility: values.visibility,
    authorId: values.authorId,
    createdAt: values.now,
  });
}

export function findRevisions(db: Db, articleId: number) {
  return db
    .select({ ...getTableColumns(articleRevisions), authorName: users.name })
    .from(articleRevisions)
    .leftJoin(users, eq(users.id, articleRevisions.authorId))
    .where(eq(articleRevisions.articleId, articleId))
    .orderBy(desc(articleRevisions.number));
}

export async function findRevision(db: Db, articleId: number, number: number) {
  const [row] = await db
    .select()
    .from(articleRevisions)
    .where(and(eq(articleRevisions.articleId, articleId), eq(articleRevisions.number, number)));
  return row;
}

/** A person's first view of the article today adds a row; any further view that day changes nothing. */
export async function insertView(db: Db, articleId: number, viewerId: string, day: string) {
  await db.insert(articleViews).values({ articleId, viewerId, day }).onConflictDoNothing();
}

export async function upsertVote(db: Db, articleId: number, voterId: string, helpful: boolean, now: Date) {
  await db
    .insert(articleVotes)
    .values({ articleId, voterId, helpful, votedAt: now })
    .onConflictDoUpdate({
      target: [articleVotes.articleId, articleVotes.voterId],
      set: { helpful, votedAt: now },
    });
}

export async function findVotes(db: Db, articleId: number, voterId: string) {
  const [row] = await db
    .select({
      yes: sql<number>`count(*) filter (where ${articleVotes.helpful})::int`,
      no: sql<number>`count(*) filter (where not ${articleVotes.helpful})::int`,
      mine: sql<
        boolean | null
      >`bool_or(${articleVotes.helpful}) filter (where ${articleVotes.voterId} = ${voterId})`,
    })
    .from(articleVotes)
    .where(eq(articleVotes.articleId, articleId));
  return { yes: row?.yes ?? 0, no: row?.no ?? 0, mine: row?.mine ?? null };
}

export async function insertSuggestionOpened(
  db: Db,
  values: { id: string; articleId: number; personId: string; formVisit: string; now: Date },
) {
  await db
    .insert(articleSuggestionEvents)
    .values({ ...values, kind: "opened", createdAt: values.now })
    .onConflictDoNothing();
}

/**
 * The form visit ended without a ticket: each article its person opened from it counts one deflection
 * (once, however often the browser reports it). Returns how many were newly counted.
 */
export async function insertDeflections(db: Db, personId: string, formVisit: string, now: Date) {
  const result = await db.execute(sql`
    insert into ${articleSuggestionEvents} (id, article_id, person_id, form_visit, kind, created_at)
    select 'dfl_' || gen_random_uuid(), article_id, person_id, form_visit, 'deflected', ${now.toISOString()}::timestamptz
    from ${articleSuggestionEvents}
    where person_id = ${personId} and form_visit = ${formVisit} and kind = 'opened'
    on conflict do nothing
    returning id`);
  return (result as unknown as { rows: unknown[] }).rows.length;
}

export function findArticleStats(db: Db) {
  const count = (kind: "opened" | "deflected") =>
    sql<number>`(select count(*)::int from ${articleSuggestionEvents} e where e.article_id = ${outerArticleId} and e.kind = ${kind})`;
  return db
    .select({
      id: articles.id,
      title: articles.title,
      status: articles.status,
      visibility: articles.visibility,
      views: viewCount,
      helpfulYes: sql<number>`(select count(*)::int from ${articleVotes} v where v.article_id = ${outerArticleId} and v.helpful)`,
      helpfulNo: sql<number>`(select count(*)::int from ${articleVotes} v where v.article_id = ${outerArticleId} and not v.helpful)`,
      suggestionOpens: count("opened"),
      deflections: count("deflected"),
    })
    .from(articles)
    .orderBy(desc(articles.updatedAt), desc(articles.id))
    .limit(500);
}
