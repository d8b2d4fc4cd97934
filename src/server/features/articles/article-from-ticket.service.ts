import type { ServiceContext } from "#server/context.ts";
import { forbidden, ruleViolation } from "#server/errors.ts";
import { findVisibleTicket } from "#server/features/ticket-records/ticket-access.ts";
import { findComments } from "#server/features/ticket-records/ticket-activity.queries.ts";
import type { ArticleDraftFromTicket } from "#shared/articles/article.schemas.ts";
import { can } from "#shared/permissions.ts";
import { staffWriteArticles } from "./article.service.ts";

/**
 * A new article's starting text from a solved ticket: its title, its description as the problem and its
 * public comments as what was done. Internal notes never enter it, nor anyone's name (an article is
 * read by everyone).
 */
export async function articleDraftFromTicket(
  ctx: ServiceContext,
  ticketId: string,
): Promise<ArticleDraftFromTicket> {
  if (!can.writeArticles(ctx.actor)) throw forbidden(staffWriteArticles);
  const ticket = await findVisibleTicket(ctx, ticketId);
  if (ticket.status !== "Resolved" && ticket.status !== "Closed") {
    throw ruleViolation("Only a resolved or closed ticket can become an article.");
  }
  const comments = await findComments(ctx.db, ticketId, { withInternal: false });
  const steps = comments
    .filter(({ comment }) => !comment.isInternal)
    .map(({ comment }) => comment.message.trim())
    .filter(Boolean);
  const body = [
    "## Problem",
    "",
    ticket.description.trim(),
    "",
    "## Solution",
    "",
    ...(steps.length > 0 ? steps.flatMap((step) => [step, ""]) : ["Describe the steps that solved it.", ""]),
  ]
    .join("\n")
    .trim();
  return { title: ticket.title, body, category: ticket.category };
}
