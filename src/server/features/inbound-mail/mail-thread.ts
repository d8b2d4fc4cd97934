import type { ParsedMail } from "mailparser";
import type { Db } from "#server/db/client.ts";
import { ticketIdPattern } from "#shared/tickets/ticket.schemas.ts";
import { findTaggedTicket, findThreadedMessages } from "./inbound-mail.queries.ts";

/**
 * How a message sent to the helpdesk's own address (not a signed reply address) was placed on a ticket
 * (decision 083): by a message it answers, one the helpdesk sent or received about the ticket, or else by
 * the ticket's tag in its subject.
 */
export interface ThreadMatch {
  ticketId: string;
  /** The message it answers was about something staff-only: the reply is an internal note too. */
  isInternal: boolean;
  via: "In-Reply-To" | "References" | "subject tag";
}

// A References header of a long thread lists every message in it; the most recent ones are enough.
const maxReferences = 30;
const messageIdPattern = /<[^<>\s]{1,490}>/g;
// "[TKT…]" anywhere in the subject, whatever "Re:", "AW:" or a mailing list put before it.
const subjectTagPattern = /\[(TKT[0-9A-Z]{14,20})\]/gi;

const idsIn = (header: string | string[] | undefined): string[] =>
  [...(Array.isArray(header) ? header.join(" ") : (header ?? "")).matchAll(messageIdPattern)].map(
    (match) => match[0],
  );

/** The ticket ids tagged in a subject, first to last, upper-cased (a mail program may lower-case them). */
export function subjectTags(subject: string): string[] {
  return [...subject.matchAll(subjectTagPattern)]
    .map((match) => match[1]!.toUpperCase())
    .filter((id) => ticketIdPattern.test(id));
}

/**
 * The ticket a message belongs to, or null: the message named in In-Reply-To first, then those in
 * References from the newest back, then the subject's tag. Only messages the helpdesk itself sent about a
 * ticket, or received and made into a ticket or a comment, count: an id anyone could write (the thread's
 * own `<ticket.…>`) places nothing. A merged ticket's messages lead to the ticket it was merged into.
 * Who may then write on the ticket is decided as for any reply, by the comment service.
 */
export async function findThread(db: Db, parsed: ParsedMail, subject: string): Promise<ThreadMatch | null> {
  const inReplyTo = idsIn(parsed.inReplyTo);
  const references = idsIn(parsed.references).reverse().slice(0, maxReferences);
  const wanted = [...new Set([...inReplyTo, ...references])];
  if (wanted.length > 0) {
    const found = new Map((await findThreadedMessages(db, wanted)).map((row) => [row.messageId, row]));
    for (const id of wanted) {
      const row = found.get(id);
      if (row) {
        return {
          ticketId: row.ticketId,
          isInternal: row.isInternal,
          via: inReplyTo.includes(id) ? "In-Reply-To" : "References",
        };
      }
    }
  }
  for (const tag of subjectTags(subject)) {
    const ticketId = await findTaggedTicket(db, tag);
    if (ticketId) return { ticketId, isInternal: false, via: "subject tag" };
  }
  return null;
}
