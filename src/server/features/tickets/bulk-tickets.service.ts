import type { ServiceContext } from "#server/context.ts";
import { AppError, forbidden, ruleViolation } from "#server/errors.ts";
import { consoleLogError } from "#server/log-error.ts";
import { can } from "#shared/permissions.ts";
import type { BulkAction, BulkResult, BulkTicketsInput } from "#shared/tickets/ticket-bulk.ts";
import { assignTicket, assignTicketToMe } from "./assign-ticket.service.ts";
import { applyTicketEdit } from "./edit-ticket.service.ts";
import { changeTicketStatus } from "./ticket-status.service.ts";

/** One ticket, decided by the very service the ticket page's button calls: same rules, messages, events. */
async function applyToOne(ctx: ServiceContext, ticketId: string, action: BulkAction): Promise<void> {
  switch (action.kind) {
    case "status":
      await changeTicketStatus(ctx, ticketId, { status: action.status });
      return;
    case "assign":
      await assignTicket(ctx, ticketId, { assigneeId: action.assigneeId });
      return;
    case "assignToMe":
      await assignTicketToMe(ctx, ticketId);
      return;
    case "priority": {
      const changes = await applyTicketEdit(ctx, ticketId, { priority: action.priority });
      if (changes.length === 0) throw ruleViolation(`This ticket is already ${action.priority}.`);
      return;
    }
  }
}

/**
 * Decision 015: each ticket in its own transaction, in the order given, so that one refusal leaves the
 * others' changes standing. A ticket the caller may not see is refused as "not found", exactly as the
 * single action answers, so a bulk request reveals nothing a single one would not.
 */
export async function changeTicketsInBulk(
  ctx: ServiceContext,
  { ticketIds, action }: BulkTicketsInput,
): Promise<BulkResult> {
  if (!can.changeInBulk(ctx.actor)) {
    throw forbidden("Only technicians and administrators can change tickets in bulk");
  }
  const result: BulkResult = { changed: [], refused: [] };
  for (const ticketId of ticketIds) {
    try {
      await applyToOne(ctx, ticketId, action);
      result.changed.push(ticketId);
    } catch (error) {
      if (!(error instanceof AppError)) {
        // The tickets before this one are committed already: say which did not change rather than a 500.
        (ctx.dispatcher?.logError ?? consoleLogError)(error, `bulk change of ticket ${ticketId} failed`);
      }
      result.refused.push({
        ticketId,
        message:
          error instanceof AppError ? error.message : "This ticket could not be changed just now; try again.",
      });
    }
  }
  return result;
}
