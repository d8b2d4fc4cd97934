import { randomUUID } from "node:crypto";
import { nowOf, type ServiceContext } from "#server/context.ts";
import { forbidden, ruleViolation } from "#server/errors.ts";
import type { Article, ArticleStats } from "#shared/articles/article.schemas.ts";
import { articleSlug } from "#shared/articles/article-slug.ts";
import { can } from "#shared/permissions.ts";
import { toArticleDto } from "./article.presenter.ts";
import {
  findArticleStats,
  findVotes,
  insertDeflections,
  insertSuggestionOpened,
  upsertVote,
} from "./article.queries.ts";
import { findVisibleArticle } from "./article.service.ts";

/** "Was this helpful?": one vote per person per article; voting again replaces it. */
export async function voteOnArticle(ctx: ServiceContext, id: number, helpful: boolean): Promise<Article> {
  const row = await findVisibleArticle(ctx, id);
  if (!can.voteOnArticle(ctx.actor, row)) throw ruleViolation("Only a published article can be rated.");
  await upsertVote(ctx.db, id, ctx.actor.id, helpful, nowOf(ctx));
  return toArticleDto(row, await findVotes(ctx.db, id, ctx.actor.id));
}

/** A suggestion opened from the create form (the first half of a deflection). */
export async function recordSuggestionOpened(
  ctx: ServiceContext,
  id: number,
  formVisit: string,
): Promise<void> {
  const row = await findVisibleArticle(ctx, id);
  if (row.status !== "published") throw ruleViolation("Only a published article is suggested.");
  await insertSuggestionOpened(ctx.db, {
    id: `sgo_${randomUUID()}`,
    articleId: id,
    personId: ctx.actor.id,
    formVisit,
    now: nowOf(ctx),
  });
}

/**
 * The create form was left without a ticket: every article the person opened from that visit counts
 * one deflection. A visit with nothing opened counts nothing; a repeated report counts nothing more.
 */
export async function recordDeflection(
  ctx: ServiceContext,
  formVisit: string,
): Promise<{ deflections: number }> {
  if (ctx.actor.role === null) throw forbidden("Choose a role first.");
  return { deflections: await insertDeflections(ctx.db, ctx.actor.id, formVisit, nowOf(ctx)) };
}

/** Per article: views, helpful votes, suggestions opened and deflections (staff; the reports read these). */
export async function articleStats(ctx: ServiceContext): Promise<ArticleStats> {
  if (!can.seeArticleStats(ctx.actor))
    throw forbidden("Only technicians and administrators see article figures.");
  const rows = await findArticleStats(ctx.db);
  return { items: rows.map((row) => ({ ...row, slug: articleSlug(row.id, row.title) })) };
}
