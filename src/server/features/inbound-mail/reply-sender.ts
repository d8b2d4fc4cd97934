import type { Db } from "#server/db/client.ts";
import { findUserById } from "#server/features/users/user.queries.ts";
import type { ReplyTarget } from "./reply-address.ts";

/**
 * A reply address names the person it was made for (decision 028): mail to it must come from that
 * person's address. Asked twice in the SMTP dialogue, at RCPT with the envelope sender and after DATA with
 * the From header as well (decision 057), so mail from anyone else is refused with a 550 the sending
 * server reports to its own user, and is never answered by mail: an answer would go to whoever's address
 * was forged (backscatter). Returns the SMTP reply's text (enhanced status code first), or null when the
 * sender is the person. An empty envelope sender (a bounce) is not refused here; it is ignored later.
 */
export async function replySenderRefusal(
  db: Db,
  target: ReplyTarget,
  senders: { envelope: string | null; header?: string },
): Promise<string | null> {
  const owner = await findUserById(db, target.userId);
  if (!owner) return "5.1.1 This reply address is no longer in use";
  const own = owner.email.toLowerCase();
  const envelope = senders.envelope?.trim().toLowerCase() || null;
  const elsewhere = `reply from the mailbox the notification was sent to, or comment on ticket ${target.ticketId} in Helpdesk`;
  if (envelope !== null && envelope !== own) {
    return `5.7.1 This reply address belongs to another person's mailbox: ${elsewhere}`;
  }
  if (senders.header !== undefined && senders.header.trim().toLowerCase() !== own) {
    return `5.7.1 The From address is not the one this reply address was made for: ${elsewhere}`;
  }
  return null;
}
