import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import { ticketCategories, ticketIdSchema } from "#shared/tickets/ticket.schemas.ts";

/** Decision 030: a draft is the author's work in progress (staff only); a published article is read. */
export const articleStatuses = ["draft", "published"] as const;
export type ArticleStatus = (typeof articleStatuses)[number];

/** Public: every signed-in person reads it once published. Internal: technicians and admins only. */
export const articleVisibilities = ["public", "internal"] as const;
export type ArticleVisibility = (typeof articleVisibilities)[number];

export const articleTitleMaxLength = 150;
export const articleBodyMaxLength = 50_000;
export const articleTagMaxLength = 40;
export const articleTagsMax = 10;
export const articleSearchMaxLength = 200;
/** The create form suggests at most this many articles beside a new ticket's title. */
export const articleSuggestionsMax = 3;
export const articlePageSize = 25;
/**
 * Pages of the article list. A ranked search has no stable key to page by, so pages are numbered; a
 * knowledge base of a thousand answers is read by search, not by paging past page 40.
 */
export const articleMaxPages = 40;

const requiredText = (label: string, max: number) =>
  storableText(
    z
      .string({
        error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`),
      })
      .trim()
      .min(1, `${label} is required`)
      .max(max, `${label} must be at most ${max} characters`),
    label,
  );

/** Tags are lower-case words or short phrases; duplicates collapse. */
const tagsSchema = z
  .array(
    storableText(
      z
        .string({ error: "Each tag must be text" })
        .trim()
        .toLowerCase()
        .min(1, "A tag must not be empty")
        .max(articleTagMaxLength, `A tag must be at most ${articleTagMaxLength} characters`),
      "Tag",
    ),
    { error: "Tags must be a list" },
  )
  .max(articleTagsMax, `At most ${articleTagsMax} tags`)
  .transform((tags) => [...new Set(tags)]);

const categorySchema = z.enum(ticketCategories, {
  error: "Category must be Hardware, Software, Network or Other",
});
const statusSchema = z.enum(articleStatuses, { error: "Status must be draft or published" });
const visibilitySchema = z.enum(articleVisibilities, { error: "Visibility must be public or internal" });

export const createArticleInputSchema = z.object({
  title: requiredText("Title", articleTitleMaxLength),
  body: requiredText("Text", articleBodyMaxLength),
  category: categorySchema,
  tags: tagsSchema.default([]),
  status: statusSchema.default("draft"),
  visibility: visibilitySchema.default("public"),
});
export type CreateArticleInput = z.input<typeof createArticleInputSchema>;

export const updateArticleInputSchema = z
  .object({
    title: requiredText("Title", articleTitleMaxLength).optional(),
    body: requiredText("Text", articleBodyMaxLength).optional(),
    category: categorySchema.optional(),
    tags: tagsSchema.optional(),
    status: statusSchema.optional(),
    visibility: visibilitySchema.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "Change at least one field",
  });
export type UpdateArticleInput = z.infer<typeof updateArticleInputSchema>;

const positiveId = (label: string) =>
  z.coerce
    .number({ error: `Not ${label}` })
    .int(`Not ${label}`)
    .positive(`Not ${label}`)
    .max(2_147_483_647, `Not ${label}`);

export const articleIdParamsSchema = z.object({ articleId: positiveId("an article id") });
export const articleRevisionsDiffQuerySchema = z.object({
  from: positiveId("a revision number"),
  to: positiveId("a revision number"),
});

const searchText = storableText(
  z
    .string()
    .trim()
    .max(articleSearchMaxLength, `Search must be at most ${articleSearchMaxLength} characters`),
  "Search",
);

export const articleSorts = ["relevance", "recent", "most-viewed"] as const;
export type ArticleSort = (typeof articleSorts)[number];

export const listArticlesQuerySchema = z.object({
  q: searchText.optional(),
  category: categorySchema.optional(),
  /** Staff only (a user asking for drafts gets none). */
  status: statusSchema.optional(),
  sort: z.enum(articleSorts, { error: "Sort must be relevance, recent or most-viewed" }).optional(),
  page: z.coerce
    .number({ error: "Page must be a number" })
    .int("Page must be a whole number")
    .min(1, "Page must be 1 or more")
    .max(articleMaxPages, `Page must be at most ${articleMaxPages}: narrow the search instead`)
    .optional(),
});
export type ListArticlesQuery = z.infer<typeof listArticlesQuerySchema>;

export const suggestionsQuerySchema = z.object({ q: searchText });

/** A piece of a search snippet: matched words are `highlighted`; the client renders text, never HTML. */
export const snippetPartSchema = z.object({ text: z.string(), highlighted: z.boolean() });
export type SnippetPart = z.infer<typeof snippetPartSchema>;

export const articleSummarySchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  category: categorySchema,
  tags: z.array(z.string()),
  status: statusSchema,
  visibility: visibilitySchema,
  views: z.number().int(),
  updatedAt: z.iso.datetime(),
  /** Search results only: where the words matched, highlighted. */
  snippet: z.array(snippetPartSchema).optional(),
});
export type ArticleSummary = z.infer<typeof articleSummarySchema>;

export const articleListSchema = z.object({
  items: z.array(articleSummarySchema),
  /** The next page's number, null on the last page (and for suggestions). */
  nextPage: z.number().int().nullable(),
});
export type ArticleList = z.infer<typeof articleListSchema>;

export const articleSchema = articleSummarySchema.extend({
  body: z.string(),
  /** The Markdown rendered and sanitised on the server: no script, no event handlers, no javascript: links. */
  html: z.string(),
  authorName: z.string().nullable(),
  createdAt: z.iso.datetime(),
  publishedAt: z.iso.datetime().nullable(),
  revision: z.number().int(),
  helpful: z.object({ yes: z.number().int(), no: z.number().int() }),
  /** The caller's own vote, null before they vote. */
  myVote: z.enum(["yes", "no"]).nullable(),
});
export type Article = z.infer<typeof articleSchema>;

export const articleRevisionSchema = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string(),
  category: categorySchema,
  tags: z.array(z.string()),
  status: statusSchema,
  visibility: visibilitySchema,
  authorName: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type ArticleRevision = z.infer<typeof articleRevisionSchema>;
export const articleRevisionListSchema = z.object({ items: z.array(articleRevisionSchema) });
export type ArticleRevisionList = z.infer<typeof articleRevisionListSchema>;

export const diffPartSchema = z.object({
  value: z.string(),
  kind: z.enum(["added", "removed", "same"]),
});
export type DiffPart = z.infer<typeof diffPartSchema>;
export const articleDiffSchema = z.object({
  from: z.number().int(),
  to: z.number().int(),
  title: z.array(diffPartSchema),
  body: z.array(diffPartSchema),
});
export type ArticleDiff = z.infer<typeof articleDiffSchema>;

export const articleVoteInputSchema = z.object({
  helpful: z.boolean({ error: "Helpful must be true or false" }),
});

/** A create form's visit: the browser makes one id per visit; suggestions opened and the abandonment share it. */
export const formVisitSchema = z.object({
  formVisit: z.uuid({ error: "Not a form visit id" }),
});

export const articleStatsSchema = z.object({
  items: z.array(
    z.object({
      id: z.number().int(),
      slug: z.string(),
      title: z.string(),
      status: statusSchema,
      visibility: visibilitySchema,
      views: z.number().int(),
      helpfulYes: z.number().int(),
      helpfulNo: z.number().int(),
      suggestionOpens: z.number().int(),
      deflections: z.number().int(),
    }),
  ),
});
export type ArticleStats = z.infer<typeof articleStatsSchema>;

export const articleDraftFromTicketSchema = z.object({
  title: z.string(),
  body: z.string(),
  category: categorySchema,
});
export type ArticleDraftFromTicket = z.infer<typeof articleDraftFromTicketSchema>;

export const ticketIdParamsForArticleSchema = z.object({ ticketId: ticketIdSchema });
