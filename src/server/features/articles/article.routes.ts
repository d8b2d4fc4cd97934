import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ServiceContext } from "#server/context.ts";
import { forbidden } from "#server/errors.ts";
import {
  articleDiffSchema,
  articleDraftFromTicketSchema,
  articleIdParamsSchema,
  articleListSchema,
  articleRevisionListSchema,
  articleRevisionsDiffQuerySchema,
  articleSchema,
  articleStatsSchema,
  articleVoteInputSchema,
  createArticleInputSchema,
  formVisitSchema,
  listArticlesQuerySchema,
  suggestionsQuerySchema,
  ticketIdParamsForArticleSchema,
  updateArticleInputSchema,
} from "#shared/articles/article.schemas.ts";
import { can } from "#shared/permissions.ts";
import {
  createArticle,
  diffArticleRevisions,
  listArticleRevisions,
  listArticles,
  readArticle,
  staffWriteArticles,
  suggestArticles,
  updateArticle,
} from "./article.service.ts";
import {
  articleStats,
  recordDeflection,
  recordSuggestionOpened,
  voteOnArticle,
} from "./article-engagement.service.ts";
import { articleDraftFromTicket } from "./article-from-ticket.service.ts";

/** /api/articles: the knowledge base. Everyone signed in reads; staff write (docs/decisions/030). */
export async function articleRoutes(
  fastify: FastifyInstance,
  { contextOf }: { contextOf: (request: FastifyRequest) => ServiceContext },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const params = articleIdParamsSchema;
  // Nobody anonymous learns anything here, not even what was wrong with a body they sent.
  app.addHook("preValidation", async (request) => {
    contextOf(request);
  });
  // Staff tools refuse users (403) before they read the body.
  const staffOnly = async (request: FastifyRequest) => {
    if (!can.writeArticles(contextOf(request).actor)) throw forbidden(staffWriteArticles);
  };
  const ok = z.object({ ok: z.literal(true) });

  app.get(
    "/api/articles",
    { schema: { querystring: listArticlesQuerySchema, response: { 200: articleListSchema } } },
    (request) => listArticles(contextOf(request), request.query),
  );

  app.post(
    "/api/articles",
    {
      preValidation: staffOnly,
      schema: { body: createArticleInputSchema, response: { 201: articleSchema } },
    },
    async (request, reply) => reply.status(201).send(await createArticle(contextOf(request), request.body)),
  );

  app.get(
    "/api/articles/suggestions",
    { schema: { querystring: suggestionsQuerySchema, response: { 200: articleListSchema } } },
    (request) => suggestArticles(contextOf(request), request.query.q),
  );

  app.get(
    "/api/articles/stats",
    { preValidation: staffOnly, schema: { response: { 200: articleStatsSchema } } },
    (request) => articleStats(contextOf(request)),
  );

  app.get(
    "/api/articles/from-ticket/:ticketId",
    {
      preValidation: staffOnly,
      schema: { params: ticketIdParamsForArticleSchema, response: { 200: articleDraftFromTicketSchema } },
    },
    (request) => articleDraftFromTicket(contextOf(request), request.params.ticketId),
  );

  app.post(
    "/api/articles/deflections",
    {
      schema: {
        body: formVisitSchema,
        response: { 200: z.object({ deflections: z.number().int() }) },
      },
    },
    (request) => recordDeflection(contextOf(request), request.body.formVisit),
  );

  app.get("/api/articles/:articleId", { schema: { params, response: { 200: articleSchema } } }, (request) =>
    readArticle(contextOf(request), request.params.articleId),
  );

  app.patch(
    "/api/articles/:articleId",
    {
      preValidation: staffOnly,
      schema: { params, body: updateArticleInputSchema, response: { 200: articleSchema } },
    },
    (request) => updateArticle(contextOf(request), request.params.articleId, request.body),
  );

  app.get(
    "/api/articles/:articleId/revisions",
    { preValidation: staffOnly, schema: { params, response: { 200: articleRevisionListSchema } } },
    (request) => listArticleRevisions(contextOf(request), request.params.articleId),
  );

  app.get(
    "/api/articles/:articleId/diff",
    {
      preValidation: staffOnly,
      schema: { params, querystring: articleRevisionsDiffQuerySchema, response: { 200: articleDiffSchema } },
    },
    (request) =>
      diffArticleRevisions(
        contextOf(request),
        request.params.articleId,
        request.query.from,
        request.query.to,
      ),
  );

  app.put(
    "/api/articles/:articleId/vote",
    { schema: { params, body: articleVoteInputSchema, response: { 200: articleSchema } } },
    (request) => voteOnArticle(contextOf(request), request.params.articleId, request.body.helpful),
  );

  app.post(
    "/api/articles/:articleId/suggestion-opens",
    { schema: { params, body: formVisitSchema, response: { 200: ok } } },
    async (request) => {
      await recordSuggestionOpened(contextOf(request), request.params.articleId, request.body.formVisit);
      return { ok: true as const };
    },
  );
}
