import type { ServiceContext } from "#server/context.ts";
import { forbidden, tooManyAttempts } from "#server/errors.ts";
import { ensureVisible } from "#server/features/ticket-records/ticket-access.ts";
import { can } from "#shared/permissions.ts";
import type { SharePresenceInput, TicketPresence } from "#shared/presence/presence.schemas.ts";
import { findPresenceFacts } from "./presence.queries.ts";
import type { PresenceHub } from "./presence-hub.ts";

export const staffOnlyPresence = "Only technicians and administrators share their presence on a ticket";

/**
 * Who may share presence on the ticket: staff who may see it (decision 072). A ticket the caller may not
 * see does not exist for them (404); a requester who may see it is refused (403). One read, no write.
 */
async function authorize(ctx: ServiceContext, presence: PresenceHub, ticketId: string) {
  const retryAfter = presence.retryAfter(ctx.actor.id);
  if (retryAfter > 0) throw tooManyAttempts(retryAfter);
  const found = await findPresenceFacts(ctx.db, ticketId, ctx.actor.id);
  const ticket = ensureVisible(ctx.actor, found?.ticket, ticketId);
  const { role } = ctx.actor;
  if (!can.sharePresence(ctx.actor, ticket) || role === null) throw forbidden(staffOnlyPresence);
  return { ticket, name: found!.name, role };
}

/** A staff member's ticket page is there, viewing or typing: everyone on the ticket now, them included. */
export async function sharePresence(
  ctx: ServiceContext,
  presence: PresenceHub,
  ticketId: string,
  { state, pageId }: SharePresenceInput,
): Promise<TicketPresence> {
  const { ticket, name, role } = await authorize(ctx, presence, ticketId);
  return presence.share({ ticketId, userId: ctx.actor.id, pageId, state, name, role, ticket });
}

/** The page closed (or left the ticket): the others see its person go at once, if it was their last page. */
export async function leaveTicketPage(
  ctx: ServiceContext,
  presence: PresenceHub,
  ticketId: string,
  pageId: string,
): Promise<void> {
  await authorize(ctx, presence, ticketId);
  presence.leave({ ticketId, userId: ctx.actor.id, pageId });
}
