import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { ArticleStatus, ArticleVisibility } from "#shared/articles/article.schemas.ts";
import { ticketCategoryEnum } from "./tickets.ts";
import { users } from "./users.ts";

const stamp = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

// Help articles (decision 030). `search` is the weighted document (title A, tags B, text C), written
// by the same statement that writes the article (article.queries.ts): a generated column cannot join the
// tags array (array_to_string is not immutable).
export const articles = pgTable(
  "articles",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    category: ticketCategoryEnum("category").notNull(),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    status: text("status").$type<ArticleStatus>().notNull(),
    visibility: text("visibility").$type<ArticleVisibility>().notNull(),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    /** The latest revision's number; every save adds one. */
    revision: integer("revision").notNull().default(1),
    search: tsvector("search").notNull(),
    createdAt: stamp("created_at").notNull().defaultNow(),
    updatedAt: stamp("updated_at").notNull().defaultNow(),
    publishedAt: stamp("published_at"),
  },
  (t) => [
    check("articles_status_check", sql`${t.status} in ('draft', 'published')`),
    check("articles_visibility_check", sql`${t.visibility} in ('public', 'internal')`),
    index("articles_search_idx").using("gin", t.search),
    index("articles_browse_idx").on(t.status, t.visibility, t.category, t.updatedAt),
  ],
);
export type ArticleRow = typeof articles.$inferSelect;

/** Every save of an article, whole: who, when and the full text (a diff compares two of them). */
export const articleRevisions = pgTable(
  "article_revisions",
  {
    articleId: integer("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    category: ticketCategoryEnum("category").notNull(),
    tags: text("tags").array().notNull(),
    status: text("status").$type<ArticleStatus>().notNull(),
    visibility: text("visibility").$type<ArticleVisibility>().notNull(),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: stamp("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.number] })],
);
export type ArticleRevisionRow = typeof articleRevisions.$inferSelect;

// One row per person per article per day, inserted with ON CONFLICT DO NOTHING: a view is an insert that
// touches no shared row, so a popular article has no hot counter row (docs/decisions/030).
export const articleViews = pgTable(
  "article_views",
  {
    articleId: integer("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    viewerId: text("viewer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.day, t.viewerId] })],
);

/** "Was this helpful?": one vote per person per article, changed in place. */
export const articleVotes = pgTable(
  "article_votes",
  {
    articleId: integer("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    voterId: text("voter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    helpful: boolean("helpful").notNull(),
    votedAt: stamp("voted_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.voterId] })],
);

/**
 * Deflection (decision 030): `opened` when a person opens a suggested article from the create form,
 * `deflected` when that form visit ends without a ticket. One of each per form visit and article.
 */
export const articleSuggestionEvents = pgTable(
  "article_suggestion_events",
  {
    id: text("id").primaryKey(),
    articleId: integer("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    personId: text("person_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    formVisit: text("form_visit").notNull(),
    kind: text("kind").$type<"opened" | "deflected">().notNull(),
    createdAt: stamp("created_at").notNull().defaultNow(),
  },
  (t) => [
    check("article_suggestion_events_kind_check", sql`${t.kind} in ('opened', 'deflected')`),
    uniqueIndex("article_suggestion_events_visit_idx").on(t.formVisit, t.articleId, t.kind),
    index("article_suggestion_events_article_idx").on(t.articleId, t.kind),
  ],
);
